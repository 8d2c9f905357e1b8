import Foundation
import ScenarioRunning
import TestSupport
import Testing

/// Scenarios written by someone who means harm, run by the binary: in the sandbox they cannot
/// read the caller's environment, write into the course, reach the network, outlive the run or
/// forge another scenario's result.
@Suite(.serialized) struct HostileScenarioTests {
    /// A course in a new folder whose one lesson holds `scenarios`, each with the output it
    /// must print; the lesson can name the course's own folder (`COURSE`) and a port.
    func course(_ scenarios: [(code: String, output: String)], port: UInt16 = 0) throws -> URL {
        let folder = temporaryFolder("hostile").appendingPathComponent("course")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{ "title": "Hostile", "language": "en", "limitNotes": "optional" }"#.utf8)
            .write(to: folder.appendingPathComponent("course.json"))
        var lesson = "# Hostile\n\n"
        for scenario in scenarios {
            let code = scenario.code.replacingOccurrences(of: "COURSE", with: folder.path)
                .replacingOccurrences(of: "PORT", with: String(port))
            lesson += "```swift scenario\n\(code)\n```\n\n```output\n\(scenario.output)\n```\n\n"
        }
        try Data(lesson.utf8).write(to: folder.appendingPathComponent("01-hostile.md"))
        return folder
    }

    /// Live processes (not zombies) whose command line holds `marker`.
    func processes(with marker: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard Int(entry) != nil,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"), !stat[stat.index(after: close)...].hasPrefix(" Z"),
                  let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let line = String(decoding: bytes.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(marker) ? "\(entry): \(line)" : nil
        }
    }

