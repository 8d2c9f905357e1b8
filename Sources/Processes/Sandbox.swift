import CourseFiles
import CourseModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where scenario programs run: inside bubblewrap (`bwrap`), with a read-only view of the
/// system's programs and libraries and nothing else of the machine — no home folder, no
/// repository, no course, no cache, no network — private `/tmp` and `/dev/shm` of bounded size,
/// a read-only `/`, `/proc` and `/dev`, a PID namespace of their own that ends with them, the
/// environment of `ScenarioEnvironment` alone, and never the host's root identity: the programs
/// run as `nobody` in a user namespace of their own (no nested one), mapped to the caller's
/// user, or when the caller is root to an unprivileged user of `hostUsers` that owns nothing.
/// `coursebook-launcher` is the process 1 of every sandbox: it holds the program to its
/// `ScenarioLimits` and reports how it ended on a pipe that no process inside can reach.
package struct Sandbox: Sendable {
    /// The bubblewrap executable.
    package var executable: String
    /// `coursebook-launcher`, which starts every program inside.
    var launcher: String
    /// The arguments that make the sandbox's view of the system, before the program's own.
    var arguments: [String]
    /// When this process is root: `setpriv` (util-linux), through which bubblewrap starts as a
    /// user of `hostUsers`; nil when it runs as this process's own (unprivileged) user.
    var userSwitch: String?
    /// The folders kept out of sight (see `prepare`), for the compiler's sandbox too.
    var hidden: [String] = []
    /// The Swift runtime's libraries (the launcher links them too).
    var runtimeFolder: String?

    /// Where the program and the launcher sit inside the sandbox, read-only.
    package static let programPath = "/run/scenario/main"
    static let launcherPath = "/run/scenario/launcher"
    /// The working folder inside the sandbox; also `HOME`.
    package static let workingFolder = "/tmp/work"
    /// The user and group that programs run as inside: `nobody`, on every machine.
    static let insideUser = "65534"
    /// The host users bubblewrap runs as when coursebook runs as root: from the range that
    /// systemd documents as unused (1879048192–2147352575), so that none owns a file or a
    /// process of the machine; one chosen at random for each sandbox, so that no two sandboxes
    /// share what the kernel counts by user.
    package static let hostUsers: ClosedRange<UInt32> = 0x7000_0000 ... 0x7000_FFFF
    /// Bumped when the arguments change, so that a remembered trial is tried again.
    static let version = "2"

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
            if case .sandboxed = self { return "sandboxed \(Sandbox.version)" }
            return "plain"
        }

        /// The sandbox, when programs run in one.
        package var sandbox: Sandbox? {
            if case .sandboxed(let sandbox) = self { return sandbox }
            return nil
        }
    }

    /// A sandbox that can start here, or why not: bubblewrap missing, or unable to make its
    /// namespaces (no unprivileged user namespaces). `runtimeFolder` is the Swift runtime's
    /// libraries, which the programs link against; `hidden` are folders that must stay out of
    /// reach even if they lie inside a system folder (the repository, the course, the caches,
    /// the home folder).
    package static func prepare(runtimeFolder: String?, hidden: [String], memo: String? = nil) -> Result<Sandbox, Unavailable> {
        guard let bwrap = findOnPath("bwrap") else {
            return .failure(Unavailable(reason: "bubblewrap is not installed ('make' installs it: Debian package bubblewrap)"))
        }
        guard let launcher = Launcher.path else {
            return .failure(Unavailable(reason: "coursebook-launcher is not beside coursebook (the build puts it there)"))
        }
        var userSwitch: String?
        if geteuid() == 0 {
            guard let setpriv = findOnPath("setpriv", path: "/usr/bin:/bin:/usr/sbin:/sbin") else {
                return .failure(Unavailable(reason: "setpriv is not installed (Debian package util-linux): as root, coursebook starts bubblewrap as an unprivileged user with it"))
            }
            userSwitch = setpriv
        }
        let sandbox = Sandbox(executable: bwrap, launcher: launcher,
                              arguments: arguments(runtimeFolder: runtimeFolder, hidden: hidden), userSwitch: userSwitch,
                              hidden: hidden, runtimeFolder: runtimeFolder)
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

    /// What the remembered verdict holds for: this boot, this user, this bubblewrap, these arguments.
    private static func memoStamp(_ bwrap: String) -> String {
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "?\n"
        var info = stat()
        let file = stat(bwrap, &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec)" : "-"
        return "boot \(boot.trimmingCharacters(in: .whitespacesAndNewlines)) uid \(getuid()) bwrap \(bwrap) \(file) sandbox \(version)\n"
    }

    /// One trial run of the launcher in the sandbox, as a scenario would run: the kernel may
    /// refuse the namespaces (to an unprivileged user, as root's sandbox is).
    private static func trial(_ sandbox: Sandbox) -> Result<Sandbox, Unavailable> {
        var watcher = CollectingWatcher(timeLimit: .seconds(20))
        let trial = sandbox.process(program: "/usr/bin/true", environment: ["PATH": "/usr/bin:/bin"],
                                    limits: ScenarioLimits(), batch: false)
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

    /// The folders of programs and libraries at the top of the system.
    static let systemFolders = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]

    /// The read-only view of the system: the top-level folders of programs and libraries (as
    /// symbolic links where the system has them so), the few files of `/etc` that loading a
    /// program and naming users read, the Swift runtime, and a fresh, read-only `/proc`.
    /// A hidden folder inside a system folder is covered by an empty, read-only folder.
    static func arguments(runtimeFolder: String?, hidden: [String]) -> [String] {
        var arguments = ["--unshare-all", "--unshare-user", "--disable-userns", "--uid", insideUser, "--gid", insideUser,
                         "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        arguments += systemView(hidden: hidden, extra: runtimeFolder.map { [$0] } ?? [])
        arguments += ["--proc", "/proc", "--remount-ro", "/proc"]
        return arguments
    }

    /// The system folders and files of `/etc`, read-only; `hidden` covered where they lie in
    /// them; then `extra` folders and files (a runtime, a toolchain, core files) that the
    /// system does not show, read-only, and `writable` folders.
    static func systemView(hidden: [String], extra: [String], writable: [String] = []) -> [String] {
        var arguments: [String] = []
        var bound: [String] = []
        for folder in systemFolders {
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
        // The repository, the course, the caches, the home folder: where they lie in a folder shown
        // (a repository under /usr/src), an empty folder of one page that cannot be written.
        // (Made read-only after the extra folders are bound, which may lie inside one.)
        var covered: [String] = []
        for folder in Set(hidden.flatMap { [$0, Confinement.resolved($0) ?? $0] }).sorted()
        where bound.contains(where: { Confinement.isInside(folder, $0) && folder != $0 })
            && !covered.contains(where: { Confinement.isInside(folder, $0) }) {
            arguments += ["--size", "4096", "--tmpfs", folder]
            covered.append(folder)
        }
        func visible(_ folder: String) -> Bool {
            bound.contains { Confinement.isInside(folder, $0) } && !covered.contains { Confinement.isInside(folder, $0) }
        }
        for folder in extra where FileManager.default.fileExists(atPath: folder) && !visible(folder) {
            arguments += ["--ro-bind", folder, folder]
        }
        for folder in writable { arguments += ["--bind", folder, folder] }
        for folder in covered { arguments += ["--remount-ro", folder] }
        return arguments
    }

    /// The child that runs `program` (a path of this machine) in the sandbox with
    /// `environment`, under the launcher as the sandbox's process 1, held to `limits`: a batch
    /// program (`batch`), which ends each scenario's leftovers itself and asks the launcher
    /// after each scenario whether it reached a limit, or a program of one scenario. The program
    /// and the launcher are copied in (bubblewrap reads them from descriptors this process
    /// opened), so bubblewrap needs no right to the folders they lie in.
    package func process(program: String, environment: [String: String], limits: ScenarioLimits, batch: Bool) -> ChildProcess {
        let space = String(limits.temporarySpace)
        var arguments = self.arguments
        arguments += ["--dev", "/dev", "--size", space, "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
                      "--size", space, "--tmpfs", "/tmp", "--perms", "0700", "--dir", Self.workingFolder,
                      "--chdir", Self.workingFolder,
                      "--perms", "0555", "--ro-bind-data", String(ChildProcess.firstPassedDescriptor), Self.programPath,
                      "--perms", "0555", "--ro-bind-data", String(ChildProcess.firstPassedDescriptor + 1), Self.launcherPath,
                      "--remount-ro", "/", "--clearenv"]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            arguments += ["--setenv", name, value]
        }
        arguments += ["--as-pid-1", "--", Self.launcherPath] + Self.launcherLimits(limits, inSandbox: true)
        if batch { arguments.append("--batch") }
        arguments += [String(ChildProcess.endingDescriptor), Self.programPath]
        return started(arguments, passing: [program, launcher])
    }

    /// The child that runs a compiler's `command` (the driver, or a job of its plan) in a
    /// sandbox of its own, under the launcher as its process 1, which holds the compiler's
    /// processes to `memory` (each) and `totalMemory` (together): the system, the toolchain
    /// and the files the command names read-only, no network, no home, no repository, and
    /// nothing writable but `writable` (the scenario's folder, the compiler's module cache) and
    /// a private `/tmp`. It runs as this process's user (the files it writes are the caller's):
    /// in a user namespace of its own without capabilities, so that even as root it can change
    /// no file of the machine but those, nor `/proc/sys`.
    package func compilerProcess(_ command: [String], workingDirectory: String, toolchain: String?, writable: [String],
                         memory: Int, totalMemory: Int, space: Int) -> ChildProcess {
        // The files the command names (core files, the batch runner's object), where they are
        // (a name through a link of the system, /lib64/ld-linux-x86-64.so.2, is there already)
        // and, outside the system's folders, under the name the command gives too.
        // A folder that `-I` names (a course module's, built by the tool) is seen read-only too.
        let named = command.indices.flatMap { index -> [String] in
            let word = command[index]
            let path = word.hasPrefix("@") ? String(word.dropFirst()) : word
            var info = stat()
            guard path.hasPrefix("/"), stat(path, &info) == 0,
                  info.st_mode & S_IFMT == S_IFREG || (info.st_mode & S_IFMT == S_IFDIR && index > 0 && command[index - 1] == "-I"),
                  let resolved = Confinement.resolved(path),
                  !writable.contains(where: { Confinement.isInside(resolved, $0) }) else { return [] }
            let underSystem = Self.systemFolders.contains { Confinement.isInside(path, $0) }
            return resolved == path || underSystem ? [resolved] : [resolved, path]
        }
        var arguments = ["--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
                         "--cap-drop", "ALL",
                         // Before the folders bound into it (a scenario folder lies in /tmp).
                         "--size", String(space), "--tmpfs", "/tmp"]
        let folders = [toolchain, runtimeFolder].compactMap { $0 }
        arguments += Self.systemView(hidden: hidden, extra: folders + named, writable: writable)
        arguments += ["--proc", "/proc", "--remount-ro", "/proc",
                      "--dev", "/dev", "--size", String(space), "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
                      "--perms", "0555", "--ro-bind-data", String(ChildProcess.firstPassedDescriptor), Self.launcherPath,
                      "--remount-ro", "/", "--chdir", workingDirectory, "--clearenv"]
        let path = (toolchain.map { [$0 + "/bin"] } ?? []) + ["/usr/bin", "/bin"]
        for (name, value) in [("PATH", path.joined(separator: ":")), ("HOME", workingDirectory), ("TMPDIR", workingDirectory)] {
            arguments += ["--setenv", name, value]
        }
        arguments += ["--as-pid-1", "--", Self.launcherPath, "--memory", String(memory), "--total-memory", String(totalMemory),
                      String(ChildProcess.endingDescriptor)] + command
        return ChildProcess(executable: executable, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"],
                            inheritsEnvironment: false, reportsEnding: true, passedFiles: [launcher])
    }

    /// The launcher's options for `limits`: what the kernel holds each process to, and in the
    /// sandbox what the launcher holds all of them to.
    package static func launcherLimits(_ limits: ScenarioLimits, inSandbox: Bool) -> [String] {
        var options = ["--memory", String(limits.memory), "--processes", String(limits.processes),
                       "--files", String(limits.openFiles), "--file-size", String(limits.temporarySpace)]
        if inSandbox { options += ["--space", "/tmp", "--space", "/dev/shm"] }
        return options
    }

    /// Bubblewrap with `arguments`, started (as root) as a user of `hostUsers` through setpriv.
    private func started(_ arguments: [String], passing files: [String]) -> ChildProcess {
        var command = [executable] + arguments
        if let userSwitch {
            let user = String(UInt32.random(in: Self.hostUsers))
            command = [userSwitch, "--reuid", user, "--regid", user, "--clear-groups", "--"] + command
        }
        return ChildProcess(executable: command[0], arguments: Array(command.dropFirst()),
                            environment: ["PATH": "/usr/bin:/bin"], inheritsEnvironment: false,
                            reportsEnding: true, passedFiles: files)
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
        return OwnProgram.beside("coursebook-launcher")
    }()
}
