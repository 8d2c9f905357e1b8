import BackgroundWork
import CourseFiles
import CourseModel
import Processes
import Foundation

/// One run of the runner: a scratch folder, the results so far, the compiler runs counted.
/// Programs of one scenario compile and run in parallel, so the mutable parts sit behind a lock.
final class RunSession: Sendable {
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
        /// Why the batch runner could not be compiled, when it could not (every scenario was
        /// then compiled alone).
        var runnerProblem: String?
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
    var runnerProblem: String? { state.withLock { $0.runnerProblem } }

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
        // Without the runner no batch links: every program is compiled alone instead.
        if compiled.runnerMissing {
            state.withLock { $0.runnerProblem = $0.runnerProblem ?? compiled.transcript }
            return indices
        }

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
        let made = lifted ? runner.liftedBatchProgram(indices.map { ($0, jobs[$0]) })
            : runner.batchProgram(indices.map { ($0, jobs[$0].source) })
        let compiled = runner.compileBatch(files: made, in: folder, output: program)
        // Without its runner no compiler ran.
        if !compiled.runnerMissing { state.withLock { $0.compilerRuns += 1 } }
        return CompiledBatch(compiled: compiled, program: program, folder: folder)
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
        let alone = compiledAlone(index, compilerJobs: compilerJobs)
        guard alone.compiled.succeeded else {
            recordRefusal(index, alone)
            return
        }
        state.withLock { _ = $0.ranAlone.insert(index) }
        runProgram(index, alone.program, in: alone.folder)
    }

    /// A scenario's program of its own, compiled: the one compiling ahead when it is this one,
    /// else compiled now.
    private struct AloneProgram {
        var folder: String
        var program: String
        var files: [(name: String, contents: String)]
        var compiled: CompileResult
    }

    private func compiledAlone(_ index: Int, compilerJobs: Int) -> AloneProgram {
        let source = jobs[index].source
        let shape = jobs[index].shape
        if compilerJobs == runner.settings.parallelism,
           let ahead = takeAhead(.alone(index, hasMainAttribute: shape.hasMainAttribute)) {
            return AloneProgram(folder: ahead.folder, program: ahead.program, files: ahead.files, compiled: ahead.compiled.wait())
        }
        let folder = newProgramFolder("alone")
        let program = "\(folder)/program"
        let files = ScenarioProgram.standalone(source, hasMainAttribute: shape.hasMainAttribute,
                                               unbufferedFromOutside: ScenarioProgram.unbufferedOutput != nil)
        state.withLock { $0.compilerRuns += 1 }
        let compiled = runner.compileAlone(files: files, in: folder, output: program, jobs: compilerJobs,
                                           languageMode: source.languageMode,
                                           modules: runner.moduleLink(for: source))
        return AloneProgram(folder: folder, program: program, files: files, compiled: compiled)
    }

    /// A program of its own that did not compile: its errors at their lesson lines (or the
    /// core's, which fail every scenario), kept as settled when every one is in its own code.
    private func recordRefusal(_ index: Int, _ alone: AloneProgram) {
        let source = jobs[index].source
        let compiled = alone.compiled
        var lessonErrors: [Diagnostic] = []
        var coreErrors: [Diagnostic] = []
        // Where the linker said what is wrong, the driver's "link command failed" adds nothing.
        let linkerSaid = compiled.diagnostics.contains(where: \.fromLinker)
        var everyErrorInCode = true, errorsSaid = 0
        let placed = compiled.diagnostics.map { Self.inLesson($0, source: source, folder: alone.folder, files: alone.files) }
        for diagnostic in placed where diagnostic.severity == "error" {
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
    }

    /// A diagnostic of a program of its own placed in the lesson. The compiler names the
    /// scenario's own file and line (through `#sourceLocation`), or, at the end of the file (a
    /// missing `}`), the generated file and its line; the lesson line follows from either.
    private static func inLesson(_ item: CompilerDiagnostic, source: ScenarioSource, folder: String,
                                 files: [(name: String, contents: String)]) -> CompilerDiagnostic {
        let ownFile = ScenarioProgram.standaloneFileName
        let generated = "\(folder)/\(ownFile)"
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
            let linesBeforeCode = files.first { $0.name == ownFile }.map { file in
                file.contents.prefix { $0 != "#" }.filter { $0 == "\n" }.count
            } ?? 0
            placed.file = source.file
            placed.line = source.firstLine + item.line - (linesBeforeCode + 2)
        }
        placed.notes = item.notes.map { inLesson($0, source: source, folder: folder, files: files) }
        return placed
    }

    /// Runs a compiled program of one scenario (or one group) and records what it did.
    private func runProgram(_ index: Int, _ program: String, in folder: String) {
        let source = jobs[index].source
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
