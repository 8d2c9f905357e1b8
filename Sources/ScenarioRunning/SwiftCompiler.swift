import CourseFiles
import CourseModel
import Processes
import Foundation
import Synchronization

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
    /// be told.
    package var defaultLanguageMode: LanguageMode?
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
        self.defaultLanguageMode = defaultLanguageMode
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
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let frontend = URL(fileURLWithPath: resolved).deletingLastPathComponent()
            .appendingPathComponent("swift-frontend").path
        let stamp = [path, resolved, frontend].map(fileStamp).joined(separator: "\n")
        let replays = Self.replaysDriverPlans(environment)

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
        // The version line and where the runtime lives, in one run.
        var watcher = CollectingWatcher(timeLimit: .seconds(60))
        let termination: Termination
        do {
            termination = try ChildProcess(executable: path, arguments: ["-print-target-info"]).run(watching: &watcher)
        } catch {
            throw Unavailable(description: error.description)
        }
        let info = (try? JSONSerialization.jsonObject(with: Data(watcher.standardOutput))) as? [String: Any]
        let version = (info?["compilerVersion"] as? String)?.split(separator: "\n").first.map(String.init) ?? ""
        let runtime = ((info?["paths"] as? [String: Any])?["runtimeLibraryPaths"] as? [String])?.first
        guard termination.isSuccess, !version.isEmpty else {
            throw Unavailable(description: "'\(path) -print-target-info' failed (\(termination))")
        }
        let mode = probeDefaultLanguageMode(path)
        if let versionCache {
            try? FileManager.default.createDirectory(
                atPath: (versionCache as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try? writeAtomically(Array("\(stamp)\n\(version)\n\(runtime ?? "")\n\(mode?.rawValue ?? "-")".utf8),
                                 to: versionCache, keepingPermissions: false)
        }
        var compiler = SwiftCompiler(executable: path, version: version, runtimeFolder: runtime,
                                     plans: CompilePlanStore(file: planCache), stamp: stamp, defaultLanguageMode: mode)
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
        var template = Array((NSTemporaryDirectory() + "/coursebook-mode-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
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

    /// `source`, a library of the tool's own (module `module`), compiled optimized into an
    /// object once per compiler and source and kept beside the plans (see `CompilePlanStore`);
    /// nil when it cannot be (no store, or the compiler refuses it: the caller then does without).
    package func libraryObject(module: String, source: String) -> String? {
        guard let plans else { return nil }
        // It asks the link for no library a program alone would not get: not libm, which its
        // `import Glibc` would (a scenario that needs `round` fails to link alone, so must a
        // batch that holds it).
        let autolinking = ["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "m"]
        let key = SHA256.hex(([executable, stamp, version, module, source] + autolinking).joined(separator: "\u{0}"))
        return plans.object(key, unlessCancelled: cancellation) {
            guard let folder = plans.objectFolder else { return nil }
            let object = "\(folder)/\(module)-\(key.prefix(32)).o"
            if access(object, R_OK) == 0 { return object }
            var scratchTemplate = Array((folder + "/making-XXXXXX").utf8CString)
            guard mkdtemp(&scratchTemplate) != nil else { return nil }
            let scratch = String(cString: scratchTemplate)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            guard (try? writeAtomically(Array(source.utf8), to: scratch + "/\(module).swift", keepingPermissions: false)) != nil,
                  let made = run([executable, "-parse-as-library", "-module-name", module, "-O", "-suppress-warnings",
                                  "-c", "\(module).swift", "-o", "\(module).o"] + autolinking + moduleCacheArguments,
                                 in: scratch, until: ContinuousClock.now + .seconds(300)),
                  made.termination.isSuccess, !made.timedOut,
                  rename(scratch + "/\(module).o", object) == 0 else { return nil }
            return object
        }
    }

    /// How one command (the driver, or a job of its plan) ended and what it printed.
    struct Ran: Sendable {
        var termination: Termination
        var standardOutput: [UInt8]
        var standardError: [UInt8]
        var timedOut: Bool
        /// It reached the memory limit: the launcher stopped it, or an allocation failed.
        var outOfMemory = false
    }

    /// - Parameter deduplicating: keep a diagnostic once that several frontend jobs reported
    ///   (each job parses every file); one job's own are kept as it gave them.
    func result(_ ran: Ran, timeLimit: Duration?, deduplicating: Bool = true) -> CompileResult {
        if ran.outOfMemory, let confinement {
            let message = "the compiler used more than \(confinement.memory >> 20) MiB of memory and was stopped (--compile-memory-limit raises the limit)"
            return CompileResult(termination: ran.termination,
                                 diagnostics: [CompilerDiagnostic(file: nil, line: 0, column: 0, severity: "error", message: message)],
                                 transcript: message)
        }
        if ran.timedOut, let timeLimit {
            let message = "the compiler ran longer than \(seconds(timeLimit)) and was stopped (--compile-timeout sets the limit)"
            return CompileResult(termination: ran.termination,
                                 diagnostics: [CompilerDiagnostic(file: nil, line: 0, column: 0, severity: "error", message: message)],
                                 transcript: message)
        }
        let transcript = String(decoding: ran.standardError + ran.standardOutput, as: UTF8.self)
        return CompileResult(termination: ran.termination,
                             diagnostics: CompilerDiagnostic.parse(transcript, deduplicating: deduplicating),
                             transcript: transcript)
    }

    /// Runs `command` (a program and its arguments) to its end or the deadline, as
    /// `confinement` says (`jobs`: how many compiler jobs it runs at once); nil when it cannot
    /// start.
    func run(_ command: [String], in workingDirectory: String, until deadline: ContinuousClock.Instant?,
             jobs: Int = 1) -> Ran? {
        var watcher = CollectingWatcher(timeLimit: deadline.map { max($0 - ContinuousClock.now, .zero) })
        var child: ChildProcess
        if let confinement, let sandbox = confinement.sandbox {
            child = sandbox.compilerProcess(command, workingDirectory: workingDirectory, toolchain: toolchainFolder,
                                            writable: [workingDirectory] + (moduleCache.map { [$0] } ?? []),
                                            memory: confinement.memory, totalMemory: confinement.memory * jobs,
                                            space: confinement.temporarySpace)
        } else if let confinement, let launcher = Launcher.path {
            child = ChildProcess(executable: launcher,
                                 arguments: ["--memory", String(confinement.memory), String(ChildProcess.endingDescriptor)] + command,
                                 workingDirectory: workingDirectory, reportsEnding: true)
        } else {
            child = ChildProcess(executable: command[0], arguments: Array(command.dropFirst()), workingDirectory: workingDirectory)
        }
        child.cancellation = cancellation
        guard let termination = try? child.run(watching: &watcher) else { return nil }
        let failedAllocation = !termination.isSuccess && confinement != nil
            && Self.allocationFailures.contains { String(decoding: watcher.standardError, as: UTF8.self).contains($0) }
        return Ran(termination: termination, standardOutput: watcher.standardOutput,
                   standardError: watcher.standardError, timedOut: watcher.timedOut,
                   outOfMemory: watcher.limit == "memory" || failedAllocation)
    }

    /// What the compiler's tools print when an allocation fails under the memory limit: LLVM's
    /// allocator, the Swift runtime (in a macro's plugin), a thread that could not get its stack.
    static let allocationFailures = ["LLVM ERROR: out of memory", "Fatal error: failed to allocate ",
                                     "std::bad_alloc", "what():  Resource temporarily unavailable"]

    /// The compile by the driver's own plan, without the driver (see `CompilePlan`): the
    /// frontend jobs `jobs` at a time, autolink extraction, the linker. Nil when the driver
    /// must run instead: no plan can be had, a tool cannot start, a frontend crashed, the
    /// extraction or the link failed (the driver then says so in its own words).
    private func replay(_ arguments: [String], sources: [String], output: String, workingDirectory: String,
                        jobs: Int, deadline: ContinuousClock.Instant?, plans: CompilePlanStore,
                        failedLink: inout LinkerCommand?) -> Ran? {
        var template = Array(arguments)
        for (index, word) in template.enumerated() {
            if let source = sources.firstIndex(of: word) {
                template[index] = "\u{1}source \(source) \((word as NSString).lastPathComponent)"
            } else if word == output {
                template[index] = "\u{1}output \((word as NSString).lastPathComponent)"
            }
        }
        let key = ([executable, stamp, driverEnvironment] + template).joined(separator: "\u{0}")
        var folderTemplate = Array((workingDirectory + "/objects-XXXXXX").utf8CString)
        guard mkdtemp(&folderTemplate) != nil else { return nil }
        let folder = String(cString: folderTemplate)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        guard let learned = learnedPlan(key, arguments, sources: sources, output: output,
                                        workingDirectory: workingDirectory, deadline: deadline, plans: plans),
              let plan = learned.replacing(sources: sources, output: output, temporaryFolder: folder) else { return nil }
        let printed: Ran
        switch runFrontends(plan, jobs: jobs, workingDirectory: workingDirectory, deadline: deadline) {
        case .driversToReport: return nil
        case .failed(let failure): return failure
        case .compiled(let ran): printed = ran
        }
        guard let libraries = libraries(plan, workingDirectory: workingDirectory, deadline: deadline, plans: plans),
              let linked = link(plan, libraries: libraries, folder: folder, output: output, workingDirectory: workingDirectory,
                                deadline: deadline, plans: plans, failedLink: &failedLink) else { return nil }
        if linked.outOfMemory { return linked }
        var done = printed
        done.standardOutput += linked.standardOutput
        done.standardError += linked.standardError
        plans.replayedCompiles.add(1, ordering: .relaxed)
        return done
    }

    /// The driver's plan for these arguments: learned before (`plans`), or asked of the
    /// driver now (`-###`) and kept.
    private func learnedPlan(_ key: String, _ arguments: [String], sources: [String], output: String,
                             workingDirectory: String, deadline: ContinuousClock.Instant?,
                             plans: CompilePlanStore) -> CompilePlan? {
        if let known = plans.compilePlan(key) { return known }
        guard let listing = run([executable] + arguments + ["-###"], in: workingDirectory, until: deadline),
              listing.termination.isSuccess,
              let plan = CompilePlan.read(String(decoding: listing.standardOutput, as: UTF8.self),
                                          sources: sources, output: output) else { return nil }
        plans.keep(plan, as: key)
        return plan
    }

    /// How a replay's frontend jobs ended.
    private enum FrontendsRun {
        /// Every job compiled; what they printed, in the driver's order.
        case compiled(Ran)
        /// A job failed as a compile fails (errors, a time or memory limit): what they printed.
        case failed(Ran)
        /// A job could not start, or crashed: the driver runs instead and says so in its words.
        case driversToReport
    }

    /// The frontends, `jobs` at a time in the driver's order; after a failure no new one
    /// starts (as the driver does), and what every started job printed is kept in order.
    private func runFrontends(_ plan: CompilePlan, jobs: Int, workingDirectory: String,
                              deadline: ContinuousClock.Instant?) -> FrontendsRun {
        let ran = Locked<[Ran?]>(Array(repeating: nil, count: plan.frontends.count))
        let next = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        let unstartable = Atomic<Bool>(false)
        let work: @Sendable () -> Void = {
            while !failed.load(ordering: .relaxed) {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < plan.frontends.count else { return }
                guard let job = self.run(plan.frontends[index], in: workingDirectory, until: deadline) else {
                    unstartable.store(true, ordering: .relaxed)
                    failed.store(true, ordering: .relaxed)
                    return
                }
                if !job.termination.isSuccess || job.timedOut || job.outOfMemory { failed.store(true, ordering: .relaxed) }
                ran.withLock { $0[index] = job }
            }
        }
        let helpers = (1..<min(jobs, plan.frontends.count)).map { _ in Background(work) }
        work()
        for helper in helpers { helper.wait() }
        let frontends = ran.withLock { $0 }.compactMap { $0 }
        if unstartable.load(ordering: .relaxed) { return .driversToReport }
        let printed = Ran(termination: .exited(0), standardOutput: frontends.flatMap(\.standardOutput),
                          standardError: frontends.flatMap(\.standardError), timedOut: frontends.contains(where: \.timedOut),
                          outOfMemory: frontends.contains(where: \.outOfMemory))
        guard failed.load(ordering: .relaxed) else { return .compiled(printed) }
        // A crash is the driver's to report, in its words (one at the memory limit is ours).
        if frontends.contains(where: { if case .signaled = $0.termination { !$0.timedOut && !$0.outOfMemory } else { false } }) {
            return .driversToReport
        }
        var failure = printed
        failure.termination = frontends.first(where: { !$0.termination.isSuccess })?.termination ?? .exited(1)
        if case .exited = failure.termination { failure.termination = .exited(1) }
        return .failed(failure)
    }

    /// The libraries the objects ask for: the tool's answer for the same sections, or the
    /// tool's run; nil when it cannot be had.
    private func libraries(_ plan: CompilePlan, workingDirectory: String, deadline: ContinuousClock.Instant?,
                           plans: CompilePlanStore) -> [UInt8]? {
        let sections = plan.autolinkInputs.map(AutolinkSections.read(objectAt:))
        let autolinkKey = sections.contains(where: { $0 == nil }) ? nil
            : ([stamp] + sections.map { Data($0!).base64EncodedString() }).joined(separator: "\u{0}")
        if let autolinkKey, let known = plans.autolink(autolinkKey) {
            let libraries = Array(known.utf8)
            guard (try? writeAtomically(libraries, to: plan.autolinkFile, keepingPermissions: false)) != nil else { return nil }
            return libraries
        }
        guard let extracted = run(plan.autolink, in: workingDirectory, until: deadline),
              extracted.termination.isSuccess, !extracted.timedOut,
              let written = readFile(atPath: plan.autolinkFile) else { return nil }
        if let autolinkKey { plans.keep(autolink: String(decoding: written, as: UTF8.self), as: autolinkKey) }
        return written
    }

    /// The linker, as `clang` would run it for this link and these libraries; nil when the
    /// link failed, which is the driver's to report, in its words (and `clang`'s). The
    /// linker's command is then learned anew next time, in case the system's libraries moved.
    private func link(_ plan: CompilePlan, libraries: [UInt8], folder: String, output: String, workingDirectory: String,
                      deadline: ContinuousClock.Instant?, plans: CompilePlanStore,
                      failedLink: inout LinkerCommand?) -> Ran? {
        let linkKey = ([stamp, driverEnvironment] + plan.link.map { LinkerCommand.mark($0, temporaryFolder: folder, output: output) }
                       + [String(decoding: libraries, as: UTF8.self)]).joined(separator: "\u{0}")
        var linker = plans.linker(linkKey)
        if linker == nil,
           let listing = run(plan.link + ["-###"], in: workingDirectory, until: deadline), listing.termination.isSuccess,
           let command = LinkerCommand.read(String(decoding: listing.standardError, as: UTF8.self),
                                            temporaryFolder: folder, output: output) {
            plans.keep(command, as: linkKey)
            linker = command
        }
        let linked = linker.flatMap { run($0.command(temporaryFolder: folder, output: output), in: workingDirectory, until: deadline) }
        if let linked, linked.outOfMemory { return linked }
        guard let linked, linked.termination.isSuccess, !linked.timedOut else {
            // A link killed by a cancellation says nothing about the command.
            if cancellation?.isCancelled != true { plans.forgetLinker(linkKey) }
            if let linker, let linked, case .exited(let status) = linked.termination, status != 0, !linked.timedOut {
                failedLink = linker
            }
            return nil
        }
        return linked
    }
}

/// How the compiler's commands run: in `sandbox` (a sandbox of their own, see
/// `Sandbox.compilerProcess`) when scenarios run in one, else plainly under the launcher; each
/// process held to `memory` (`--compile-memory-limit`).
package struct CompilerConfinement: Sendable {
    var sandbox: Sandbox?
    var memory: Int
    var temporarySpace: Int

    package init(placement: Sandbox.Placement, limits: ScenarioLimits) {
        sandbox = placement.sandbox
        memory = limits.compilerMemory
        temporarySpace = limits.temporarySpace
    }
}

/// What a `swiftc` run said.
package struct CompileResult: Sendable {
    package var termination: Termination
    package var diagnostics: [CompilerDiagnostic]
    /// Everything it printed, for the cases that name no file (a failed link).
    package var transcript: String
    /// For a link that failed after a replayed plan: the files that decided it (see
    /// `LinkInput`); empty otherwise, and then a linker's failure is not kept.
    package var linkInputs: [LinkInput] = []

    package var succeeded: Bool { termination.isSuccess }
}

/// A file or folder a link read, by its path and its stamp (size and time) when the link ran:
/// the linker itself, the objects and libraries it was given, the folders it searched for
/// `-l` libraries (a folder's time changes when a library in it is added, removed or replaced
/// by a package manager's rename). The same program fails the same link while they are equal.
package struct LinkInput: Sendable, Codable, Equatable {
    package var path: String
    package var stamp: String

    package init(path: String, stamp: String) {
        self.path = path
        self.stamp = stamp
    }

    /// The inputs of the linker's command `command` (as kept in the plans: the compile's own
    /// objects marked, and left out, since the program's text and compiler decide them).
    static func of(_ command: LinkerCommand) -> [LinkInput] {
        var paths: [String] = []
        for word in command.words where !word.contains(LinkerCommand.folderMark) && word != LinkerCommand.outputMark {
            let path = word.hasPrefix("-L") ? String(word.dropFirst(2)) : word
            if path.hasPrefix("/"), !paths.contains(path) { paths.append(path) }
        }
        return paths.map(now)
    }

    /// `path` as it stands now.
    package static func now(_ path: String) -> LinkInput {
        LinkInput(path: path, stamp: SwiftCompiler.fileStamp(path))
    }
}

/// One `file:line:column: severity: message` line of the compiler, with the notes under it.
package struct CompilerDiagnostic: Sendable, Equatable {
    package var file: String?
    package var line: Int
    package var column: Int
    package var severity: String
    package var message: String
    package var notes: [CompilerDiagnostic] = []
    /// Said by the linker, not the compiler.
    package var fromLinker = false
    /// What the linker put before its words (GNU gold: `scenarios-0-1.o:scenarios-0-1.o:function
    /// $s4main...`), and the lines under them that say where (lld: `>>> referenced by ...`,
    /// one a line): the objects and functions it was linking, which a batch reads to blame
    /// its members (`LinkBlame`).
    package var linkerPlace = ""

    /// The driver's and `clang`'s words for a link that failed ("link command failed with exit
    /// code 1 (use -v to see invocation)"), which say nothing the linker's own lines do not.
    package var isLinkSummary: Bool {
        file == nil && !fromLinker && (message.hasPrefix("link command failed") || message.hasPrefix("linker command failed"))
    }

    /// Reads the compiler's diagnostics in the LLVM style; notes attach to the error or warning
    /// above them, source excerpts and carets are dropped (the checker prints its own). A
    /// diagnostic that several frontend jobs reported (each job parses every file, so a parse
    /// error comes once per job) is kept once.
    package static func parse(_ transcript: String, deduplicating: Bool = true) -> [CompilerDiagnostic] {
        var found: [CompilerDiagnostic] = []
        for line in transcript.split(separator: "\n") {
            if line.hasPrefix(">>> "), let last = found.indices.last, found[last].fromLinker {
                found[last].linkerPlace += "\n" + line
                continue
            }
            guard let diagnostic = parseLine(line) else { continue }
            if diagnostic.severity == "note", !found.isEmpty {
                found[found.count - 1].notes.append(diagnostic)
            } else {
                found.append(diagnostic)
            }
        }
        guard deduplicating else { return found }
        var seen: [CompilerDiagnostic] = []
        for diagnostic in found where !seen.contains(diagnostic) { seen.append(diagnostic) }
        return seen
    }

    /// A message without the diagnostic group the compiler names after it since Swift 6.2
    /// (`overlapping accesses to 'v' ... [#ExclusivityViolation]`): the group is how the
    /// compiler files the message, not what it says, and older compilers, and every book, say the
    /// message alone.
    package static func withoutGroup(_ message: String) -> String {
        guard message.hasSuffix("]"), let open = message.range(of: " [#", options: .backwards) else { return message }
        let name = message[open.upperBound..<message.index(before: message.endIndex)]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return message }
        return withoutGroup(String(message[..<open.lowerBound]))
    }

    static func parseLine(_ line: Substring) -> CompilerDiagnostic? {
        for severity in ["error", "warning", "note"] {
            let marker = ": \(severity): "
            guard let markerRange = line.range(of: marker) else {
                if line.hasPrefix("\(severity): ") {
                    return CompilerDiagnostic(file: nil, line: 0, column: 0, severity: severity,
                                              message: String(line.dropFirst(severity.count + 2)))
                }
                continue
            }
            let message = CompilerDiagnostic.withoutGroup(String(line[markerRange.upperBound...]))
            let place = line[..<markerRange.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            if place.count >= 3, let lineNumber = Int(place[place.count - 2]),
               let column = Int(place[place.count - 1]) {
                return CompilerDiagnostic(file: place.dropLast(2).joined(separator: ":"),
                                          line: lineNumber, column: column,
                                          severity: severity, message: message)
            }
            if place.count == 1, place[0] == "<unknown>" || place[0].hasSuffix("swift-frontend") || place[0].hasSuffix("swiftc") {
                return CompilerDiagnostic(file: nil, line: 0, column: 0, severity: severity, message: message)
            }
            // The linker's own words (`main-1.o:main-1.o:function main: error: undefined
            // reference to 'round'`, `ld.lld: error: undefined symbol: round`): what an author
            // can act on, where the driver only says that the link failed.
            let tool = (String(place[0]) as NSString).lastPathComponent
            if severity == "error", tool.hasPrefix("ld") || place[0].hasSuffix(".o") || place.last?.hasPrefix("function ") == true {
                return CompilerDiagnostic(file: nil, line: 0, column: 0, severity: severity, message: message, fromLinker: true,
                                          linkerPlace: place.joined(separator: ":"))
            }
        }
        return nil
    }
}
