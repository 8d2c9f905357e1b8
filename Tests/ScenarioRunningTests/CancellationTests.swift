@testable import Processes
@testable import ScenarioRunning
import CourseFiles
import CourseModel
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A cancelled piece of work (an editor's check after a newer edit) stops its processes where
/// they are, starts no more, and keeps nothing of what it ran.
struct CancellationTests {
    /// Whether a process still runs (a zombie has ended).
    func runs(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// Whether `pid` ends (or is a zombie) within `limit`.
    func ended(_ pid: pid_t, within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while runs(pid) {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Waits (at most `limit` seconds) until `file` holds a process ID.
    func pid(in file: String, limit: Double) -> pid_t? {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) { return pid }
            usleep(50_000)
        }
        return nil
    }

    @Test func aCancellationKillsTheChildsGroupAndNoChildStartsAfterIt() throws {
        let folder = temporaryFolder("cancel-child")
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("pid").path
        let cancellation = Cancellation()
        let child = {
            var child = ChildProcess(executable: "/bin/sh", arguments: ["-c", "sleep 300 & echo $! > \(marker); wait"])
            child.cancellation = cancellation
            return child
        }()
        let started = ContinuousClock.now
        let ran = Background { () -> (Termination?, Duration) in
            var watcher = CollectingWatcher(timeLimit: .seconds(30))
            let termination = try? child.run(watching: &watcher)
            return (termination, ContinuousClock.now - started)
        }
        let grandchild = pid(in: marker, limit: 20)
        #expect(grandchild != nil)
        cancellation.cancel()
        let (termination, took) = ran.wait()
        #expect(termination == .signaled(SIGKILL))
        #expect(took < .seconds(15), "ran \(took) of its 30 s")
        // The whole group ended, not just the shell. A killed process ends when the kernel next
        // schedules it, which on a loaded machine can be a moment after the shell is reaped:
        // wait for that (a grandchild the kill missed sleeps 300 s and fails here).
        #expect(grandchild.map { ended($0, within: .seconds(5)) } == true)

        var watcher = CollectingWatcher()
        #expect(throws: ChildProcess.LaunchError.self) { try child.run(watching: &watcher) }
    }

    @Test func aCancelledRunEndsItsProgramsAndCachesNothing() throws {
        let folder = temporaryFolder("cancel-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path + "/cache")
        var settings = RunSettings()
        // A marker in a folder the sandbox would hide, and a time limit far beyond the cancellation.
        settings.sandbox = .off
        settings.timeLimit = .seconds(60)
        let compiler = try SwiftCompiler.locate(versionCache: nil)
        let cancellation = Cancellation()
        let runner = ScenarioRunner(compiler: compiler, coreFiles: [], settings: settings, cache: cache,
                                    cancellation: cancellation)
        let quickMarker = folder.appendingPathComponent("quick").path
        let loopMarker = folder.appendingPathComponent("loop").path
        func program(_ marker: String, then rest: String) -> String {
            "import Glibc\n// \(UUID())\nlet marker = fopen(\"\(marker)\", \"w\")!\nfputs(\"\\(getpid())\", marker)\nfclose(marker)\n\(rest)\n"
        }
        let jobs = [
            program(quickMarker, then: "print(\"quick\")"),
            program(loopMarker, then: "while true {}"),
        ].enumerated().map { index, code in
            ScenarioJob(source: ScenarioSource(code: code, file: "lessons/01-a.md", firstLine: 10 + 10 * index,
                                               columnOffsets: Array(repeating: 0, count: 6)),
                        shape: ScenarioShape(needsOwnProgram: true, hasMainAttribute: false))
        }
        let report = Background { runner.run(jobs) }
        // Both programs started (the compiles take a while under load); the quick one has ended.
        let quick = pid(in: quickMarker, limit: 300)
        let loop = pid(in: loopMarker, limit: 300)
        #expect(quick != nil && loop != nil)
        let deadline = Date().addingTimeInterval(30)
        while let quick, runs(quick), Date() < deadline { usleep(20_000) }
        usleep(300_000)
        let cancelled = ContinuousClock.now
        cancellation.cancel()
        let outcomes = report.wait().outcomes
        #expect(ContinuousClock.now - cancelled < .seconds(30), "the run went on after the cancellation")
        #expect(loop.map(runs) == false, "the looping program still runs")
        #expect(outcomes[0].completedOutput == "quick\n")
        // Not even the output that did complete is kept: the run as a whole is no verdict.
        let fresh = ScenarioRunner(compiler: compiler, coreFiles: [], settings: settings, cache: cache)
        #expect(fresh.start(jobs.map(\.source)).cached.allSatisfy { $0 == nil })
    }
}
