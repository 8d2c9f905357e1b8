import Foundation
import Processes
import ScenarioRunning
import TestSupport
import Testing

/// A course in a new folder whose one lesson holds `scenarios`, each with the output it must
/// print; `COURSE` in a scenario's code names the course's folder.
func hostileCourse(_ scenarios: [(code: String, output: String)], name: String = "sandbox",
                   in parent: URL? = nil) throws -> URL {
    let folder = (parent ?? temporaryFolder(name)).appendingPathComponent("course")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(#"{ "title": "Hostile", "language": "en", "limitNotes": "optional" }"#.utf8)
        .write(to: folder.appendingPathComponent("course.json"))
    var lesson = "# Hostile\n\n"
    for scenario in scenarios {
        let code = scenario.code.replacingOccurrences(of: "COURSE", with: folder.path)
        lesson += "```swift scenario\n\(code)\n```\n\n```output\n\(scenario.output)\n```\n\n"
    }
    try Data(lesson.utf8).write(to: folder.appendingPathComponent("01-hostile.md"))
    return folder
}

/// The lesson line of the `number`-th scenario's fence (from 1) in a lesson `hostileCourse`
/// wrote: where its findings are.
func scenarioLine(_ number: Int, of folder: URL) throws -> Int {
    let lesson = try String(contentsOf: folder.appendingPathComponent("01-hostile.md"), encoding: .utf8)
    let lines = lesson.components(separatedBy: "\n")
    let fences = lines.indices.filter { lines[$0] == "```swift scenario" }
    return fences[number - 1] + 1
}

/// What a scenario can reach of the machine that checks it, as coursebook runs here (as root):
/// never the host's root identity, nothing of the checker's processes, nothing it could write
/// outside its own folders.
@Suite(.serialized) struct SandboxIdentityTests {
    /// A program of one scenario (it imports Glibc) writes a clean ending into the launcher's
    /// status pipe through /proc/1/fd/3 and then traps: the trap is what the check reports.
    @Test func theLauncherStatusCannotBeForged() throws {
        let folder = try hostileCourse([
            ("""
             import Glibc
             let status = open("/proc/1/fd/3", O_WRONLY)
             if status >= 0 { _ = write(status, "e0", 2); close(status) }
             print(status >= 0 ? "forged" : "no way in")
             fatalError("trapped after the forgery")
             """, "forged"),
            ("print(\"after\")", "after"),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required"])
        #expect(result.status == 1, "\(result)")
        let line = try scenarioLine(1, of: folder)
        #expect(result.standardError.hasPrefix("\(folder.path)/01-hostile.md:\(line):1: error: scenario crashed: signal 4 (SIGILL: a Swift trap)\n"), "\(result)")
        #expect(result.standardError.contains("    no way in\n"), "\(result)")
        #expect(result.standardOutput.hasSuffix("1 passed, 1 failed\n"), "\(result)")
    }
}

extension SandboxIdentityTests {
    /// A batched scenario, through a core file that imports Glibc, writes frames of a clean
    /// ending where the batch program's frames and the launcher's status go, then traps: the
    /// trap is what the check reports, and the scenarios around it are untouched.
    @Test func aBatchedScenarioCannotForgeAFrame() throws {
        let folder = try hostileCourse([
            ("print(\"before\")", "before"),
            ("let reached = forgeEndings()\nprint(reached)\nfatalError(\"trapped\")", "forged"),
            ("print(\"after\")", "after"),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data("""
            import Glibc

            /// Writes a clean ending of every scenario into every descriptor of the batch program and
            /// the launcher it can open; says how many it opened.
            public func forgeEndings() -> String {
                var opened = 0
                for process in ["1", "\\(getppid())"] {
                    for descriptor in 0..<8 {
                        let file = open("/proc/\\(process)/fd/\\(descriptor)", O_WRONLY)
                        guard file >= 0 else { continue }
                        opened += 1
                        for index in 0..<3 { _ = write(file, "\\u{1E}X\\(index) 2\\u{1E}e0", 8) }
                        _ = write(file, "e0", 2)
                        close(file)
                    }
                }
                return opened == 0 ? "no way in" : "forged"
            }

            """.utf8).write(to: folder.appendingPathComponent("Forge.swift"))
        try Data(#"{ "title": "Hostile", "language": "en", "limitNotes": "optional", "core": ["Forge.swift"] }"#.utf8)
            .write(to: folder.appendingPathComponent("course.json"))
        let result = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.hasPrefix("compiled 3 scenarios (1 swiftc run)"), "\(result)")
        #expect(result.standardOutput.hasSuffix("2 passed, 1 failed\n"), "\(result)")
        let line = try scenarioLine(2, of: folder)
        #expect(result.standardError.hasPrefix("\(folder.path)/01-hostile.md:\(line):1: error: scenario crashed: signal 4 (SIGILL: a Swift trap)\nstandard output:\n    no way in\n"), "\(result)")
    }

    /// Live processes (not zombies) whose command line holds `marker`, with their user as the
    /// host sees it.
    func users(ofProcessesWith marker: String) -> [UInt32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> UInt32? in
            guard Int(entry) != nil,
                  let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                  String(decoding: bytes.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).contains(marker),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }),
                  !status.contains("State:\tZ") else { return nil }
            return line.split(separator: "\t").dropFirst().first.flatMap { UInt32($0) }
        }
    }

    /// Inside, a scenario is `nobody` without capabilities; `/proc/sys` cannot be written
    /// (`fs.lease-break-time`, `kernel.core_pattern`), nor `/proc/1`'s descriptors read, nor
    /// any file but its own folders and the usual devices; outside, the host sees an
    /// unprivileged user of coursebook's range, never root.
    @Test func aScenarioIsNeverTheHostsRoot() throws {
        let marker = "5151.\(Int.random(in: 100...999))"
        let folder = try hostileCourse([
            ("""
             import Glibc
             print("user", getuid(), geteuid(), getgid())
             for setting in ["/proc/sys/fs/lease-break-time", "/proc/sys/kernel/core_pattern", "/proc/sysrq-trigger"] {
                 let file = open(setting, O_WRONLY)
                 print(setting, file >= 0 ? "opened for writing" : "not writable")
             }
             print("/proc/1/fd", opendir("/proc/1/fd") == nil ? "out of reach" : "readable")
             let status = fopen("/proc/self/status", "r")!
             var line = [CChar](repeating: 0, count: 256)
             while fgets(&line, 256, status) != nil {
                 let text = String(cString: line)
                 if text.hasPrefix("CapEff") || text.hasPrefix("CapPrm") || text.hasPrefix("NoNewPrivs") { print(text, terminator: "") }
             }
             // Everything it could write, but its processes' own files in /proc.
             // (Links are left out: /dev/stdout is its own pipe, others lead to /dev/null.)
             var pid: pid_t = 0
             let find = "find / -path /proc -prune -o -writable ! -type l -print | sort"
             let words: [String] = ["sh", "-c", find]
             let argv = words.map { strdup($0) } + [nil]
             posix_spawn(&pid, "/bin/sh", nil, nil, argv, nil)
             var ended: Int32 = 0
             waitpid(pid, &ended, 0)
             execv("/usr/bin/sleep", [strdup("sleep"), strdup("\(marker)"), nil])
             """, """
             user 65534 65534 65534
             /proc/sys/fs/lease-break-time not writable
             /proc/sys/kernel/core_pattern not writable
             /proc/sysrq-trigger not writable
             /proc/1/fd out of reach
             CapPrm:\t0000000000000000
             CapEff:\t0000000000000000
             NoNewPrivs:\t1
             /dev/full
             /dev/null
             /dev/pts
             /dev/pts/ptmx
             /dev/random
             /dev/shm
             /dev/tty
             /dev/urandom
             /dev/zero
             /tmp
             /tmp/work
             """),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let run = Process()
        run.executableURL = URL(fileURLWithPath: coursebookBinary)
        run.arguments = ["check", folder.path, "--no-cache", "--sandbox", "required", "--timeout", "60"]
        let errors = Pipe()
        run.standardOutput = FileHandle.nullDevice
        run.standardError = errors
        try run.run()
        let started = ContinuousClock.now
        var seen: [UInt32] = []
        while seen.isEmpty, ContinuousClock.now - started < .seconds(120) {
            seen = users(ofProcessesWith: marker)
            usleep(20_000)
        }
        #expect(!seen.isEmpty, "the scenario never started")
        #expect(seen.allSatisfy { Sandbox.hostUsers.contains($0) }, "the host sees users \(seen)")
        kill(run.processIdentifier, SIGTERM)
        run.waitUntilExit()
        // Its output, checked by a run that does not wait for the sleep.
        let lesson = folder.appendingPathComponent("01-hostile.md")
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "execv(\"/usr/bin/sleep\", [strdup(\"sleep\"), strdup(\"\(marker)\"), nil])", with: "").utf8)
            .write(to: lesson)
        let result = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required"])
        #expect(result.status == 0, "\(result)")
    }
}

/// A course in a repository placed under /usr (as Docker's `WORKDIR /usr/src/app` puts it),
/// with a home folder there too: a scenario reads nothing of either.
@Suite(.serialized) struct SandboxSightTests {
    @Test func theRepositoryAndTheHomeAreOutOfSight() throws {
        let repository = URL(fileURLWithPath: "/usr/src/coursebook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: repository) }
        try Data("[remote \"origin\"]\n\turl = https://x-access-token:hunter2@github.com/o/r\n".utf8)
            .write(to: repository.appendingPathComponent(".git/config"))
        try Data("TOKEN=hunter2\n".utf8).write(to: repository.appendingPathComponent(".env"))
        let home = repository.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("hunter2\n".utf8).write(to: home.appendingPathComponent(".netrc"))
        let probes = [repository.path + "/.env", repository.path + "/.git/config", home.path + "/.netrc",
                      "COURSE/01-hostile.md", "COURSE/course.json"]
        let course = try hostileCourse([
            ("""
             import Glibc
             for path in [\(probes.map { "\"\($0)\"" }.joined(separator: ", "))] {
                 let file = fopen(path, "r")
                 print(file == nil ? "cannot read" : "read", String(path.dropFirst(\(repository.path.count))))
                 if let file { fclose(file) }
             }
             """, """
             cannot read /.env
             cannot read /.git/config
             cannot read /home/.netrc
             cannot read /course/01-hostile.md
             cannot read /course/course.json
             """),
        ], in: repository)
        let cache = (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]).flatMap { $0.isEmpty ? nil : $0 }
            ?? NSHomeDirectory() + "/.cache"
        let result = try coursebook(["check", course.path, "--no-cache", "--sandbox", "required"],
                                    environment: ["HOME": home.path, "XDG_CACHE_HOME": cache])
        #expect(result.status == 0, "\(result)")
        #expect(!result.standardError.contains("hunter2"))
    }
}

/// Each limit of the sandbox, reached by one scenario: a finding at its line that names the
/// limit and its option, and the scenarios after it (batched or alone) run as ever.
@Suite(.serialized) struct SandboxLimitTests {
    /// Checks `scenarios` in the sandbox with `options`; returns the result and the course.
    func check(_ scenarios: [(code: String, output: String)], _ options: [String] = []) throws -> (CommandResult, URL) {
        let folder = try hostileCourse(scenarios, name: "limits")
        let result = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required"] + options)
        return (result, folder)
    }

    /// The finding at the `number`-th scenario's line, as the check prints it.
    func finding(_ number: Int, _ message: String, in folder: URL) throws -> String {
        "\(folder.path)/01-hostile.md:\(try scenarioLine(number, of: folder)):1: error: \(message)\n"
    }

    /// 1 GiB at once in a batched scenario (the kernel refuses it to a process under the default
    /// 512 MiB), 100 MiB in steps, and 3 processes of 40 MiB each under a limit of 64 MiB: the
    /// launcher sees their sum.
    @Test func memory() throws {
        let (defaults, first) = try check([
            ("let big = [UInt8](repeating: 1, count: 1 << 30)\nprint(big.count)", "1073741824"),
            ("print(\"batched after\")", "batched after"),
        ])
        defer { try? FileManager.default.removeItem(at: first.deletingLastPathComponent()) }
        #expect(defaults.status == 1, "\(defaults)")
        #expect(defaults.standardOutput.hasPrefix("compiled 2 scenarios (1 swiftc run)"), "\(defaults)")
        #expect(defaults.standardError.hasPrefix(try finding(1, "scenario used more than 512 MiB of memory and was stopped (--memory-limit raises the limit)", in: first)), "\(defaults)")
        #expect(defaults.standardOutput.hasSuffix("1 passed, 1 failed\n"), "\(defaults)")
        // Without the sandbox the kernel still holds each process to the limit.
        let plain = try coursebook(["check", first.path, "--no-cache", "--no-sandbox"])
        #expect(plain.standardError.hasPrefix(try finding(1, "scenario used more than 512 MiB of memory and was stopped (--memory-limit raises the limit)", in: first)), "\(plain)")

        let (small, second) = try check([
            ("var chunks: [[UInt8]] = []\nfor _ in 0..<10 { chunks.append([UInt8](repeating: 1, count: 10 << 20)) }\nprint(chunks.count)", "10"),
            ("""
             import Glibc
             for _ in 0..<3 where fork() == 0 {
                 var held = [UInt8](repeating: 1, count: 40 << 20)
                 held[7] = 2
                 sleep(10)
                 exit(Int32(held[7]))
             }
             sleep(10)
             """, ""),
            ("import Glibc\nprint(\"alone after\")", "alone after"),
        ], ["--memory-limit", "64"])
        defer { try? FileManager.default.removeItem(at: second.deletingLastPathComponent()) }
        let message = "scenario used more than 64 MiB of memory and was stopped (--memory-limit raises the limit)"
        #expect(small.standardError.contains(try finding(1, message, in: second)), "\(small)")
        #expect(small.standardError.contains(try finding(2, message, in: second)), "\(small)")
        #expect(small.standardOutput.hasSuffix("1 passed, 2 failed\n"), "\(small)")
    }

    /// 400 forks that stay: the 256th process or thread is refused (root would not be), and
    /// the scenario is stopped with a finding.
    @Test func processes() throws {
        let (result, folder) = try check([
            ("""
             import Glibc
             var started = 0
             for _ in 0..<400 {
                 let pid = fork()
                 if pid == 0 { sleep(30); exit(0) }
                 if pid > 0 { started += 1 }
             }
             print("started", started)
             """, "started 400"),
            ("import Glibc\nprint(\"after\")", "after"),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        #expect(result.standardError.hasPrefix(try finding(1, "scenario reached 256 processes and threads at once and was stopped (--process-limit raises the limit)", in: folder)), "\(result)")
        #expect(result.standardError.contains("    started 254\n"), "\(result)")
        #expect(result.standardOutput.hasSuffix("1 passed, 1 failed\n"), "\(result)")
        let raised = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required", "--process-limit", "1000"])
        #expect(raised.standardOutput.hasSuffix("2 passed, 0 failed\n"), "\(raised)")
    }

    /// Open files past the limit of a process, held: a finding; `/tmp` and `/dev/shm` of 64 MiB
    /// each, filled: a finding each; `/` cannot be written at all.
    @Test func filesAndTemporarySpace() throws {
        func fill(_ folder: String) -> String {
            """
            import Glibc
            let file = fopen("\(folder)/fill", "w")
            var block = [UInt8](repeating: 7, count: 1 << 20)
            var written = 0
            while file != nil, written < 100, fwrite(&block, 1, block.count, file) == block.count { written += 1 }
            print(file == nil ? "\(folder): not writable" : "\(folder): \\(written) MiB")
            sleep(1)
            """
        }
        let (result, folder) = try check([
            ("""
             import Glibc
             var opened: [Int32] = []
             for _ in 0..<2000 { let file = open("/dev/null", O_RDONLY); if file < 0 { break }; opened.append(file) }
             print("opened", opened.count)
             sleep(1)
             """, "opened 2000"),
            (fill("/tmp"), "/tmp: 100 MiB"),
            (fill("/dev/shm"), "/dev/shm: 100 MiB"),
            (fill(""), ": not writable"),
            (fill("/dev"), "/dev: not writable"),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let errors = result.standardError
        #expect(result.status == 1)
        #expect(result.standardOutput.hasSuffix("2 passed, 3 failed\n"), "\(result)")
        #expect(errors.contains(try finding(1, "scenario held 256 open files in one process and was stopped (--file-limit raises the limit)", in: folder)), "\(errors)")
        #expect(errors.contains(try finding(2, "scenario filled /tmp (64 MiB) and was stopped (--tmp-size raises the limit)", in: folder)), "\(errors)")
        #expect(errors.contains(try finding(3, "scenario filled /dev/shm (64 MiB) and was stopped (--tmp-size raises the limit)", in: folder)), "\(errors)")
        #expect(errors.components(separatedBy: "error:").count == 4, "\(errors)")
    }

    /// The output cap, raised.
    @Test func output() throws {
        let (result, folder) = try check([
            ("let line = String(repeating: \"x\", count: 1023)\nfor _ in 0..<1536 { print(line) }", ""),
        ])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        #expect(result.standardError.hasPrefix(try finding(1, "scenario printed more than 1 MiB and was stopped; its output is cut there", in: folder)), "\(result)")
        let raised = try coursebook(["check", folder.path, "--no-cache", "--sandbox", "required", "--output-limit", "2"])
        #expect(raised.standardError.contains("output of the scenario at line"), "\(raised)")
        #expect(!raised.standardError.contains("printed more than"), "\(raised)")
    }

    /// A scenario can see its limits, so a result kept under some limits is not taken under
    /// others: the second check compiles again and prints the new value.
    @Test func cachedResultsBelongToTheirLimits() throws {
        let folder = try hostileCourse([
            ("import Glibc\nvar files = rlimit()\ngetrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &files)\nprint(files.rlim_cur)", "100"),
        ], name: "limits-cache")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let first = try coursebook(["check", folder.path, "--sandbox", "required", "--file-limit", "100"])
        #expect(first.status == 0, "\(first)")
        let again = try coursebook(["check", folder.path, "--sandbox", "required", "--file-limit", "100"])
        #expect(again.standardOutput.hasPrefix("compiled 0 scenarios"), "\(again)")
        let other = try coursebook(["check", folder.path, "--sandbox", "required", "--file-limit", "200"])
        #expect(other.standardOutput.hasPrefix("compiled 1 scenario "), "\(other)")
        #expect(other.standardError.contains("+200"), "\(other)")
    }

    @Test(arguments: [
        (["--memory-limit", "0"], "'--memory-limit' needs a whole number from 16 to 1048576, not '0'"),
        (["--process-limit", "many"], "'--process-limit' needs a whole number from 8 to 4194304, not 'many'"),
        (["--file-limit", "1.5"], "'--file-limit' needs a whole number from 16 to 1048576, not '1.5'"),
        (["--tmp-size", "-1"], "'--tmp-size' needs a whole number from 1 to 1048576, not '-1'"),
        (["--output-limit", "5000"], "'--output-limit' needs a whole number from 1 to 4096, not '5000'"),
        (["--compile-memory-limit", "64"], "'--compile-memory-limit' needs a whole number from 128 to 1048576, not '64'"),
    ])
    func wrongLimitsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try coursebook(["check", "passing"] + arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.contains(message), "\(result)")
    }
}

/// The compiler runs in a sandbox of its own: a compiler (here a script that stands for one a
/// lesson has made misbehave) sees the system read-only, its scenario folder writable, and
/// nothing of the course, the home folder or the network; past its memory limit it is stopped.
@Suite(.serialized) struct CompilerSandboxTests {
    /// A compiler at `folder/swiftc` that answers the version question (and the language-mode
    /// probe, a file of coursebook's own in a folder of its own, never a course's) with the
    /// real compiler, and for a compile prints `probe`'s lines as errors and fails.
    func fakeCompiler(in folder: URL, probe: String) throws -> String {
        let real = try SwiftCompiler.locate(versionCache: nil)
        let script = folder.appendingPathComponent("swiftc").path
        try """
            #!/bin/sh
            case "$*" in *-print-target-info*) exec "\(real.executable)" "$@";; esac
            case "$PWD" in */coursebook-mode-*) exec "\(real.executable)" "$@";; esac
            case "$*" in *-###*) exit 1;; esac
            \(probe)
            exit 1

            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return script
    }

    @Test func theCompilerSeesOnlyItsFolder() throws {
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

        let course = try hostileCourse([("print(1)", "1")], name: "compiler-sandbox")
        defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
        let tools = course.deletingLastPathComponent().appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        // A file of the home folder, whose folders the compiler's module cache lies in.
        let secret = NSHomeDirectory() + "/coursebook-test-secret-\(UUID().uuidString)"
        try Data("hunter2".utf8).write(to: URL(fileURLWithPath: secret))
        defer { try? FileManager.default.removeItem(atPath: secret) }
        // A name of this run's own: a file another run left cannot fail this one.
        let planted = "/usr/coursebook-test-\(UUID().uuidString)"
        let script = try fakeCompiler(in: tools, probe: """
            say() { echo "error: $1" >&2; }
            (echo 45 > /proc/sys/fs/lease-break-time) 2>/dev/null && say "sysctl written" || say "sysctl read-only"
            touch "\(course.path)/pwned" 2>/dev/null && say "course written" || say "course out of reach"
            cat "\(secret)" > /dev/null 2>&1 && say "home seen" || say "home out of sight"
            touch \(planted) 2>/dev/null && say "system written" || say "system read-only"
            touch ./written 2>/dev/null && say "own folder writable" || say "own folder read-only"
            (exec 3<>/dev/tcp/127.0.0.1/\(port)) 2>/dev/null && say "network reached" || say "no network"
            """)
        let result = try coursebook(["check", course.path, "--no-cache", "--sandbox", "required"],
                                    environment: ["COURSEBOOK_SWIFTC": script])
        #expect(result.status == 1, "\(result)")
        // (A compile error that names no line is at the scenario's first line of code.)
        let place = "\(course.path)/01-hostile.md:\(try scenarioLine(1, of: course) + 1):1: error: "
        #expect(result.standardError == ["sysctl read-only", "course out of reach", "home out of sight", "system read-only",
                                         "own folder writable", "no network"].map { place + $0 + "\n" }.joined(), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: course.appendingPathComponent("pwned").path))
        #expect(!FileManager.default.fileExists(atPath: planted))
    }

    /// Four processes of 100 MiB each under a limit of 128 MiB per job (the driver runs two
    /// jobs here, so 256 MiB together): stopped, and said so.
    @Test func theCompilerHasAMemoryLimit() throws {
        let course = try hostileCourse([("print(1)", "1")], name: "compiler-memory")
        defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
        let script = try fakeCompiler(in: course.deletingLastPathComponent(), probe: """
            for i in 1 2 3 4; do /usr/bin/python3 -c 'import time; x = bytearray(100 << 20); time.sleep(10)' & done
            wait
            """)
        let result = try coursebook(["check", course.path, "--no-cache", "--sandbox", "required", "--compile-memory-limit", "128"],
                                    environment: ["COURSEBOOK_SWIFTC": script])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("\(course.path)/01-hostile.md:\(try scenarioLine(1, of: course) + 1):1: error: the compiler used more than 128 MiB of memory and was stopped (--compile-memory-limit raises the limit)\n"), "\(result)")
    }
}
