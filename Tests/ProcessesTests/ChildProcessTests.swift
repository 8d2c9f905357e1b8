@testable import Processes
import CourseModel
import Foundation
import Testing

/// What a child is given and nothing more: its standard input as bytes or from /dev/null,
/// the passed files from descriptor 4 up, no other descriptor of ours; and what cannot be
/// given stops it before it starts, naming what failed.
struct ChildProcessTests {
    func run(_ child: ChildProcess) throws -> (termination: Termination, output: String) {
        var watcher = CollectingWatcher(timeLimit: .seconds(20))
        let termination = try child.run(watching: &watcher)
        return (termination, String(decoding: watcher.standardOutput, as: UTF8.self))
    }

    func shell(_ script: String) -> ChildProcess {
        ChildProcess(executable: "/bin/sh", arguments: ["-c", script])
    }

    @Test func standardInputIsTheBytesGivenOrNothing() throws {
        var child = shell("cat; echo .")
        #expect(try run(child).output == ".\n")
        child.standardInputBytes = Array("token\n".utf8)
        #expect(try run(child).output == "token\n.\n")
        child.standardInputBytes = Array(repeating: UInt8(ascii: "a"), count: Int(PIPE_BUF) + 1)
        #expect(throws: ChildProcess.LaunchError.self) { try run(child) }
    }

    @Test func passedFilesAreOpenFromDescriptorFourAndNothingElseIs() throws {
        let folder = NSTemporaryDirectory() + "/child-process-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "first\n".write(toFile: folder + "/a", atomically: true, encoding: .utf8)
        try "second\n".write(toFile: folder + "/b", atomically: true, encoding: .utf8)
        var child = shell("cat <&4; cat <&5; ls /proc/self/fd | sort -n | tr '\\n' ' '")
        child.passedFiles = [folder + "/a", folder + "/b"]
        let result = try run(child)
        #expect(result.termination == .exited(0))
        // 0-2, the two passed files, and the descriptor `ls` opens to read the folder.
        #expect(result.output == "first\nsecond\n0 1 2 3 4 5 ", "\(result.output)")
        child.passedFiles = [folder + "/a", folder + "/missing"]
        #expect {
            try run(child)
        } throws: { error in
            (error as? ChildProcess.LaunchError)?.executable == folder + "/missing"
                && (error as? ChildProcess.LaunchError)?.code == ENOENT
        }
    }

    @Test func aProgramThatCannotStartSaysWhy() throws {
        #expect {
            try run(ChildProcess(executable: "/nonexistent/program", arguments: []))
        } throws: { error in
            (error as? ChildProcess.LaunchError)?.code == ENOENT
        }
    }

    @Test func theEndIsTheChildsOwn() throws {
        #expect(try run(shell("exit 3")).termination == .exited(3))
        #expect(try run(shell("kill -9 $$")).termination == .signaled(SIGKILL))
    }
}
