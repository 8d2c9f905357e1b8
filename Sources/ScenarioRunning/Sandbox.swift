import CourseModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where scenario programs run: inside bubblewrap (`bwrap`), with a read-only view of the
/// system's programs and libraries and nothing else of the machine — no home folder, no course,
/// no cache, no network — a private `/tmp` of bounded size, a PID namespace of their own that
/// ends with them, and the environment of `ScenarioEnvironment` alone.
package struct Sandbox: Sendable {
    /// The bubblewrap executable.
    package var executable: String
    /// `coursebook-launcher`, which starts a program of one scenario inside.
    var launcher: String
    /// The arguments that make the sandbox, before the program's own.
    var arguments: [String]

    /// The size of the private `/tmp` (the working folder lives in it).
    static let temporarySize = 64 << 20
    /// Where the program and the launcher sit inside the sandbox, read-only.
    package static let programPath = "/run/scenario/main"
    static let launcherPath = "/run/scenario/launcher"
    /// The working folder inside the sandbox; also `HOME`.
    package static let workingFolder = "/tmp/work"

    /// Why there is no sandbox.
    package struct Unavailable: Error, Sendable, Equatable {
        package var reason: String
    }

    /// Where this run's programs go, for `mode`: the sandbox, or plainly (with why, when the
    /// sandbox was wanted), or nowhere (`.required` and no sandbox). Whether bubblewrap can start
    /// here is tried once and remembered in `memo` (a file) for this boot, this user and this
    /// bubblewrap, so that a check with nothing to run costs nothing more.
    package static func resolve(_ mode: SandboxMode, runtimeFolder: String?, hidden: [String],
                                memo: String?) -> Placement {
        if mode == .off { return .plain(reason: nil) }
        switch prepare(runtimeFolder: runtimeFolder, hidden: hidden, memo: memo) {
        case .success(let sandbox): return .sandboxed(sandbox)
        case .failure(let unavailable):
            return mode == .required ? .refused(reason: unavailable.reason) : .plain(reason: unavailable.reason)
        }
    }

    /// Where programs run.
    package enum Placement: Sendable {
        case sandboxed(Sandbox)
        /// Without the sandbox: asked so (no reason), or because it cannot start here.
        case plain(reason: String?)
        /// Nowhere: the sandbox is required and cannot start here.
        case refused(reason: String)

        /// Part of every cache key: a scenario sees another machine inside the sandbox.
        package var keyPart: String {
            if case .sandboxed = self { return "sandboxed" }
            return "plain"
        }
    }

    /// A sandbox that can start here, or why not: bubblewrap missing, or unable to make its
    /// namespaces (no unprivileged user namespaces). `runtimeFolder` is the Swift runtime's
    /// libraries, which the programs link against; `hidden` are folders that must stay out of
    /// reach even if they lie inside a system folder (the course, the cache).
    package static func prepare(runtimeFolder: String?, hidden: [String], memo: String? = nil) -> Result<Sandbox, Unavailable> {
        guard let bwrap = findOnPath("bwrap") else {
            return .failure(Unavailable(reason: "bubblewrap is not installed ('make' installs it: Debian package bubblewrap)"))
        }
        guard let launcher = Launcher.path else {
            return .failure(Unavailable(reason: "coursebook-launcher is not beside coursebook (the build puts it there)"))
        }
        let sandbox = Sandbox(executable: bwrap, launcher: launcher,
                              arguments: arguments(runtimeFolder: runtimeFolder, hidden: hidden))
        let stamp = memoStamp(bwrap)
        if let memo, let remembered = try? String(contentsOfFile: memo, encoding: .utf8),
           remembered.hasPrefix(stamp) {
            let verdict = remembered.dropFirst(stamp.count)
            return verdict == "ok" ? .success(sandbox) : .failure(Unavailable(reason: String(verdict)))
        }
        let tried = trial(sandbox)
        if let memo {
            let verdict: String
            switch tried {
            case .success: verdict = "ok"
            case .failure(let unavailable): verdict = unavailable.reason
            }
            try? FileManager.default.createDirectory(atPath: (memo as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            try? Data((stamp + verdict).utf8).write(to: URL(fileURLWithPath: memo), options: .atomic)
        }
        return tried
    }

    /// What the remembered verdict holds for: this boot, this user, this bubblewrap.
    private static func memoStamp(_ bwrap: String) -> String {
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "?\n"
        var info = stat()
        let file = stat(bwrap, &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec)" : "-"
        return "boot \(boot.trimmingCharacters(in: .whitespacesAndNewlines)) uid \(getuid()) bwrap \(bwrap) \(file)\n"
    }

    private static func trial(_ sandbox: Sandbox) -> Result<Sandbox, Unavailable> {
        let bwrap = sandbox.executable
        // One trial run: the kernel may refuse the namespaces.
        var watcher = CollectingWatcher(timeLimit: .seconds(20))
        let trial = ChildProcess(executable: bwrap, arguments: sandbox.arguments + ["--", "/usr/bin/true"],
                                 environment: ["PATH": "/usr/bin:/bin"], inheritsEnvironment: false)
        do {
            let termination = try trial.run(watching: &watcher)
            guard termination.isSuccess else {
                let said = String(decoding: watcher.standardError, as: UTF8.self)
                    .split(separator: "\n").first.map(String.init) ?? "\(termination)"
                return .failure(Unavailable(reason: "bubblewrap cannot start here (\(said))"))
            }
        } catch {
            return .failure(Unavailable(reason: error.description))
        }
        return .success(sandbox)
    }

    /// The read-only view of the system: the top-level folders of programs and libraries (as
    /// symbolic links where the system has them so), the few files of `/etc` that loading a
    /// program and naming users read, the Swift runtime, and fresh `/proc`, `/dev` and `/tmp`.
    static func arguments(runtimeFolder: String?, hidden: [String]) -> [String] {
        var arguments = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        var bound: [String] = []
        for folder in ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder) {
                arguments += ["--symlink", target, folder]
            } else if FileManager.default.fileExists(atPath: folder) {
                arguments += ["--ro-bind", folder, folder]
                bound.append(folder)
            }
        }
        for file in ["ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group",
                     "nsswitch.conf", "hosts", "alternatives", "os-release", "mime.types"] {
            let path = "/etc/" + file
            if FileManager.default.fileExists(atPath: path) { arguments += ["--ro-bind", path, path] }
        }
        if let runtimeFolder, !bound.contains(where: { runtimeFolder.hasPrefix($0 + "/") }),
           FileManager.default.fileExists(atPath: runtimeFolder) {
            arguments += ["--ro-bind", runtimeFolder, runtimeFolder]
            bound.append(runtimeFolder)
        }
        // A course or cache that lies inside a folder shown to the program is covered up.
        for folder in hidden where bound.contains(where: { folder == $0 || folder.hasPrefix($0 + "/") }) {
            arguments += ["--tmpfs", folder]
        }
        arguments += ["--proc", "/proc", "--dev", "/dev",
                      "--size", String(temporarySize), "--tmpfs", "/tmp",
                      "--perms", "0700", "--dir", workingFolder, "--chdir", workingFolder]
        return arguments
    }

    /// The child that runs `program` in the sandbox with `environment`, as the process 1 of
    /// its PID namespace: a batch program, which ends each scenario's leftovers itself and
    /// reports each ending in its frames (`launched` false), or the launcher, which starts a
    /// program of one scenario, ends what it leaves and reports how it ended.
    func process(program: String, environment: [String: String], launched: Bool) -> ChildProcess {
        var arguments = self.arguments + ["--ro-bind", program, Self.programPath]
        if launched { arguments += ["--ro-bind", launcher, Self.launcherPath] }
        arguments.append("--clearenv")
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            arguments += ["--setenv", name, value]
        }
        arguments += ["--as-pid-1", "--"]
        arguments += launched ? [Self.launcherPath, String(ChildProcess.endingDescriptor), Self.programPath]
                              : [Self.programPath]
        return ChildProcess(executable: executable, arguments: arguments,
                            environment: ["PATH": "/usr/bin:/bin"], inheritsEnvironment: false, reportsEnding: launched)
    }
}