    @Test func aScenarioSeesNoSecretNoCourseAndNoNetwork() throws {
        // A listener on the loopback interface: outside the sandbox a scenario could reach it.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        listen(listener, 1)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)

        let folder = try course([
            ("""
             import Glibc
             print(getenv("COURSEBOOK_TEST_SECRET").map { String(cString: $0) } ?? "no secret")
             """, "no secret"),
            ("""
             import Glibc
             let file = fopen("COURSE/pwned.txt", "w")
             print(file == nil ? "the course is out of reach" : "wrote into the course")
             """, "the course is out of reach"),
            ("""
             import Glibc
             let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
             var address = sockaddr_in()
             address.sin_family = sa_family_t(AF_INET)
             address.sin_port = in_port_t(UInt16(PORT).bigEndian)
             address.sin_addr.s_addr = inet_addr("127.0.0.1")
             let connected = withUnsafePointer(to: &address) {
                 $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
             }
             print(connected == 0 ? "reached the network" : "no network")
             """, "no network"),
        ], port: port)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required"],
                                    environment: ["COURSEBOOK_TEST_SECRET": "hunter2"])
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("pwned.txt").path))

        // Without the sandbox the same scenarios reach the machine, but never the caller's
        // environment.
        let plain = try coursebook(["check", folder.path, "--no-cache", "--no-sandbox"],
                                   environment: ["COURSEBOOK_TEST_SECRET": "hunter2"])
        #expect(plain.status == 1)
        #expect(!plain.standardError.contains("hunter2"))
        #expect(plain.standardError.contains("+wrote into the course"), "\(plain)")
    }

    /// A scenario that starts a process in a session of its own, which keeps the scenario's
    /// output open and would run forever: the scenario ends at once with its own output, and
    /// the process is gone when the check is.
    @Test func whatAScenarioLeavesRunningEndsWithIt() throws {
        let marker = "4242.\(Int.random(in: 100...999))"
        let folder = try course([
            ("""
             import Glibc
             print("started")
             if fork() == 0 {
                 setsid()
                 execv("/usr/bin/sleep", [strdup("sleep"), strdup("\(marker)"), nil])
             }
             """, "started"),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        for placement in [["--sandbox", "required"], ["--no-sandbox"]] {
            let result = try coursebook(["check", folder.path, "--no-cache", "--timeout", "30"] + placement)
            #expect(result.status == 0, "\(placement): \(result)")
            #expect(processes(with: marker).isEmpty, "\(placement) left \(processes(with: marker))")
        }
    }

    /// `Tests/Fixtures/hostile-scenarios`: a scenario that prints what looks like the batch's
    /// frames, or escapes its function with an unbalanced brace to redefine `print`, changes no
    /// other scenario's result, and the caller's secret stays with the caller.
    @Test func noScenarioWritesAnotherOnesResult() throws {
        let result = try coursebook(["check", "hostile-scenarios", "--no-cache"],
                                    environment: ["COURSEBOOK_TEST_SECRET": "hunter2"])
        #expect(result.status == 1)
        #expect(result.standardOutput.hasSuffix("4 passed, 1 failed\n"), "\(result)")
        // The one failure is the brace, as the compiler reports it alone.
        #expect(result.standardError == """
            hostile-scenarios/01-forgery.md:27:1: error: extraneous '}' at top level
            hostile-scenarios/01-forgery.md:30:1: error: expected '}' at end of brace statement
            hostile-scenarios/01-forgery.md:29:13: note: to match this opening '{'

            """, "\(result)")
    }

    /// SIGTERM, SIGINT or SIGKILL to coursebook while a scenario runs: no process of the run is
    /// left, and a signal it can answer ends it with 143 or 130 and no scratch folder.
    @Test(arguments: [SIGTERM, SIGINT, SIGKILL])
    func aStoppedRunLeavesNoProcess(signal: Int32) throws {
        let marker = "7777.\(Int.random(in: 100...999))"
        let folder = try course([
            ("""
             import Glibc
             print("running")
             execv("/usr/bin/sleep", [strdup("sleep"), strdup("\(marker)"), nil])
             """, "running"),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let run = Process()
        run.executableURL = URL(fileURLWithPath: coursebookBinary)
        run.arguments = ["check", folder.path, "--no-cache", "--timeout", "120"]
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        let started = ContinuousClock.now
        while processes(with: marker).isEmpty, ContinuousClock.now - started < .seconds(60) {
            usleep(50_000)
        }
        #expect(!processes(with: marker).isEmpty, "the scenario never started")
        kill(run.processIdentifier, signal)
        run.waitUntilExit()
        switch signal {
        case SIGKILL: #expect(run.terminationReason == .uncaughtSignal)
        case SIGINT: #expect(run.terminationStatus == 130)
        default: #expect(run.terminationStatus == 143)
        }
        // The sandbox dies with its parent; give the kernel a moment to take it down.
        let ended = ContinuousClock.now
        while !processes(with: marker).isEmpty, ContinuousClock.now - ended < .seconds(5) { usleep(50_000) }
        #expect(processes(with: marker).isEmpty, "left: \(processes(with: marker))")
        if signal != SIGKILL {
            let scratch = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
            #expect(!scratch.contains { $0.hasPrefix("coursebook-\(run.processIdentifier)-") })
        }
    }

    @Test func aRequiredSandboxThatCannotStartIsAnError() throws {
        let folder = try course([("print(1)", "1")])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required"],
                                    environment: ["PATH": "/nonexistent:" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                                                  "COURSEBOOK_LAUNCHER": "/nonexistent/launcher"])
        #expect(result.status == 6, "\(result)")
        #expect(result.standardError.contains("the sandbox is required (--sandbox required) and cannot start here: coursebook-launcher is not beside coursebook"), "\(result)")
        let automatic = try coursebook(["check", folder.path, "--no-cache"],
                                       environment: ["COURSEBOOK_LAUNCHER": "/nonexistent/launcher"])
        #expect(automatic.status == 0, "\(automatic)")
        #expect(automatic.standardError == "coursebook check: note: scenarios ran without the sandbox: coursebook-launcher is not beside coursebook (the build puts it there) ('--sandbox required' makes this an error)\n")
    }
}

/// A cache that lies: entries cut short, forged, signed with another key or replaced by links
/// are not believed, and the scenarios run again.
@Suite(.serialized) struct CacheThatCannotLieTests {
    @Test func refusedEntriesAreComputedAgain() throws {
        let root = temporaryFolder("lying-cache")
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = root.appendingPathComponent("cache")
        // The user's shared store of Swift readings is this test's own: entries signed with
        // these keys there would be refused, and reported, by every other test's check.
        let shared = root.appendingPathComponent("user-cache").path
        let key = ["COURSEBOOK_CACHE_KEY": "first", "XDG_CACHE_HOME": shared]
        let arguments = ["check", "passing", "--cache-dir", cache.path]
        let cold = try coursebook(arguments, environment: key)
        #expect(cold.status == 0 && cold.standardOutput.hasPrefix("compiled 2 scenarios"), "\(cold)")
        let warm = try coursebook(arguments, environment: key)
        #expect(warm.standardOutput.hasPrefix("compiled 0 scenarios"), "\(warm)")

        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".out") }.sorted()
        #expect(entries.count == 2)
        // The run's pack of outputs would answer before the entries do: it is removed before
        // each lying run, so that the entries are what is read (a lying pack is refused as an
        // entry is: ScenarioRunnerTests.aDamagedCacheEntryIsNotBelieved).
        let pack = cache.appendingPathComponent("outputs.pack").path
        #expect(FileManager.default.fileExists(atPath: pack))
        // One cut short, one forged: the same entry with another output and its old signature.
        let first = cache.appendingPathComponent(entries[0]).path
        let second = cache.appendingPathComponent(entries[1]).path
        let bytes = try #require(FileManager.default.contents(atPath: first))
        try bytes.dropLast(1).write(to: URL(fileURLWithPath: first))
        var forged = try String(contentsOfFile: second, encoding: .utf8)
        forged = forged.replacingOccurrences(of: "\n", with: "\nforged ", options: .backwards,
                                             range: forged.index(forged.endIndex, offsetBy: -2)..<forged.endIndex)
        try forged.write(toFile: second, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: pack)
        let damaged = try coursebook(arguments, environment: key)
        #expect(damaged.status == 0, "\(damaged)")
        #expect(damaged.standardOutput.hasPrefix("compiled 2 scenarios"), "\(damaged)")
        #expect(damaged.standardError.contains("note: 2 cache entries not believed"), "\(damaged)")

        // An entry that is a link to a file elsewhere.
        try FileManager.default.removeItem(atPath: first)
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "/etc/hostname")
        try FileManager.default.removeItem(atPath: pack)
        let linked = try coursebook(arguments, environment: key)
        #expect(linked.standardOutput.hasPrefix("compiled 1 scenario "), "\(linked)")
        #expect(linked.standardError.contains("note: 1 cache entry not believed"), "\(linked)")

        // The whole cache, signed with another machine's key (a cache committed with a course).
        let elsewhere = try coursebook(arguments, environment: ["COURSEBOOK_CACHE_KEY": "second", "XDG_CACHE_HOME": shared])
        #expect(elsewhere.status == 0)
        #expect(elsewhere.standardOutput.hasPrefix("compiled 2 scenarios"), "\(elsewhere)")
    }
}
