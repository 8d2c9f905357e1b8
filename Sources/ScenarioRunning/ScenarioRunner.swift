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
        let use: SandboxUse
        switch started.placement {
        case .sandboxed: use = .sandboxed
        case .plain(let reason): use = reason.map(SandboxUse.unavailable) ?? .off
        case .refused(let reason):
            return RunReport(outcomes: jobs.map { _ in .crashed(.exited(126), output: "", standardError: reason) },
                             compiledCount: 0, cachedCount: 0, compilerRuns: 0, diagnostics: [],
                             sandbox: .refused(reason))
        }
        let keys = started.keys
        var outcomes = started.cached
        var confinedRunner = confined(started.placement)
        confinedRunner.builds = started.builds
        defer { if let scratch = started.scratch { try? FileManager.default.removeItem(atPath: scratch); Interruption.release(scratch) } }
        let moduleErrors = started.builds?.diagnostics ?? []
        // Not run: a scenario that imports a module that does not compile.
        var refused: [Int: ScenarioOutcome] = [:]
        for index in outcomes.indices where outcomes[index] == nil {
            if let refusal = confinedRunner.moduleRefusal(jobs[index].source) { refused[index] = refusal }
        }
        let pending = outcomes.indices.filter { outcomes[$0] == nil }
        let cachedCount = jobs.count - pending.count
        guard pending.contains(where: { refused[$0] == nil }) else {
            for (index, outcome) in refused { outcomes[index] = outcome }
            pack(outcomes, keys: keys, started: started)
            return RunReport(outcomes: outcomes.map { $0! }, compiledCount: 0,
                             cachedCount: cachedCount, compilerRuns: 0, diagnostics: moduleErrors,
                             cacheRefusals: cache?.store.refusals ?? 0)
        }
        let programs = pending.filter { jobs[$0].source.goal == .run && refused[$0] == nil }

        // The batch compiled ahead serves only if the shapes batch exactly what was guessed;
        // otherwise it is waited for (its compiler would only slow the right one) and dropped.
        var ahead = started.aheadOfShapes
        if let guessed = ahead, !guessed.serves(pending: programs, jobs: jobs, runner: self) {
            _ = guessed.compiled.wait()
            ahead = nil
        }
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
        var fresh: [(key: String, outcome: ScenarioOutcome)] = []
        var failures: [(key: String, failure: ResultCache.KeptFailure)] = []
        let settled = session.settledFailures
        let toolchain = confinedRunner.toolchainKeyPart
        for index in pending {
            let outcome = results[index]
                ?? (coreErrors != nil && jobs[index].source.goal == .run ? .coreFailed
                    : .crashed(.exited(-1), output: "", standardError: "coursebook lost this scenario's result"))
            outcomes[index] = outcome
            if case let .compileFailed(findings, _) = outcome {
                if let linkInputs = settled[index] {
                    failures.append((ResultCache.compileFailureKey(keys[index], toolchain: toolchain, source: jobs[index].source),
                                     ResultCache.KeptFailure(findings: findings, linkInputs: linkInputs)))
                }
                continue
            }
            // A trap is kept only from a program of its own: in a batch its message may name
            // another address than the program alone gives.
            if case .crashed = outcome, !session.ranAlone.contains(index) { continue }
            fresh.append((keys[index], outcome))
        }
        // A cancelled run's outcomes may be of programs it killed: none is a verdict to keep.
        // (A cancellation sets its flag before it kills, so a kill is always seen here.)
        if !isCancelled {
            cache?.store(outcomes: fresh)
            cache?.store(compileFailures: failures)
            pack(outcomes, keys: keys, started: started)
        }
        let diagnostics = moduleErrors + (coreErrors ?? [])
        return RunReport(outcomes: outcomes.map { $0! }, compiledCount: pending.count - refused.count,
                         cachedCount: cachedCount,
                         compilerRuns: session.compilerRuns + typeChecked.compilerRuns + (started.aheadOfShapes == nil ? 0 : 1),
                         diagnostics: diagnostics, sandbox: use, cacheRefusals: cache?.store.refusals ?? 0,
                         durations: durations, batchAhead: started.aheadOfShapes == nil ? .none
                            : (ahead == nil ? .dropped : .used))
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
    func compileBatch(files: [(name: String, contents: String)], in folder: String, output: String,
                      runnerObject: String?) -> CompileResult {
        let written = Self.write(files, in: folder)
        let paths = [written.last!] + written.dropLast() + coreFiles.map(\.path)
        return compiler.compile(sources: Array(paths), objects: runnerObject.map { [$0] } ?? [], output: output,
                                workingDirectory: folder, jobs: settings.parallelism + 1,
                                languageMode: settings.languageMode, timeLimit: settings.compileTimeLimit)
    }

    /// The batch runner's object (`ScenarioProgram.runnerModule`), or nil when the batch must
    /// hold the runner's code itself.
    func batchRunnerObject() -> String? {
        compiler.libraryObject(module: ScenarioProgram.runnerModule.name, source: ScenarioProgram.runnerModule.source)
    }

    /// The files of a batch of `scenarios`, and the runner object it links, if any.
    func batchProgram(_ scenarios: [(index: Int, source: ScenarioSource)]) -> (files: [(name: String, contents: String)], runnerObject: String?) {
        let runnerObject = batchRunnerObject()
        return (ScenarioProgram.batch(scenarios, fileCount: settings.parallelism, linkedRunner: runnerObject != nil),
                runnerObject)
    }

    /// The files of a lifted batch of `jobs` (see `liftable`), and the runner object it links.
    func liftedBatchProgram(_ jobs: [(index: Int, job: ScenarioJob)]) -> (files: [(name: String, contents: String)], runnerObject: String?) {
        let runnerObject = batchRunnerObject()
        let scenarios = jobs.map { (index: $0.index, source: $0.job.source, hoisting: $0.job.shape.hoisting ?? ScenarioHoisting(lines: [], names: [])) }
        return (ScenarioProgram.liftedBatch(scenarios, fileCount: settings.parallelism, linkedRunner: runnerObject != nil),
                runnerObject)
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

/// What `ScenarioRunner.start` learned and began: the cache's answers, and perhaps a batch
/// compiling ahead of the shapes.
package struct RunStart: Sendable {
    let sources: [ScenarioSource]
    let placement: Sandbox.Placement
    let keys: [String]
    /// Each scenario's outcome from the cache; nil for one to compile.
    let cached: [ScenarioOutcome?]
    let aheadOfShapes: BatchAhead?
    /// The type-checks begun at once, of the `errors` scenarios the cache did not hold.
    let typeChecks: TypeCheckRun?
    /// The course's modules as built for this run (nil when it has none).
    let builds: ModuleBuilds?
    /// A scratch folder the modules were built in, when the compiler keeps no store.
    var scratch: String? = nil
    /// The outputs the cache's pack held (`ResultCache.packedOutputs`).
    var packed: [String: [UInt8]] = [:]
}

/// A program compiling before the scenarios' shapes are known, in a scratch folder of its own:
/// a batch of the scenarios (indices into the run's sources) that the guess put in it, or the
/// one scenario a run has to compile, alone.
final class BatchAhead: Sendable {
    enum Kind: Equatable {
        case batch([Int])
        case alone(Int, hasMainAttribute: Bool)
    }

    let kind: Kind
    let workspace: String
    let folder: String
    let program: String
    /// The generated files (a program of one scenario places its compiler messages by them).
    let files: [(name: String, contents: String)]
    let compiled: Background<CompileResult>

    /// The batch of `indices`.
    convenience init(runner: ScenarioRunner, indices: [Int], sources: [ScenarioSource]) {
        let program = runner.batchProgram(indices.map { ($0, sources[$0]) })
        self.init(kind: .batch(indices), files: program.files) {
            runner.compileBatch(files: $0, in: $1, output: $2, runnerObject: program.runnerObject)
        }
    }

    /// The program of scenario `index` alone.
    convenience init(runner: ScenarioRunner, alone index: Int, hasMainAttribute: Bool, sources: [ScenarioSource]) {
        let files = ScenarioProgram.standalone(sources[index], hasMainAttribute: hasMainAttribute,
                                               unbufferedFromOutside: ScenarioProgram.unbufferedOutput != nil)
        self.init(kind: .alone(index, hasMainAttribute: hasMainAttribute), files: files) {
            runner.compileAlone(files: $0, in: $1, output: $2, jobs: runner.settings.parallelism,
                                languageMode: sources[index].languageMode,
                                modules: runner.moduleLink(for: sources[index]))
        }
    }

    private init(kind: Kind, files: [(name: String, contents: String)],
                 compile: @escaping @Sendable ([(name: String, contents: String)], String, String) -> CompileResult) {
        self.kind = kind
        self.files = files
        workspace = ScenarioRunner.makeWorkspace()
        folder = workspace + "/ahead"
        program = folder + "/program"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (folder, program) = (folder, program)
        compiled = Background { compile(files, folder, program) }
    }

    /// Whether the shapes compile `pending` the way this program was begun: the batch holds
    /// exactly the scenarios the shapes batch; the one scenario is alone, with `@main` or not as
    /// its shape says.
    func serves(pending: [Int], jobs: [ScenarioJob], runner: ScenarioRunner) -> Bool {
        switch kind {
        case .batch(let indices):
            return indices == pending.filter { runner.batchable(jobs[$0]) }
        case .alone(let index, let hasMainAttribute):
            return pending == [index] && jobs[index].shape.hasMainAttribute == hasMainAttribute
        }
    }

    /// Removes the scratch folder, once the compiler is done with it.
    func removeWorkspace() {
        _ = compiled.wait()
        try? FileManager.default.removeItem(atPath: workspace)
        Interruption.release(workspace)
    }
}

/// One run of the runner: a scratch folder, the results so far, the compiler runs counted.
/// Programs of one scenario compile and run in parallel, so the mutable parts sit behind a lock.
private final class RunSession: Sendable {
    let runner: ScenarioRunner
    let jobs: [ScenarioJob]
    let placement: Sandbox.Placement
    let workspace: String
    /// A batch compiled ahead of the shapes, of exactly the scenarios the first batch holds.
    let batchAhead: BatchAhead?
    private let state = Locked(State())

    struct State {
        var results: [Int: ScenarioOutcome] = [:]
        var durations: [Int: Duration] = [:]
        var compilerRuns = 0
        var coreErrors: [Diagnostic]?
        var programNumber = 0
        var batchAheadTaken = false
        /// The scenarios that ran as programs of their own.
        var ranAlone: Set<Int> = []
        /// The scenarios that did not compile alone with every error in their own code or
        /// given by the linker: what the same program meets on every compile (not a time-out,
        /// a crash, a limit), kept in the cache with what the link read (`LinkInput`).
        var settledFailures: [Int: [LinkInput]] = [:]
    }

    init(runner: ScenarioRunner, jobs: [ScenarioJob], placement: Sandbox.Placement, batchAhead: BatchAhead? = nil) {
        self.runner = runner
        self.jobs = jobs
        self.placement = placement
        self.batchAhead = batchAhead
        workspace = ScenarioRunner.makeWorkspace()
        Self.removeAbandonedWorkspaces()
    }

    /// Scratch folders of runs that were killed (`coursebook-PID-...` whose process is gone).
    private static func removeAbandonedWorkspaces() {
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] {
            let parts = name.split(separator: "-")
            guard parts.count == 3, parts[0] == "coursebook", let pid = pid_t(parts[1]), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: temporary + "/" + name)
        }
    }

    var results: [Int: ScenarioOutcome] { state.withLock { $0.results } }
    var durations: [Int: Duration] { state.withLock { $0.durations } }
    var compilerRuns: Int { state.withLock { $0.compilerRuns } }
    var coreErrors: [Diagnostic]? { state.withLock { $0.coreErrors } }
    var ranAlone: Set<Int> { state.withLock { $0.ranAlone } }
    var settledFailures: [Int: [LinkInput]] { state.withLock { $0.settledFailures } }

    func removeWorkspace() {
        try? FileManager.default.removeItem(atPath: workspace)
        Interruption.release(workspace)
    }

    func run(_ indices: [Int]) {
        guard !runner.isCancelled else { return }
        var alone: [Int] = []
        var together: [Int] = []
        var lifting: [Int] = []
        for index in indices {
            if runner.batchable(jobs[index]) {
                together.append(index)
            } else if runner.liftable(jobs[index]) {
                lifting.append(index)
            } else {
                alone.append(index)
            }
        }
        alone += runTogether(together)
        // Programs of their own whose types a batch can lift out, in batches whose members'
        // names meet nowhere.
        for batch in ScenarioRunner.liftedBatches(lifting, jobs: jobs) {
            guard coreErrors == nil, !runner.isCancelled else { break }
            alone += runTogether(batch, lifted: true)
        }
        guard coreErrors == nil, !runner.isCancelled else { return }
        let ordered = alone.sorted()
        // Programs of one scenario compile side by side; a single one uses every core itself.
        let compilerJobs = ordered.count == 1 ? runner.settings.parallelism : 1
        DispatchQueue.concurrentPerform(iterations: ordered.count) { position in
            runAlone(ordered[position], compilerJobs: compilerJobs)
        }
    }

    // MARK: Batches

    /// Compiles the scenarios into one program and runs them. Returns the scenarios that must
    /// be compiled on their own: those the compiler blamed (inside a function they may not be
    /// valid, alone they may), and any left when the blame could not be placed.
    private func runTogether(_ indices: [Int], lifted: Bool = false) -> [Int] {
        guard indices.count > 1 else { return indices }
        let batch = compileTogether(indices, lifted: lifted)
        if batch.compiled.succeeded {
            return execute(program: batch.program, indices: indices, in: batch.folder)
        }
        // A compile the cancellation killed blames nobody.
        guard !runner.isCancelled else { return [] }
        let compiled = batch.compiled

        var blamed = Set<Int>()
        // Where the linker named no member: those of the files whose objects it named.
        var suspects = Set<Int>()
        var unplaced = false
        var coreErrors: [Diagnostic] = []
        // Where the linker said what is wrong, the driver's "link command failed" adds nothing.
        let linkerSaid = compiled.diagnostics.contains(where: \.fromLinker)
        let members = linkMembers(indices, lifted: lifted)
        for diagnostic in compiled.diagnostics where diagnostic.severity == "error" {
            if let core = coreFile(diagnostic.file) {
                coreErrors.append(lessonDiagnostic(diagnostic, coreDisplay: core.displayPath))
            } else if let owner = indices.first(where: { owns(jobs[$0].source, diagnostic) }) {
                blamed.insert(owner)
            } else if diagnostic.fromLinker {
                // `undefined reference to 'round'` in a member's function or a type it lifted.
                switch LinkBlame.of(diagnostic.linkerPlace, members: members) {
                case .members(let named): blamed.formUnion(named)
                case .files(let inFiles): suspects.formUnion(inFiles)
                case .nothing: unplaced = true
                }
            } else if !(linkerSaid && diagnostic.isLinkSummary) {
                unplaced = true
            }
        }
        if !coreErrors.isEmpty {
            // A lifted batch's types meet no name the core uses; should one still change the
            // core, each program alone says what it does.
            if lifted { return indices }
            state.withLock { $0.coreErrors = coreErrors }
            return []
        }
        // The members named go alone (their answer is what they give alone); the rest compiles
        // again, and what still fails there is placed again.
        if !blamed.isEmpty {
            return blamed.sorted() + runTogether(indices.filter { !blamed.contains($0) }, lifted: lifted)
        }
        return narrow(indices, suspects: unplaced || suspects.isEmpty ? indices : indices.filter(suspects.contains),
                      lifted: lifted)
    }

    /// The members of a batch of `indices` as a linker names them: the batch file each is in,
    /// and in a lifted batch the names it lifted.
    private func linkMembers(_ indices: [Int], lifted: Bool) -> [LinkBlame.Member] {
        let files = ScenarioProgram.batchFiles(indices.count, fileCount: runner.settings.parallelism)
        return zip(indices, files).map { index, file in
            LinkBlame.Member(index: index, file: file,
                             liftedNames: lifted ? jobs[index].shape.hoisting?.names ?? [] : [])
        }
    }

    /// A batch whose compile failed with errors that name no scenario (a linker's that names
    /// no member's function, say): finds a scenario without which the rest compiles by
    /// halving the suspects (`indices`, or those of the batch files the linker named), each
    /// step one compile of everything but half of them, so one culprit among n costs at most
    /// ⌈log₂ n⌉ compiles, one more for the rest when the last step did not already compile it,
    /// and its own program. The culprit is compiled alone, whose answer is the truth anyway;
    /// with several, the rest fails again and is narrowed again.
    private func narrow(_ indices: [Int], suspects: [Int], lifted: Bool) -> [Int] {
        var suspects = suspects[...]
        var lastSuccess: (without: Set<Int>, batch: CompiledBatch)?
        while suspects.count > 1 {
            guard !runner.isCancelled else { return [] }
            let half = Set(suspects.prefix(suspects.count / 2))
            let attempt = compileTogether(indices.filter { !half.contains($0) }, lifted: lifted)
            if attempt.compiled.succeeded {
                suspects = suspects.prefix(half.count)
                lastSuccess = (half, attempt)
            } else {
                suspects = suspects.dropFirst(half.count)
            }
        }
        let culprit = suspects.first!
        if let lastSuccess, lastSuccess.without == [culprit] {
            let rest = indices.filter { $0 != culprit }
            return [culprit] + execute(program: lastSuccess.batch.program, indices: rest, in: lastSuccess.batch.folder)
        }
        return [culprit] + runTogether(indices.filter { $0 != culprit }, lifted: lifted)
    }

    /// The program compiled ahead of the shapes, when it is the one asked for and not yet taken.
    private func takeAhead(_ kind: BatchAhead.Kind) -> BatchAhead? {
        guard let ahead = batchAhead, ahead.kind == kind else { return nil }
        return state.withLock { state in
            defer { state.batchAheadTaken = true }
            return state.batchAheadTaken ? nil : ahead
        }
    }

    /// A batch program compiled, or not.
    private struct CompiledBatch {
        var compiled: CompileResult
        var program: String
        var folder: String
    }

    private func compileTogether(_ indices: [Int], lifted: Bool) -> CompiledBatch {
        if !lifted, let ahead = takeAhead(.batch(indices)) {
            return CompiledBatch(compiled: ahead.compiled.wait(), program: ahead.program, folder: ahead.folder)
        }
        let folder = newProgramFolder("batch")
        let program = "\(folder)/program"
        state.withLock { $0.compilerRuns += 1 }
        let made = lifted ? runner.liftedBatchProgram(indices.map { ($0, jobs[$0]) })
            : runner.batchProgram(indices.map { ($0, jobs[$0].source) })
        return CompiledBatch(compiled: runner.compileBatch(files: made.files, in: folder, output: program,
                                                           runnerObject: made.runnerObject),
                             program: program, folder: folder)
    }

    /// Runs a batch program until every scenario has an outcome. Each scenario runs in a
    /// process of its own, so one that crashes or exits ends only itself; one that runs past its
    /// time or prints past the cap is stopped with the whole program, which then starts again
    /// with the scenarios after it.
    private func execute(program: String, indices: [Int], in folder: String) -> [Int] {
        // Each scenario has a process of its own either way; on several cores, several copies
        // of the program (each a sandbox of its own) run their shares side by side.
        let shares = ScenarioRunner.shares(of: indices, processes: runner.settings.parallelism)
        // A batch that holds groups reads this run's token first, as a group's program alone
        // does, and their outputs are split at its markers.
        let token = indices.contains { jobs[$0].source.isGroup } ? Self.groupToken() : nil
        DispatchQueue.concurrentPerform(iterations: shares.count) { share in
            executeShare(program: program, indices: shares[share], in: folder, token: token)
        }
        return []
    }

    private func executeShare(program: String, indices: [Int], in folder: String, token: String?) {
        var remaining = indices
        while !remaining.isEmpty, !runner.isCancelled {
            var watcher = ScenarioWatcher(timeLimit: runner.settings.timeLimit, outputCap: runner.settings.outputCap,
                                          limits: limitsApplied)
            let termination: Termination
            let scenarios = [ScenarioProgram.scenariosVariable: remaining.map(String.init).joined(separator: " ")]
            do {
                var child = process(program, in: folder, batch: true, adding: scenarios)
                if let token { child.standardInputBytes = Array((token + "\n").utf8) }
                termination = try child.run(watching: &watcher)
            } catch {
                record(remaining, .crashed(.exited(127), output: "", standardError: error.description))
                return
            }
            let outcomes = watcher.outcomes(after: termination)
            for (index, outcome) in outcomes {
                record([index], token.map { jobs[index].source.isGroup ? Self.split(outcome, token: $0) : outcome } ?? outcome)
            }
            measured(watcher.durations())
            let before = remaining.count
            remaining.removeAll { outcomes[$0] != nil }
            if remaining.count == before {
                // Nothing began: the program itself cannot run.
                record(remaining, .crashed(termination, output: "", standardError: ""))
                break
            }
        }
    }

    // MARK: Programs of one scenario

    private func runAlone(_ index: Int, compilerJobs: Int) {
        guard !runner.isCancelled else { return }
        let source = jobs[index].source
        let shape = jobs[index].shape
        let folder: String
        let program: String
        let files: [(name: String, contents: String)]
        let compiled: CompileResult
        if compilerJobs == runner.settings.parallelism,
           let ahead = takeAhead(.alone(index, hasMainAttribute: shape.hasMainAttribute)) {
            (folder, program, files, compiled) = (ahead.folder, ahead.program, ahead.files, ahead.compiled.wait())
        } else {
            folder = newProgramFolder("alone")
            program = "\(folder)/program"
            files = ScenarioProgram.standalone(source, hasMainAttribute: shape.hasMainAttribute,
                                               unbufferedFromOutside: ScenarioProgram.unbufferedOutput != nil)
            state.withLock { $0.compilerRuns += 1 }
            compiled = runner.compileAlone(files: files, in: folder, output: program, jobs: compilerJobs,
                                           languageMode: source.languageMode,
                                           modules: runner.moduleLink(for: source))
        }
        guard compiled.succeeded else {
            var lessonErrors: [Diagnostic] = []
            var coreErrors: [Diagnostic] = []
            // The compiler names the scenario's own file and line (through `#sourceLocation`),
            // or, at the end of the file (a missing `}`), the generated file and its line; the
            // lesson line follows from either.
            let ownFile = ScenarioProgram.standaloneFileName
            let generated = "\(folder)/\(ownFile)"
            let linesBeforeCode = files.first { $0.name == ownFile }.map { file in
                file.contents.prefix { $0 != "#" }.filter { $0 == "\n" }.count
            } ?? 0
            func inLesson(_ item: CompilerDiagnostic) -> CompilerDiagnostic {
                var placed = item
                if item.file == ownFile {
                    placed.file = source.file
                    placed.line = source.lessonPlace(ofCodeLine: item.line).line
                } else if item.file == generated, source.isGroup {
                    // Past the last directive: the end of the last block's code.
                    placed.file = source.file
                    placed.line = source.lessonPlace(ofCodeLine: ProgramGroup.concatenation(source.parts)
                        .utf8.reduce(1) { $1 == 10 ? $0 + 1 : $0 }).line
                } else if item.file == generated {
                    // Physical lines: the directive's, then the code from the lesson's first line.
                    placed.file = source.file
                    placed.line = source.firstLine + item.line - (linesBeforeCode + 2)
                }
                placed.notes = item.notes.map(inLesson)
                return placed
            }
            // Where the linker said what is wrong, the driver's "link command failed" adds nothing.
            let linkerSaid = compiled.diagnostics.contains(where: \.fromLinker)
            var everyErrorInCode = true, errorsSaid = 0
            for diagnostic in compiled.diagnostics.map(inLesson) where diagnostic.severity == "error" {
                if linkerSaid, diagnostic.isLinkSummary { continue }
                errorsSaid += 1
                // A linker's word holds while the files the link read are as they were.
                if diagnostic.fromLinker ? compiled.linkInputs.isEmpty : diagnostic.file != source.file { everyErrorInCode = false }
                if let core = coreFile(diagnostic.file) {
                    coreErrors.append(lessonDiagnostic(diagnostic, coreDisplay: core.displayPath))
                } else {
                    lessonErrors.append(lessonDiagnostic(diagnostic, scenario: source))
                }
            }
            if !coreErrors.isEmpty {
                state.withLock { if $0.coreErrors == nil { $0.coreErrors = coreErrors } }
                record([index], .coreFailed)
                return
            }
            if lessonErrors.isEmpty {
                lessonErrors.append(.error(
                    .compileError,
                    "scenario does not compile (\(compiled.termination))",
                    at: SourceLocation(file: source.file, line: source.firstLine),
                    attachment: compiled.transcript.isEmpty ? nil : compiled.transcript))
            }
            if everyErrorInCode, errorsSaid > 0, case .exited(let status) = compiled.termination, status != 0,
               status != 127 {
                let linkInputs = linkerSaid ? compiled.linkInputs : []
                state.withLock { $0.settledFailures[index] = linkInputs }
            }
            record([index], .compileFailed(lessonErrors))
            return
        }
        state.withLock { _ = $0.ranAlone.insert(index) }
        var watcher = ScenarioWatcher(single: index, timeLimit: runner.settings.timeLimit,
                                      outputCap: runner.settings.outputCap, limits: limitsApplied)
        do {
            var child = process(program, in: folder, batch: false)
            // A group's program reads this run's token first (see `GroupOutput`), through a
            // pipe: in a file, the program (outside the sandbox, run in a folder beside it)
            // could read it again and print a boundary of its own.
            let token = source.isGroup ? Self.groupToken() : nil
            if let token { child.standardInputBytes = Array((token + "\n").utf8) }
            let termination = try child.run(watching: &watcher)
            for (outcomeIndex, outcome) in watcher.outcomes(after: termination) {
                record([outcomeIndex], token.map { Self.split(outcome, token: $0) } ?? outcome)
            }
            measured(watcher.durations())
        } catch {
            record([index], .crashed(.exited(127), output: "", standardError: error.description))
        }
    }

    /// A token no program can know before it runs: 128 random bits.
    static func groupToken() -> String {
        (0..<4).map { _ in String(UInt32.random(in: 0...UInt32.max), radix: 16) }.joined(separator: "-")
    }

    /// A group program's outcome with its output split at its blocks (`GroupOutput.encoded`),
    /// as it is kept and cached: the token of this run is gone from it.
    static func split(_ outcome: ScenarioOutcome, token: String) -> ScenarioOutcome {
        func cut(_ output: String) -> String { GroupOutput.encoded(GroupOutput.split(output, token: token)) }
        switch outcome {
        case let .completed(output, standardError, fromCache):
            return .completed(output: cut(output), standardError: standardError, fromCache: fromCache)
        case let .crashed(termination, output, standardError, fromCache):
            return .crashed(termination, output: cut(output), standardError: standardError, fromCache: fromCache)
        case let .timedOut(limit, output, standardError):
            return .timedOut(limit: limit, output: cut(output), standardError: standardError)
        case let .outputCapped(cap, output, standardError):
            return .outputCapped(cap: cap, output: cut(output), standardError: standardError)
        case let .limitReached(limit, output, standardError):
            return .limitReached(limit, output: cut(output), standardError: standardError)
        case .compileFailed, .coreFailed, .typeChecked, .notReached:
            return outcome
        }
    }

    // MARK: Shared steps

    /// How a scenario program starts: under `coursebook-launcher`, which holds it to the run's
    /// limits, ends what it leaves and reports how it ended; in the sandbox, where the launcher
    /// is the process 1 of its namespace and watches it, or plainly in an empty folder of its own
    /// (the kernel's limits of each process alone). Batched or alone, it gets the same
    /// environment (`ScenarioEnvironment`) and nothing of the caller's; a batch program in the
    /// sandbox is told so (`ScenarioProgram.sandboxedVariable`), and unsets it before any
    /// scenario runs.
    private func process(_ program: String, in folder: String, batch: Bool,
                         adding extra: [String: String] = [:]) -> ChildProcess {
        var child = startingProcess(program, in: folder, batch: batch, adding: extra)
        child.randomizesAddresses = false
        child.cancellation = runner.cancellation
        return child
    }

    private func startingProcess(_ program: String, in folder: String, batch: Bool,
                                 adding extra: [String: String]) -> ChildProcess {
        let limits = runner.settings.limits
        switch placement {
        case .sandboxed(let sandbox):
            var environment = ScenarioEnvironment.variables(home: Sandbox.workingFolder).merging(extra) { $1 }
            if batch { environment[ScenarioProgram.sandboxedVariable] = "1" }
            return sandbox.process(program: program, environment: environment, limits: limits, batch: batch)
        case .plain, .refused:
            let working = emptyFolder(in: folder)
            let environment = ScenarioEnvironment.variables(home: working).merging(extra) { $1 }
            if let launcher = Launcher.path {
                return ChildProcess(executable: launcher,
                                    arguments: Sandbox.launcherLimits(limits, inSandbox: false)
                                        + [String(ChildProcess.endingDescriptor), program],
                                    environment: environment, inheritsEnvironment: false, workingDirectory: working,
                                    reportsEnding: true)
            }
            return ChildProcess(executable: program, arguments: [], environment: environment,
                                inheritsEnvironment: false, workingDirectory: working)
        }
    }

    /// The limits programs run under: none without the launcher, which sets them.
    private var limitsApplied: ScenarioLimits? {
        placement.sandbox != nil || Launcher.path != nil ? runner.settings.limits : nil
    }

    /// A new empty folder for a program to run in: a scenario that lists or writes files in its
    /// working folder sees none of the sources, nor another scenario's files.
    private func emptyFolder(in folder: String) -> String {
        let run = "\(folder)/run-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        return run
    }

    private func newProgramFolder(_ kind: String) -> String {
        let number = state.withLock { state -> Int in
            state.programNumber += 1
            return state.programNumber
        }
        let folder = "\(workspace)/\(kind)-\(number)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func record(_ indices: [Int], _ outcome: ScenarioOutcome) {
        state.withLock { state in
            for index in indices { state.results[index] = outcome }
        }
    }

    private func measured(_ durations: [Int: Duration]) {
        state.withLock { $0.durations.merge(durations) { $1 } }
    }

    private func coreFile(_ path: String?) -> ScenarioRunner.CoreFile? {
        guard let path else { return nil }
        return runner.coreFiles.first { $0.path == path }
    }

    private func owns(_ source: ScenarioSource, _ diagnostic: CompilerDiagnostic) -> Bool {
        guard diagnostic.file == source.file else { return false }
        guard source.isGroup else { return source.lines.contains(diagnostic.line) }
        return source.parts.contains { $0.firstLine <= diagnostic.line && diagnostic.line < $0.firstLine + max($0.lineCount, 1) }
    }

    /// A compiler diagnostic placed in a lesson: the line is the lesson's already (through
    /// `#sourceLocation`); the column gains the bytes before the code on that line.
    private func lessonDiagnostic(_ diagnostic: CompilerDiagnostic, scenario: ScenarioSource) -> Diagnostic {
        func place(_ item: CompilerDiagnostic) -> SourceLocation? {
            if let core = coreFile(item.file) {
                return SourceLocation(file: core.displayPath, line: item.line, column: item.column)
            }
            // The line after the code (the closing fence) is where the end of the code is.
            guard item.file == scenario.file, scenario.holds(lessonLine: item.line) else { return nil }
            let offset = scenario.columnOffset(atLessonLine: item.line)
            return SourceLocation(file: scenario.file, line: item.line, column: item.column + offset)
        }
        let location = place(diagnostic) ?? SourceLocation(file: scenario.file, line: scenario.firstLine)
        return .error(.compileError, diagnostic.message, at: location,
                      notes: diagnostic.notes.map { .init($0.message, at: place($0)) })
    }

    private func lessonDiagnostic(_ diagnostic: CompilerDiagnostic, coreDisplay: String) -> Diagnostic {
        .error(.coreCompileError, diagnostic.message,
               at: SourceLocation(file: coreDisplay, line: diagnostic.line, column: diagnostic.column),
               notes: diagnostic.notes.map { note in
                   .init(note.message, at: coreFile(note.file).map {
                       SourceLocation(file: $0.displayPath, line: note.line, column: note.column)
                   })
               })
    }
}
