import CourseFiles
import CourseModel
import Processes
import Foundation

/// The `swiftc` that compiles scenarios, and what it said about a compile.
package struct SwiftCompiler: Sendable {
    package var executable: String
    /// The first line of `swiftc --version`: part of every cache key, shown on the site.
    package var version: String
    /// The Swift runtime's libraries, which the programs it makes load (the sandbox shows them).
    package var runtimeFolder: String?
    /// The driver's plans, replayed instead of running the driver (see `CompilePlan`), and
    /// the module cache and objects kept beside them; nil runs the driver every time.
    package var plans: CompilePlanStore?
    /// Whether the driver's plans are replayed (`COURSEBOOK_COMPILE_REPLAY=off` turns it off:
    /// the driver then runs for every compile, and the plans keep only the module cache and
    /// the tool's own objects).
    package var replaysDriverPlans = true
    /// What identifies this compiler in the plans: its paths, sizes and modification times.
    package var stamp: String
    /// The language mode it compiles in when given no `-swift-version`; nil when it could not
    /// be told. On a machine that had not asked this compiler before, the answer may still be
    /// coming (see `locate`): this waits for it.
    package var defaultLanguageMode: LanguageMode? { languageModeAnswer?.wait() ?? knownLanguageMode }
    private var knownLanguageMode: LanguageMode?
    private var languageModeAnswer: Background<LanguageMode?>?
    /// How its commands run: in a sandbox of their own and under a memory limit (see
    /// `CompilerConfinement`); nil: plainly, with no limit but the time.
    package var confinement: CompilerConfinement?
    /// The work its compiles are part of: a cancellation kills the commands running and starts
    /// no more (a compile then fails, and is no verdict: see `ScenarioRunner.finish`).
    package var cancellation: Cancellation?

    package init(executable: String, version: String, runtimeFolder: String? = nil,
                 plans: CompilePlanStore? = nil, stamp: String = "", defaultLanguageMode: LanguageMode? = nil) {
        self.executable = executable
        self.version = version
        self.runtimeFolder = runtimeFolder
        self.plans = plans
        self.stamp = stamp
        knownLanguageMode = defaultLanguageMode
    }

    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
    }

    /// `swiftc` from `COURSEBOOK_SWIFTC` when set, else from `PATH`. Its version is remembered
    /// in `versionCache` (a file) by the compiler's path, size and modification time, so that
    /// a check with nothing to compile starts no compiler at all.
    /// The driver's plans are kept in `planCache` (a file), or for this process only when it
    /// is nil.
    package static func locate(versionCache: String?, planCache: String? = nil) throws(Unavailable) -> SwiftCompiler {
        let environment = ProcessInfo.processInfo.environment
        let requested = environment["COURSEBOOK_SWIFTC"].flatMap { $0.isEmpty ? nil : $0 } ?? "swiftc"
        guard let path = findOnPath(requested) else {
            throw Unavailable(description: "cannot find '\(requested)' on PATH: scenarios need the Swift toolchain (set COURSEBOOK_SWIFTC to choose a compiler)")
        }
        return try locate(path, versionCache: versionCache, planCache: planCache,
                          replays: Self.replaysDriverPlans(environment))
    }

    /// The compiler at `path` (see `locate(versionCache:planCache:)`).
    static func locate(_ path: String, versionCache: String?, planCache: String?,
                       replays: Bool = true) throws(Unavailable) -> SwiftCompiler {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let frontend = URL(fileURLWithPath: resolved).deletingLastPathComponent()
            .appendingPathComponent("swift-frontend").path
        let stamp = [path, resolved, frontend].map(fileStamp).joined(separator: "\n")

        if let versionCache, let remembered = try? String(contentsOfFile: versionCache, encoding: .utf8) {
            let lines = remembered.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count == 6, lines[0..<3].joined(separator: "\n") == stamp {
                var compiler = SwiftCompiler(executable: path, version: String(lines[3]),
                                             runtimeFolder: lines[4].isEmpty ? nil : String(lines[4]),
                                             plans: CompilePlanStore(file: planCache), stamp: stamp,
                                             defaultLanguageMode: LanguageMode(rawValue: String(lines[5])))
                compiler.replaysDriverPlans = replays
                return compiler
            }
        }
        // The language mode is asked while the target info is, on a machine that has neither
        // answer yet: two compilers that do not wait for each other, and the check does not
        // wait for the second before it starts reading its Swift.
        let probed = Background { probeDefaultLanguageMode(path) }
        // The version line and where the runtime lives, in one run.
        var watcher = CollectingWatcher(timeLimit: .seconds(60))
        let termination: Termination
        do {
            termination = try ChildProcess(executable: path, arguments: ["-print-target-info"]).run(watching: &watcher)
        } catch {
            _ = probed.wait()
            throw Unavailable(description: error.description)
        }
        let info = (try? JSONSerialization.jsonObject(with: Data(watcher.standardOutput))) as? [String: Any]
        let version = (info?["compilerVersion"] as? String)?.split(separator: "\n").first.map(String.init) ?? ""
        let runtime = ((info?["paths"] as? [String: Any])?["runtimeLibraryPaths"] as? [String])?.first
        guard termination.isSuccess, !version.isEmpty else {
            _ = probed.wait()
            throw Unavailable(description: "'\(path) -print-target-info' failed (\(termination))")
        }
        // What needs the version (the Swift readings' keys) starts now; the language mode is
        // waited for where it is first used, and the memo kept once it is known.
        var compiler = SwiftCompiler(executable: path, version: version, runtimeFolder: runtime,
                                     plans: CompilePlanStore(file: planCache), stamp: stamp)
        compiler.languageModeAnswer = Background {
            let mode = probed.wait()
            if let versionCache {
                try? FileManager.default.createDirectory(
                    atPath: (versionCache as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
                try? writeAtomically(Array("\(stamp)\n\(version)\n\(runtime ?? "")\n\(mode?.rawValue ?? "-")".utf8),
                                     to: versionCache, keepingPermissions: false)
            }
            return mode
        }
        compiler.replaysDriverPlans = replays
        return compiler
    }

    /// `COURSEBOOK_COMPILE_REPLAY`: `off` runs the driver for every compile; unset, empty or
    /// `on` replays its plans.
    package static func replaysDriverPlans(_ environment: [String: String]) -> Bool {
        environment["COURSEBOOK_COMPILE_REPLAY"] != "off"
    }

    /// What the driver reads besides its arguments, for the key of a plan learned from it: the
    /// environment it runs in. In the sandbox that is a fixed one; outside it, coursebook's own,
    /// of which the driver consults `PATH` (to find the linker and clang), `SDKROOT`,
    /// `SWIFT_*` and the library and header search paths. Its temporary folder is left out:
    /// a replay puts a folder of its own in place of the one the plan names.
    package static func driverEnvironment(_ environment: [String: String], sandboxed: Bool) -> String {
        if sandboxed { return "sandbox" }
        let read: Set<String> = ["PATH", "SDKROOT", "CPATH", "LIBRARY_PATH", "LD_LIBRARY_PATH"]
        return environment.filter { read.contains($0.key) || $0.key.hasPrefix("SWIFT_") }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
            .joined(separator: "\u{0}")
    }

    /// The driver's environment for this compiler's commands (see `driverEnvironment(_:sandboxed:)`).
    var driverEnvironment: String {
        Self.driverEnvironment(ProcessInfo.processInfo.environment, sandboxed: confinement?.sandbox != nil)
    }

    /// The language mode `swiftc` takes when given none, from what `#if swift(>=N)` says in a
    /// file it type-checks (no option tells it). Once per compiler: it is remembered with the
    /// compiler's version.
    static func probeDefaultLanguageMode(_ swiftc: String) -> LanguageMode? {
        guard let folder = makeScratchFolder(prefix: NSTemporaryDirectory() + "/coursebook-mode-") else { return nil }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let probe = """
            #if swift(>=7)
            #error("coursebook-language-mode 7")
            #elseif swift(>=6)
            #error("coursebook-language-mode 6")
            #elseif swift(>=5)
            #error("coursebook-language-mode 5")
            #else
            #error("coursebook-language-mode 4")
            #endif

            """
        // The file is the tool's own: no sandbox is needed to read what the compiler says of it.
        var watcher = CollectingWatcher(timeLimit: .seconds(60))
        guard (try? writeAtomically(Array(probe.utf8), to: folder + "/main.swift", keepingPermissions: false)) != nil,
              (try? ChildProcess(executable: swiftc, arguments: ["-typecheck", "-module-name", "main", "main.swift"],
                                 workingDirectory: folder).run(watching: &watcher)) != nil else { return nil }
        let said = String(decoding: watcher.standardError + watcher.standardOutput, as: UTF8.self)
        guard let range = said.range(of: "coursebook-language-mode ") else { return nil }
        return LanguageMode(rawValue: String(said[range.upperBound...].prefix { $0.isNumber }))
    }

    static func fileStamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path) -" }
        return "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Compiles `sources` (paths) into the executable `output`, `jobs` frontend jobs at a
    /// time. (Batch mode would group files into fewer jobs, but this toolchain's driver then
    /// looks for object files under other names than it wrote, and the link fails.)
    /// `objects` (already compiled) are linked in too.
    package func compile(sources: [String], objects: [String] = [], output: String, workingDirectory: String,
                         jobs: Int, parseAsLibrary: Bool = false, languageMode: LanguageMode? = nil,
                         timeLimit: Duration? = nil, includes: [String] = []) -> CompileResult {
        var arguments = ["-module-name", ScenarioProgram.moduleName, "-Onone", "-suppress-warnings",
                         "-diagnostic-style=llvm", "-j\(max(jobs, 1))", "-o", output] + moduleCacheArguments
            + includes.flatMap { ["-I", $0] }
        if parseAsLibrary { arguments.append("-parse-as-library") }
        if let languageMode { arguments += ["-swift-version", languageMode.rawValue] }
        arguments += sources + objects
        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var failedLink: LinkerCommand?
        if replaysDriverPlans, let plans, let replayed = replay(arguments, sources: sources, output: output, workingDirectory: workingDirectory,
                                            jobs: max(jobs, 1), deadline: deadline, plans: plans, failedLink: &failedLink) {
            return result(replayed, timeLimit: timeLimit)
        }
        // The driver runs its frontend jobs in its own sandbox: together they may use the memory
        // that as many jobs of a replay may.
        guard let ran = run([executable] + arguments, in: workingDirectory, until: deadline, jobs: max(jobs, 1)) else {
            return CompileResult(termination: .exited(127), diagnostics: [], transcript: "cannot start \(executable)")
        }
        var compiled = result(ran, timeLimit: timeLimit)
        // The driver's link failed as the replay's did: what it read is what decided it.
        if let failedLink, !ran.timedOut, !ran.outOfMemory, compiled.diagnostics.contains(where: \.fromLinker) {
            compiled.linkInputs = LinkInput.of(failedLink)
        }
        return compiled
    }

    /// `-module-cache-path`: a module cache of coursebook's own beside the plans, the one folder
    /// besides a scenario's that a sandboxed compiler may write (its own home is out of sight).
    var moduleCacheArguments: [String] {
        moduleCache.map { ["-module-cache-path", $0] } ?? []
    }

    /// The module cache folder, made when missing; nil without a place for it.
    var moduleCache: String? {
        guard let folder = plans?.objectFolder else { return nil }
        let cache = folder + "/module-cache"
        return mkdir(cache, 0o755) == 0 || errno == EEXIST ? cache : nil
    }

    /// The toolchain's folder (`usr` above `bin/swiftc`, links resolved; the compiler's own
    /// folder when it is not called `bin`), which a sandboxed compiler sees read-only.
    var toolchainFolder: String {
        let folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        return folder.lastPathComponent == "bin" ? folder.deletingLastPathComponent().path : folder.path
    }

    /// The toolchain's clang (it links every program `swiftc` makes): beside its `swiftc`, links
    /// resolved; else in the `bin` of the toolchain whose runtime the compiler named (a
    /// `swiftc` that is a script or a proxy somewhere else); else the first on `PATH`.
    var clang: String {
        let beside = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("clang").path
        if access(beside, X_OK) == 0 { return beside }
        var folder = runtimeFolder.map { URL(fileURLWithPath: $0) }
        for _ in 0..<4 {
            guard let above = folder?.deletingLastPathComponent() else { break }
            let candidate = above.appendingPathComponent("bin/clang").path
            if access(candidate, X_OK) == 0 { return candidate }
            folder = above
        }
        return findOnPath("clang") ?? beside
    }

    /// `source`, the batch runner (C, see `ScenarioProgram.runnerSource`), compiled with the
    /// toolchain's clang into an object: once per compiler and source, kept beside the plans
    /// (see `CompilePlanStore`); without a store, or when the store cannot take it (a full disk,
    /// a folder that cannot be written), into `folder` (a batch's own) each time. Fails with
    /// why when clang is missing or refuses it: there is then no batch, and each scenario is
    /// compiled alone (see `CompileResult.runnerMissing`). A refusal met while compiling for the
    /// store is the answer, for this batch and the rest of the process: clang is not run again
    /// for the same source.
    package func runnerObject(source: String, orIn folder: String) -> Result<String, RunnerFailure> {
        let flags = ["-O2", "-fPIC", "-w", "-c"]
        if let plans, let store = plans.objectFolder {
            let key = SHA256.hex(([executable, stamp, version, clang, Self.fileStamp(clang), source] + flags).joined(separator: "\u{0}"))
            let kept = plans.object(key, unlessCancelled: cancellation) { () -> Result<String, RunnerFailure>? in
                let object = "\(store)/CoursebookBatchRunner-\(key.prefix(32)).o"
                if access(object, R_OK) == 0 { return .success(object) }
                guard let scratch = makeScratchFolder(prefix: store + "/making-") else { return nil }
                defer { try? FileManager.default.removeItem(atPath: scratch) }
                switch compileRunner(source, flags: flags, into: scratch) {
                case .failure(let failure): return failure.isClangs ? .failure(failure) : nil
                case .success(let made): return rename(made, object) == 0 ? .success(object) : nil
                }
            }
            if let kept { return kept }
        }
        return compileRunner(source, flags: flags, into: folder)
    }

    /// Why the batch runner has no object: clang's own words, or what kept it from running.
    package struct RunnerFailure: Error, Equatable {
        package var reason: String
        /// Clang ran, or could not be started, and gave no object (not a folder that could
        /// not take the source).
        var isClangs = true
    }

    /// The runner's object compiled in `folder`, its path; or why it could not be. The file
    /// is the tool's own: clang needs no sandbox to compile it (a sandbox's start was a tenth
    /// to a quarter of a second before a batch on a new machine could compile).
    private func compileRunner(_ source: String, flags: [String], into folder: String) -> Result<String, RunnerFailure> {
        let file = "coursebook-batch-runner.c", object = "coursebook-batch-runner.o"
        let limit = Duration.seconds(120)
        var watcher = CollectingWatcher(timeLimit: limit)
        var child = ChildProcess(executable: clang, arguments: flags + [file, "-o", object], workingDirectory: folder)
        child.cancellation = cancellation
        do {
            try writeAtomically(Array(source.utf8), to: folder + "/" + file, keepingPermissions: false)
        } catch {
            return .failure(RunnerFailure(reason: "cannot write \(folder)/\(file): \(error)", isClangs: false))
        }
        let ended: Termination
        do {
            ended = try child.run(watching: &watcher)
        } catch {
            return .failure(RunnerFailure(reason: "cannot start \(clang): \(error)"))
        }
        if watcher.timedOut { return .failure(RunnerFailure(reason: "\(clang) took longer than \(limit) to compile it")) }
        guard ended.isSuccess, access(folder + "/" + object, R_OK) == 0 else {
            let words = String(decoding: watcher.standardError + watcher.standardOutput, as: UTF8.self)
            let said = words.split(separator: "\n").first.map { ": \($0)" } ?? ""
            return .failure(RunnerFailure(reason: "\(clang) ended with \(ended)\(said)"))
        }
        return .success(folder + "/" + object)
    }
}
