import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The README's "author's loop" is pasted into a shell as it is written, and prints what the
/// README says it prints.
struct ReadmeLoopTests {
    @Test func theLoopWorksAsWritten() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The author's loop\n")).upperBound
        let rest = readme[section...]
        let shell = try #require(rest.range(of: "```sh\n"))
        let shellEnd = try #require(rest[shell.upperBound...].range(of: "```\n"))
        var commands = rest[shell.upperBound..<shellEnd.lowerBound].split(separator: "\n").map(String.init)
        let console = try #require(rest.range(of: "```console\n"))
        let consoleEnd = try #require(rest[console.upperBound...].range(of: "```\n"))
        let shown = rest[console.upperBound..<consoleEnd.lowerBound].split(separator: "\n").map(String.init)

        // The first line puts the binary make built on PATH; here it is the one the tests built.
        #expect(commands.first?.hasPrefix("export PATH=\"$PWD/.build/release:$PATH\"") == true)
        commands.removeFirst()
        #expect(commands.last == "coursebook serve mycourse")
        // The last one serves on 8000; a test takes any free port.
        commands[commands.count - 1] = "exec coursebook serve mycourse --port 0"

        let root = temporaryFolder("readme-loop")
        defer { try? FileManager.default.removeItem(at: root) }
        let binaries = URL(fileURLWithPath: coursebookBinary).deletingLastPathComponent().path
        let script = "set -e\nexport PATH=\"\(binaries):$PATH\"\n" + commands.joined(separator: "\n") + "\n"
        let bash = try #require(findOnPathForTests("bash"))
        let run = try RunningCommand(["-c", script], in: packageRoot, environment: ["TMPDIR": root.path], executable: bash)
        let serving = try #require(run.waitForLine { $0.hasPrefix("serving") }, "\(run.standardOutput)\(run.standardError)")
        let end = try #require(run.waitForLine(from: serving) { $0.hasPrefix("watching") }, "\(run.standardError)")

        // What the README shows before the server starts, line for line.
        let before = try #require(shown.firstIndex(of: "$ coursebook serve mycourse"))
        #expect(run.lines[..<serving].map(\.text) == shown[..<before].filter { !$0.hasPrefix("$ ") }, "\(run.standardOutput)")
        // And the server's lines, but for the port.
        let port = run.lines[serving].text.split(separator: ":").dropFirst(2).first.map { String($0.prefix { $0.isNumber }) } ?? ""
        #expect(run.lines[serving...end].map { $0.text.replacingOccurrences(of: ":\(port)/", with: ":8000/") }
                == Array(shown[(before + 1)...]), "\(run.standardOutput)")
        #expect(try HTTPExchange.get("/01-first-steps.html", port: UInt16(port) ?? 0).status == 200)
        #expect(run.stop(SIGINT) == 130)
        #expect(run.standardError == "coursebook: stopped\n")
    }
}

/// A program on PATH.
func findOnPathForTests(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}