/// `coursebook-launcher` (Sources/ScenarioLauncher): beside the running executable (the
/// `coursebook` binary, or the test bundle, which the build puts in the same folder), or where
/// `COURSEBOOK_LAUNCHER` says.
package enum Launcher {
    package static let path: String? = {
        if let chosen = ProcessInfo.processInfo.environment["COURSEBOOK_LAUNCHER"], !chosen.isEmpty {
            return access(chosen, X_OK) == 0 ? chosen : nil
        }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let beside = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("coursebook-launcher").path
        return access(beside, X_OK) == 0 ? beside : nil
    }()
}

/// The whole environment of a scenario program, batched or alone, sandboxed or not: nothing of
/// the caller's (no token, no path of the machine) but what makes runs the same every time.
package enum ScenarioEnvironment {
    /// - Parameter home: the working folder, which is also `HOME`.
    package static func variables(home: String) -> [String: String] {
        var variables = [
            "PATH": "/usr/bin:/bin",
            "HOME": home,
            "TMPDIR": "/tmp",
            // The caller's language, when it names one, for programs that read it.
            "LANG": ProcessInfo.processInfo.environment["LANG"].flatMap(safeLanguage) ?? "C.UTF-8",
            // The order of a Set, a Dictionary or the Observation framework's callbacks is the
            // same on every run, so that a cached answer stays the answer.
            "SWIFT_DETERMINISTIC_HASHING": "1",
            // A trap is reported at once, without seconds of symbolication.
            "SWIFT_BACKTRACE": "enable=no",
        ]
        variables.merge(ScenarioProgram.unbufferedOutput ?? [:]) { $1 }
        return variables
    }

    /// A locale name such as `tr_TR.UTF-8`, nothing else.
    private static func safeLanguage(_ value: String) -> String? {
        let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-@".contains($0)) }
        return allowed && !value.isEmpty && value.count < 64 ? value : nil
    }
}
