import BackgroundWork
import CourseFiles
import CourseModel
import Processes
import Foundation

/// Compiles and runs scenarios with the core files: from the cache when it can, else batched
/// into as few `swiftc` runs as possible, each scenario in a function of its own and run in
/// isolation from the others' failures.
package struct ScenarioRunner: Sendable {
    /// A core file: where it is, and how messages name it.
    package struct CoreFile: Sendable {
        package var path: String
        package var displayPath: String
        /// Its file name, as `course.json` lists it.
        package var name: String

        package init(path: String, displayPath: String, name: String? = nil) {
            self.path = path
            self.displayPath = displayPath
            self.name = name ?? (path as NSString).lastPathComponent
        }
    }

    package var compiler: SwiftCompiler
    package var coreFiles: [CoreFile]
    package var settings: RunSettings
    package var cache: ResultCache?
    /// A digest of the core files' names and texts, part of every cache key.
    package var coreDigest: String
    /// The work this run is part of (an editor's check): once it is cancelled, the compilers
    /// and programs running are killed, no more start, and nothing of the run is cached.
    package var cancellation: Cancellation?
    /// The course's library modules (listings.md, section 7), which scenarios may import.
    package var modules: [CourseModule]
    /// A digest of each module, part of the key of every scenario that imports it.
    package var moduleDigests: [String: String]
    /// The modules as this run built them; nil before `start` built them.
    var builds: ModuleBuilds?

    package init(compiler: SwiftCompiler, coreFiles: [CourseModel.CoreFile], settings: RunSettings,
                 cache: ResultCache?, cancellation: Cancellation? = nil, modules: [CourseModule] = []) {
        self.modules = modules
        moduleDigests = Self.moduleDigests(modules, languageMode: settings.languageMode)
        self.compiler = compiler
        self.compiler.cancellation = cancellation
        self.cancellation = cancellation
        self.coreFiles = coreFiles.map { CoreFile(path: $0.path, displayPath: $0.displayPath, name: $0.name) }
        self.settings = settings
        self.cache = cache
        coreDigest = ResultCache.coreDigest(coreFiles.map { ($0.name, $0.text) })
    }

    package var compilerVersion: String { compiler.version }

    /// Whether the run's work was cancelled: what it compiled and ran since is no verdict.
    var isCancelled: Bool { cancellation?.isCancelled == true }

    package func run(_ jobs: [ScenarioJob]) -> RunReport {
        finish(start(jobs.map(\.source)), jobs: jobs)
    }

    /// The part of a run that needs no scenario's shape: where the programs run, what the
    /// cache holds, and — when `batchGuess` says which scenarios a batch will probably hold
    /// (asked only of the scenarios the cache does not hold) —
    /// that batch's compile, begun at once on a thread of its own, so that the compiler works
    /// while the caller reads the scenarios' shapes. `finish` uses the batch only when the
    /// shapes put exactly the guessed scenarios in it, so the guess costs time when it is
    /// wrong, never an answer.
    package func start(_ sources: [ScenarioSource], batchGuess: (@Sendable (ScenarioSource) -> Bool)? = nil) -> RunStart {
        // Keys and cache lookups on every core: a warm check of a large course does thousands.
        // Where the programs run is part of the key: in the sandbox a scenario sees another
        // machine than outside it.
        let placement = Sandbox.resolve(settings.sandbox, runtimeFolder: compiler.runtimeFolder,
                                        hidden: settings.hiddenFolders, memo: settings.sandboxMemo)
        if case .refused = placement {
            // Nothing runs, and nothing is taken from the cache: the caller stops here.
            return RunStart(sources: sources, placement: placement, keys: [], cached: [], aheadOfShapes: nil,
                            typeChecks: nil, builds: nil)
        }
        var runner = confined(placement)
        // The modules first: every program that imports one is compiled against it. Each is
        // found built when its source was built before; the scratch folder is only for a
        // compiler without a store.
        var scratch: String?
        if !modules.isEmpty {
            runner.builds = runner.buildModules { scratch = ScenarioRunner.makeWorkspace(); return scratch! }
        }
        let toolchain = runner.toolchainKeyPart
        let packed = cache?.packedOutputs() ?? [:]
        let looked = sources.concurrentMap { source -> (key: String, outcome: ScenarioOutcome?) in
            let key = ResultCache.key(toolVersion: ToolBuild.keyVersion(CoursebookVersion.current), compilerVersion: compiler.version,
                                      coreDigest: coreDigest, placement: placement.keyPart + " " + settings.limits.keyPart
                                        + " output \(settings.outputCap)", modules: moduleKeyPart(source), source: source)
            guard let cache else { return (key, nil) }
            if let kept = cache.lookup(key, goal: source.goal, packed: packed[key]) { return (key, kept) }
            // A program that did not compile fails the same way until its code, its place or the
            // compiler changes.
            guard source.goal == .run else { return (key, nil) }
            return (key, cache.compileFailure(ResultCache.compileFailureKey(key, toolchain: toolchain, source: source)))
        }
        // A scenario that imports a module that does not compile is not run.
        let pending = sources.indices.filter { looked[$0].outcome == nil && runner.moduleRefusal(sources[$0]) == nil }
        // `errors` scenarios need no shape: they are type-checked at once, each alone as
        // `main.swift`, while the shapes are read.
        let early = pending.filter { sources[$0].goal == .typeCheck }
        let typeChecks = early.isEmpty ? nil : TypeCheckRun(runner: runner, sources: sources, indices: early)
        var ahead: BatchAhead?
        let programs = pending.filter { sources[$0].goal == .run }
        if let batchGuess {
            let guessed = programs.filter { batchable(sources[$0]) && batchGuess(sources[$0]) }
            if programs.count == 1 {
                // One scenario to compile (an author's edit) is a program of its own whatever its
                // shape; only `@main` changes how it is compiled.
                let hasMainAttribute = sources[programs[0]].code.contains("@main")
                ahead = BatchAhead(runner: runner, alone: programs[0], hasMainAttribute: hasMainAttribute, sources: sources)
            } else if guessed.count > 1 {
                ahead = BatchAhead(runner: runner, indices: guessed, sources: sources)
            }
        }
        return RunStart(sources: sources, placement: placement, keys: looked.map(\.key), cached: looked.map(\.outcome),
                        aheadOfShapes: ahead, typeChecks: typeChecks, builds: runner.builds, scratch: scratch, packed: packed)
    }

    /// What identifies the compiler beyond its version line, for the keys of compile failures:
    /// its files (paths, sizes, times) and the environment its driver reads.
    var toolchainKeyPart: String { compiler.stamp + "\u{0}" + compiler.driverEnvironment }

    /// Whether a scenario may share a batch, as far as its source tells: a program (not a
    /// type-check) in the run's language mode, and that mode 5. Swift 6 checks the top-level
    /// code of `main.swift` (main-actor isolated, its variables globals) otherwise than a
    /// function's body, so a batch could not promise the answer `main.swift` gives there.
    func batchable(_ source: ScenarioSource) -> Bool {
        !source.isGroup && sharesPrograms(source)
    }

    /// What `batchable` asks of a batch of either kind: a program in the run's language mode,
    /// that mode 5, importing no module of the course.
    func sharesPrograms(_ source: ScenarioSource) -> Bool {
        source.goal == .run && source.languageMode == settings.languageMode
            && (settings.languageMode ?? compiler.defaultLanguageMode) == .swift5 && imports(source).isEmpty
    }

    /// Whether a job goes into a batch: its source allows it and its shape does.
    func batchable(_ job: ScenarioJob) -> Bool { batchable(job.source) && !job.shape.needsOwnProgram }

    /// Whether a program of its own may go into a batch of such programs, its types lifted out
    /// (`ScenarioProgram.liftedBatch`): its shape says how, and it names none of the batch's
    /// own functions.
    func liftable(_ job: ScenarioJob) -> Bool {
        job.shape.needsOwnProgram && job.shape.hoisting != nil && sharesPrograms(job.source)
            && !job.source.code.contains("__coursebook")
    }

    /// `indices` (liftable jobs) put into batches, in order, each scenario into the first batch
    /// where none of its lifted names is a word of another member's code and no member's
    /// lifted name is one of its words: a batch compiles what each member compiles alone (a
    /// scenario that uses a name it does not declare fails as it does alone), and no type of
    /// one changes what a name of another means.
    static func liftedBatches(_ indices: [Int], jobs: [ScenarioJob]) -> [[Int]] {
        var batches: [(members: [Int], names: Set<String>, words: Set<String>)] = []
        for index in indices {
            let names = Set(jobs[index].shape.hoisting?.names ?? [])
            let words = ScenarioProgram.words(in: jobs[index].source.code)
            if let at = batches.firstIndex(where: { $0.names.isDisjoint(with: words) && names.isDisjoint(with: $0.words) }) {
                batches[at].members.append(index)
                batches[at].names.formUnion(names)
                batches[at].words.formUnion(words)
            } else {
                batches.append(([index], names, words))
            }
        }
        return batches.map(\.members)
    }

    /// Compiles and runs what the cache did not hold, now that every scenario's shape is known
    /// (`jobs`: the sources given to `start`, in the same order).
    package func finish(_ started: RunStart, jobs: [ScenarioJob]) -> RunReport {
        precondition(jobs.map(\.source) == started.sources, "a run finishes the scenarios it started with")
        let use = Self.sandboxUse(started.placement)
        if case .refused(let reason) = started.placement {
            return RunReport(outcomes: jobs.map { _ in .crashed(.exited(126), output: "", standardError: reason) },
                             compiledCount: 0, cachedCount: 0, compilerRuns: 0, diagnostics: [], sandbox: use)
        }
        let keys = started.keys
        var outcomes = started.cached
        var confinedRunner = confined(started.placement)
        confinedRunner.builds = started.builds
        defer { if let scratch = started.scratch { try? FileManager.default.removeItem(atPath: scratch); Interruption.release(scratch) } }
        let moduleErrors = started.builds?.diagnostics ?? []
        let pending = outcomes.indices.filter { outcomes[$0] == nil }
        // Not run: a scenario that imports a module that does not compile.
        var refused: [Int: ScenarioOutcome] = [:]
        for index in pending {
            if let refusal = confinedRunner.moduleRefusal(jobs[index].source) { refused[index] = refusal }
        }
        let cachedCount = jobs.count - pending.count
        guard pending.contains(where: { refused[$0] == nil }) else {
            for (index, outcome) in refused { outcomes[index] = outcome }
            pack(outcomes, keys: keys, started: started)
            return RunReport(outcomes: outcomes.map { $0! }, compiledCount: 0,
                             cachedCount: cachedCount, compilerRuns: 0, diagnostics: moduleErrors,
                             cacheRefusals: cache?.store.refusals ?? 0)
        }
        let programs = pending.filter { jobs[$0].source.goal == .run && refused[$0] == nil }

        let ahead = serving(started.aheadOfShapes, programs: programs, jobs: jobs)
        let session = RunSession(runner: confinedRunner, jobs: jobs, placement: started.placement,
                                 batchAhead: ahead)
        defer {
            session.removeWorkspace()
            started.aheadOfShapes?.removeWorkspace()
        }
        if !programs.isEmpty { session.run(programs) }
        // The type-checks begun at once have run beside the programs.
        let typeChecked = type(checking: pending.filter { jobs[$0].source.goal == .typeCheck && refused[$0] == nil }, jobs: jobs,
                               begun: started.typeChecks, runner: confinedRunner)

        let results = session.results.merging(typeChecked.outcomes) { $1 }.merging(refused) { $1 }
        let ran = session.durations
        var durations = [Duration?](repeating: nil, count: jobs.count)
        for index in programs { durations[index] = ran[index] }
        let coreErrors = session.coreErrors
        for index in pending {
            outcomes[index] = results[index]
                ?? (coreErrors != nil && jobs[index].source.goal == .run ? .coreFailed
                    : .crashed(.exited(-1), output: "", standardError: "coursebook lost this scenario's result"))
        }
        // A cancelled run's outcomes may be of programs it killed: none is a verdict to keep.
        // (A cancellation sets its flag before it kills, so a kill is always seen here.)
        if !isCancelled {
            let kept = Self.kept(outcomes, pending: pending, keys: keys, jobs: jobs, ranAlone: session.ranAlone,
                                 settled: session.settledFailures, toolchain: confinedRunner.toolchainKeyPart)
            cache?.store(outcomes: kept.outputs)
            cache?.store(compileFailures: kept.failures)
            pack(outcomes, keys: keys, started: started)
        }
        let diagnostics = moduleErrors + (coreErrors ?? [])
        // The program compiled ahead ran a compiler, unless it was a batch that had no runner
        // to link (its compile says so; the workspace's removal waits for it anyway).
        let aheadRuns = started.aheadOfShapes.map { $0.compiled.wait().runnerMissing ? 0 : 1 } ?? 0
        var report = RunReport(outcomes: outcomes.map { $0! }, compiledCount: pending.count - refused.count,
                         cachedCount: cachedCount,
                         compilerRuns: session.compilerRuns + typeChecked.compilerRuns + aheadRuns,
                         diagnostics: diagnostics, sandbox: use, cacheRefusals: cache?.store.refusals ?? 0,
                         durations: durations, batchAhead: started.aheadOfShapes == nil ? .none
                            : (ahead == nil ? .dropped : .used))
        report.batchRunnerProblem = session.runnerProblem
        return report
    }

    /// How a run used the sandbox, as its placement says.
    private static func sandboxUse(_ placement: Sandbox.Placement) -> SandboxUse {
        switch placement {
        case .sandboxed: .sandboxed
        case .plain(let reason): reason.map(SandboxUse.unavailable) ?? .off
        case .refused(let reason): .refused(reason)
        }
    }

    /// The batch compiled ahead, if it serves: only if the shapes batch exactly what was
    /// guessed; otherwise it is waited for (its compiler would only slow the right one) and
    /// dropped.
    private func serving(_ ahead: BatchAhead?, programs: [Int], jobs: [ScenarioJob]) -> BatchAhead? {
        guard let ahead else { return nil }
        if ahead.serves(pending: programs, jobs: jobs, runner: self) { return ahead }
        _ = ahead.compiled.wait()
        return nil
    }

    /// What the cache keeps of a run: every outcome of the scenarios it compiled (a trap only
    /// from a program of its own: in a batch its message may name another address than the
    /// program alone gives), and the compile failures that stand in their own code (`settled`).
    private static func kept(_ outcomes: [ScenarioOutcome?], pending: [Int], keys: [String], jobs: [ScenarioJob],
                             ranAlone: Set<Int>, settled: [Int: [LinkInput]], toolchain: String)
        -> (outputs: [(key: String, outcome: ScenarioOutcome)], failures: [(key: String, failure: ResultCache.KeptFailure)]) {
        var outputs: [(key: String, outcome: ScenarioOutcome)] = []
        var failures: [(key: String, failure: ResultCache.KeptFailure)] = []
        for index in pending {
            guard let outcome = outcomes[index] else { continue }
            if case let .compileFailed(findings, _) = outcome {
                if let linkInputs = settled[index] {
                    failures.append((ResultCache.compileFailureKey(keys[index], toolchain: toolchain, source: jobs[index].source),
                                     ResultCache.KeptFailure(findings: findings, linkInputs: linkInputs)))
                }
                continue
            }
            if case .crashed = outcome, !ranAlone.contains(index) { continue }
            outputs.append((keys[index], outcome))
        }
        return (outputs, failures)
    }

    /// Every completed scenario's output in the cache's pack, for the next run to read at once.
    private func pack(_ outcomes: [ScenarioOutcome?], keys: [String], started: RunStart) {
        let outputs = zip(keys, outcomes).compactMap { key, outcome -> (key: String, output: String)? in
            guard case let .completed(output, _, _)? = outcome else { return nil }
            return (key, output)
        }
        cache?.pack(outputs: outputs, packed: started.packed)
    }

    /// The type-checks of `indices`: those begun by `start`, waited for, and any other run now.
    private func type(checking indices: [Int], jobs: [ScenarioJob], begun: TypeCheckRun?,
                      runner: ScenarioRunner) -> (outcomes: [Int: ScenarioOutcome], compilerRuns: Int) {
        let early = begun?.wait()
        var outcomes = early?.outcomes ?? [:]
        var runs = early?.compilerRuns ?? 0
        let rest = indices.filter { outcomes[$0] == nil }
        if !rest.isEmpty {
            let late = TypeCheckRun(runner: runner, sources: jobs.map(\.source), indices: rest).wait()
            runs += late.compilerRuns
            outcomes.merge(late.outcomes) { $1 }
        }
        return (outcomes, runs)
    }

    /// This runner with its compiler confined as `placement` says: in a sandbox of its own
    /// when scenarios run in one, under the compiler's memory limit either way.
    func confined(_ placement: Sandbox.Placement) -> ScenarioRunner {
        var copy = self
        copy.compiler.confinement = CompilerConfinement(placement: placement, limits: settings.limits)
        return copy
    }

    /// Compiles a batch: one frontend job per file, one more at a time than there are cores,
    /// in the order given. `main.swift` (the runner and a `switch` over the batch: a second or
    /// more of compile) goes first and the scenario files (one per core, the heavy part) next,
    /// so that all of them share the cores from the start and none is left to finish alone;
    /// the core files, light, fill in. (One job per core left `main.swift` to run alone at
    /// the end, a second of one core idle.)
    func compileBatch(files: [(name: String, contents: String)], in folder: String, output: String) -> CompileResult {
        let runner: String
        switch compiler.runnerObject(source: ScenarioProgram.runnerSource, orIn: folder) {
        case .success(let object): runner = object
        case .failure(let failure):
            return CompileResult(termination: .exited(127), diagnostics: [], transcript: failure.reason, runnerMissing: true)
        }
        let written = Self.write(files, in: folder)
        let paths = [written.last!] + written.dropLast() + coreFiles.map(\.path)
        return compiler.compile(sources: Array(paths), objects: [runner], output: output,
                                workingDirectory: folder, jobs: settings.parallelism + 1,
                                languageMode: settings.languageMode, timeLimit: settings.compileTimeLimit)
    }

    /// The files of a batch of `scenarios`.
    func batchProgram(_ scenarios: [(index: Int, source: ScenarioSource)]) -> [(name: String, contents: String)] {
        ScenarioProgram.batch(scenarios, fileCount: settings.parallelism)
    }

    /// The files of a lifted batch of `jobs` (see `liftable`).
    func liftedBatchProgram(_ jobs: [(index: Int, job: ScenarioJob)]) -> [(name: String, contents: String)] {
        let scenarios = jobs.map { (index: $0.index, source: $0.job.source, hoisting: $0.job.shape.hoisting ?? ScenarioHoisting(lines: [], names: [])) }
        return ScenarioProgram.liftedBatch(scenarios, fileCount: settings.parallelism)
    }

    /// Compiles a program of one scenario: its own file first (it is the heavy one), then the
    /// core, the prelude last.
    func compileAlone(files: [(name: String, contents: String)], in folder: String, output: String, jobs: Int,
                      languageMode: LanguageMode?, modules: ModuleLink = .none) -> CompileResult {
        let written = Self.write(files, in: folder)
        let paths = written.prefix(1) + coreFiles.map(\.path) + written.dropFirst()
        return compiler.compile(sources: Array(paths), objects: modules.objects, output: output, workingDirectory: folder,
                                jobs: jobs, languageMode: languageMode,
                                timeLimit: settings.compileTimeLimit, includes: modules.includes)
    }

    /// Writes generated files and returns their paths. A file that cannot be written shows up
    /// as the compiler's "no such file".
    static func write(_ files: [(name: String, contents: String)], in folder: String) -> [String] {
        files.map { file in
            let path = "\(folder)/\(file.name)"
            _ = FileManager.default.createFile(atPath: path, contents: Data(file.contents.utf8))
            return path
        }
    }

    /// `indices` cut into at most `processes` runs of consecutive scenarios, none shorter than
    /// `least` (starting a sandbox costs more than a few scenarios take).
    static func shares(of indices: [Int], processes: Int, least: Int = 16) -> [[Int]] {
        let count = max(1, min(processes, indices.count / least))
        return (0..<count).map { share in
            Array(indices[share * indices.count / count ..< (share + 1) * indices.count / count])
        }
    }

    /// A new scratch folder, `coursebook-PID-N` in the temporary folder: one a killed run left
    /// is removed by the next run.
    static func makeWorkspace() -> String {
        let workspace = FileManager.default.temporaryDirectory
            .appendingPathComponent("coursebook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try? FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        Interruption.hold(workspace)
        return workspace
    }
}
