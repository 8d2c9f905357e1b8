import BackgroundWork
import CourseChecking
internal import CourseFiles
internal import CourseModel
import Foundation
import LessonParsing
import ScenarioRunning
import SwiftReading

/// What the run step hands to the judge: what the Swift parser learned of each block, what
/// became of each scenario that ran (and how long it ran), the findings of reading, and the
/// run itself.
struct ScenariosRan: Sendable {
    var facts: CourseFacts
    var outcomes: [ScenarioPlace: ScenarioOutcome] = [:]
    var durations: [ScenarioPlace: Duration] = [:]
    /// The core files the reader could not read.
    var readingFindings: [Diagnostic]
    var run: RunReport = .empty
    var compilerVersion: String
    var compilerLanguageMode: LanguageMode?
    /// Cache entries the reader and the runner did not believe.
    var cacheRefusals = 0
    /// Why the cache could not be used at all, when so (the runner's store says).
    var cacheProblem: String?
}

/// The run step: the scenarios run, each read whole for its shape first; every other Swift
/// block read while they run, as far as the command needs it (a check, the illustrations'
/// syntax; a build, every block's highlighting too). The batch compiles while the scenarios
/// are read, on a guess of their shapes that the reading then confirms or drops. A check nobody
/// waits for any more (an editor's, after a newer edit: `cancellation`) stops with
/// `.interrupted`: asked before the scenarios start and after they end, and in between the
/// cancellation kills the compilers and programs running, starts no more, and caches nothing
/// of them.
extension Pipeline {
    func run(_ context: inout PipelineContext) throws(PipelineError) {
        let course = context.loaded.course, scope = context.scope, forPages = context.forPages
        let compiler = try Self.locateCompiler()
        let counts = self.counts
        let reader = SwiftBlockReader(storeFolder: context.cacheFolder, sharedFolder: sharedReadings,
                                      toolVersion: ToolBuild.keyVersion(CoursebookVersion.current),
                                      compilerVersion: compiler.version,
                                      onParse: { counts.swiftParses.add(1, ordering: .relaxed) },
                                      elsewhere: SwiftReadingProcess.elsewhere())
        let core = Self.core(of: course, reader: reader)
        // The compiler's language mode is asked for once the scenarios are under way (a new
        // machine's compiler may still be telling it).
        var ran = ScenariosRan(facts: CourseFacts(course), readingFindings: core.findings, compilerVersion: compiler.version)
        let runner = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles,
                                    settings: Self.settings(context.options, course: course, cacheFolder: context.cacheFolder),
                                    cache: context.cacheFolder.map(ResultCache.init(folder:)), cancellation: context.cancellation,
                                    modules: course.modules)
        if context.cancellation?.isCancelled == true { throw Self.cancelled }
        let (toRun, running) = start(Self.scenarios(of: course, scope: scope), of: course, core: core, runner: runner,
                                     reader: reader, forPages: forPages, shard: scope.shard, facts: &ran.facts)
        readOtherBlocks(of: course, scope: scope, forPages: forPages, reader: reader, facts: &ran.facts)

        let run = running.wait()
        if context.cancellation?.isCancelled == true { throw Self.cancelled }
        switch run.batchAhead {
        case .used: counts.batchesAheadUsed.add(1, ordering: .relaxed)
        case .dropped: counts.batchesAheadDropped.add(1, ordering: .relaxed)
        case .none: break
        }
        if case .refused(let reason) = run.sandbox {
            throw PipelineError(path: nil, status: .sandboxUnavailable, diagnostic: .error(
                .sandboxUnavailable,
                "the sandbox is required (--sandbox required) and cannot start here: \(reason)", at: nil))
        }
        for (index, scenario) in toRun.enumerated() {
            ran.outcomes[scenario.place] = run.outcomes[index]
            if index < run.durations.count, let duration = run.durations[index] { ran.durations[scenario.place] = duration }
        }
        ran.run = run
        ran.compilerLanguageMode = compiler.defaultLanguageMode
        ran.cacheRefusals = run.cacheRefusals + reader.refusedEntries
        ran.cacheProblem = Self.cacheProblem(results: runner.cache?.store, readings: reader.writeProblem,
                                             plans: compiler.plans?.writeProblem)
        context.ran = ran
    }

    /// What the check says of its caches: the course's (its results and readings) first, then
    /// the one every course shares (the Swift readings and the compiler's plans), which only
    /// makes other checks slower.
    static func cacheProblem(results: ContentStore?, readings: (course: String?, shared: String?), plans: String?) -> String? {
        if let problem = results?.problem { return problem }
        if let why = results?.writeProblem ?? readings.course {
            return "the cache cannot be written (\(why)): what this check found is not kept, and the next check does it again"
        }
        if let why = readings.shared ?? plans {
            return "the cache every course shares cannot be written (\(why)): the Swift this check read and the compiles it planned are not kept for other checks, which do them again"
        }
        return nil
    }

    /// A check stopped by its cancellation: what it found is dropped, and what it ran after the
    /// cancellation was never cached.
    static let cancelled = PipelineError(path: nil, status: .interrupted, diagnostic: .note(
        .checkCancelled, "the check was cancelled: a newer edit is checked instead", at: nil))

    /// The compiler on `PATH` (or where `COURSEBOOK_SWIFTC` says). Its version is a fact about
    /// its file (remembered by its path, size and time), not a result: `--no-cache` uses it
    /// too, and the driver's plans likewise.
    static func locateCompiler() throws(PipelineError) -> SwiftCompiler {
        do {
            return try SwiftCompiler.locate(versionCache: compilerVersionMemo, planCache: userCacheFile("compile-plans"))
        } catch {
            throw PipelineError(path: nil, status: .toolchainUnavailable,
                                diagnostic: .error(.toolchainUnavailable, error.description, at: nil))
        }
    }

    typealias ScenarioToRun = (place: ScenarioPlace, source: ScenarioSource)

    /// The scenarios this check runs, an `errors` scenario marked when it cannot change what
    /// the core's type-check says.
    static func scenarios(of course: Course, scope: CheckScope) -> [ScenarioToRun] {
        var toRun = CourseCheck.scenariosToRun(course).filter { scope.includes(lesson: $0.place.lesson) }
        if !course.coreFiles.isEmpty, toRun.contains(where: { $0.source.goal == .typeCheck }) {
            let coreReach = CoreReach.names(ofCore: course.coreFiles.map(\.text))
            for index in toRun.indices where toRun[index].source.goal == .typeCheck {
                toRun[index].source.leavesCoreAlone = CoreReach.leavesCoreAlone(toRun[index].source.code, coreNames: coreReach)
            }
        }
        return toRun
    }

    /// The core's top-level names, and whether a default argument may carry a scenario's place
    /// into it (`places`): a core whose names are not known may use any name a scenario
    /// declares, and no scenario shares a program with another then.
    static func core(of course: Course, reader: SwiftBlockReader) -> (names: Set<String>, places: Bool, findings: [Diagnostic]) {
        var knownNames = Set<String>()
        var findings: [Diagnostic] = []
        for core in course.coreFiles {
            switch reader.globalNames(of: core.text) {
            case .success(let names):
                knownNames.formUnion(names)
            case .failure(let unread):
                findings.append(.warning(
                    .swiftUnread,
                    "coursebook did not read this core file: \(unread.reason); every scenario is compiled as a program of its own",
                    at: SourceLocation(file: core.displayPath, line: unread.line, column: unread.column)))
            }
        }
        let places = !findings.isEmpty || course.coreFiles.contains { PlaceLiterals.appear(in: $0.text) }
        return (knownNames, places, findings)
    }

    /// How the scenarios run: the command's limits, the course's language mode, and what the
    /// sandbox keeps out of sight even where a system folder holds it (a repository under
    /// /usr/src, Docker's WORKDIR): the whole repository, the course, the caches, the home
    /// folder. Whether bubblewrap can start here is a fact about the machine (remembered per
    /// boot), not a result: `--no-cache` uses it too.
    static func settings(_ options: SharedOptions, course: Course, cacheFolder: String?) -> RunSettings {
        var settings = RunSettings()
        settings.timeLimit = options.timeLimit
        settings.compileTimeLimit = options.compileTimeLimit
        settings.sandbox = options.sandbox
        settings.languageMode = course.config.languageMode
        settings.limits = options.limits
        settings.outputCap = options.outputCap
        let environment = ProcessInfo.processInfo.environment
        settings.hiddenFolders = [Confinement.trustedRoot(ofCourse: course.folderPath), course.folderPath,
                                  (userCacheFile("x") as NSString).deletingLastPathComponent]
            + (cacheFolder.map { [$0] } ?? []) + [environment["HOME"], NSHomeDirectory()].compactMap { $0 }
            .filter { !$0.isEmpty && $0 != "/" }
        settings.sandboxMemo = userCacheFile("sandbox")
        return settings
    }

    /// Starts the scenarios: every scenario is read whole before it runs, since its shape says
    /// whether a batch can run it exactly as its own main.swift would. The batch does not wait
    /// for the reading: it starts compiling at once, with the scenarios that a look at their
    /// words says it will hold, and serves only if the shapes agree (a shard's share depends on
    /// the shapes, so a shard waits). Returns the scenarios that run (a shard's share) and the
    /// run under way.
    func start(_ scenarios: [ScenarioToRun], of course: Course, core: (names: Set<String>, places: Bool, findings: [Diagnostic]),
               runner: ScenarioRunner, reader: SwiftBlockReader, forPages: Bool, shard: Shard?,
               facts: inout CourseFacts) -> ([ScenarioToRun], Background<RunReport>) {
        var toRun = scenarios
        let sources = toRun.map(\.source)
        let coreNames = core.names
        let guess: (@Sendable (ScenarioSource) -> Bool)?
        if core.places {
            guess = nil
        } else {
            guess = { source in !source.isGroup && ShapeGuess.fitsBatch(source.code, coreNames: coreNames) }
        }
        let started: Background<RunStart>? = shard != nil || sources.isEmpty ? nil : Background {
            runner.start(sources, batchGuess: guess)
        }
        // An `errors` scenario is only type-checked, as `main.swift` whatever its shape: a check
        // needs nothing of its reading (a build, its highlighting).
        let reading = toRun.indices.filter { forPages || toRun[$0].source.goal == .run }
        let read = reader.read(reading.map { (toRun[$0].source.code, forPages ? .highlighted : .problems) }, pack: "scenarios")
        var readings = [SwiftBlockReading](repeating: .notNeeded, count: toRun.count)
        for (index, found) in zip(reading, read) {
            readings[index] = found
            let scenario = toRun[index]
            let block = course.lessons[scenario.place.lesson].scenarios[scenario.place.scenario].block
            facts[scenario.place.lesson, block.id] = Self.facts(found)
        }
        let traps = toRun.map { course.lessons[$0.place.lesson].scenarios[$0.place.scenario].expectation.kind == .trap }
        var jobs = Self.jobs(sources, readings: readings, coreNames: coreNames, corePlaces: core.places, traps: traps)
        if let shard {
            // Every shard reads every scenario's shape (from the cache, once it is warm) and
            // computes the same split; it runs its own share.
            let costs = jobs.map { ShardPlan.cost($0.shape, lines: $0.source.columnOffsets.count) }
            let assignment = ShardPlan.assign(costs: costs, shards: shard.count)
            let mine = assignment.indices.filter { assignment[$0] == shard.index - 1 }
            toRun = mine.map { toRun[$0] }
            jobs = mine.map { jobs[$0] }
        }
        let batch = jobs
        let running = Background {
            if batch.isEmpty { return RunReport.empty }
            if let started { return runner.finish(started.wait(), jobs: batch) }
            return runner.run(batch)
        }
        return (toRun, running)
    }

    /// While the compiler works: every other Swift block, as far as this command needs it (a
    /// check, the illustrations' syntax; pages, every block's highlighting too; the scenarios
    /// that run were read before they started).
    func readOtherBlocks(of course: Course, scope: CheckScope, forPages: Bool, reader: SwiftBlockReader,
                         facts: inout CourseFacts) {
        var requests: [(code: String, need: SwiftBlockReader.Need)] = []
        var places: [(lesson: Int, block: Int)] = []
        // A scenario is shown without its hidden lines, a group's block as itself: their pages
        // highlight what the reader sees, not what was compiled.
        var shownOnly: Set<Int> = []
        // A check of some lessons keeps only their findings: the others' blocks are not read.
        for (lessonIndex, lesson) in course.lessons.enumerated() where scope.includes(lesson: lessonIndex) {
            for block in lesson.codeBlocks where block.language == "swift" {
                let need: SwiftBlockReader.Need
                if case .illustration = block.role {
                    need = forPages ? .highlighted : .problems
                } else if forPages, block.role == .scenario || block.role == .skippedScenario || block.isModuleListing,
                          block.group != nil || HiddenLines.appear(in: block.code) {
                    shownOnly.insert(requests.count)
                    requests.append((block.shownCode, .highlighted))
                    places.append((lessonIndex, block.id))
                    continue
                } else if forPages, block.role != .output, block.role != .scenario {
                    need = .highlighted
                } else {
                    continue
                }
                requests.append((block.code, need))
                places.append((lessonIndex, block.id))
            }
        }
        for (index, (place, reading)) in zip(places, reader.read(requests, pack: "blocks")).enumerated() {
            if shownOnly.contains(index), var known = facts[place.lesson, place.block] {
                known.highlighted = Self.facts(reading).highlighted
                facts[place.lesson, place.block] = known
            } else {
                facts[place.lesson, place.block] = Self.facts(reading)
            }
        }
    }

    /// The scenarios to run, each with its shape: from its reading, and from the core's names —
    /// a top-level name the core files use would be the module's in main.swift and could change
    /// what the core means, so such a scenario gets a program of its own. When the core uses
    /// `#line` and its kin (`corePlaces`), a default argument may carry a scenario's place into
    /// the core, and every scenario gets a program of its own.
    /// A scenario that must trap (`traps`) runs alone too: its message is the one `main.swift`
    /// gives (an address it names is a global's there, a local's in a batch).
    static func jobs(_ sources: [ScenarioSource], readings: [SwiftBlockReading], coreNames: Set<String>,
                     corePlaces: Bool = false, traps: [Bool] = []) -> [ScenarioJob] {
        zip(sources, readings).enumerated().map { index, pair in
            let (source, reading) = pair
            // A group's program is the concatenation of its blocks as `main.swift` (with the
            // file that marks where each block ends): a program of its own.
            let trap = index < traps.count && traps[index]
            let shadowsCore = !coreNames.isDisjoint(with: reading.declaredNames)
            let ownProgram = source.isGroup || corePlaces || reading.needsOwnProgram || shadowsCore || trap
            // A program of its own that a batch of such programs may still hold, its types
            // lifted out (see SwiftReading's `TypeHoisting`): never one whose names the core
            // files use, nor one expected to trap (its message is the program alone's).
            let hoisting = reading.hoisting.flatMap { hoisting -> ScenarioHoisting? in
                guard ownProgram, !corePlaces, !trap, !shadowsCore, coreNames.isDisjoint(with: hoisting.names) else { return nil }
                return hoisting
            }
            return ScenarioJob(source: source, shape: ScenarioShape(needsOwnProgram: ownProgram,
                                                                     hasMainAttribute: reading.hasMainAttribute,
                                                                     hoisting: hoisting))
        }
    }

    /// What the Swift parser learned of a block, as the model keeps it.
    static func facts(_ reading: SwiftBlockReading) -> SwiftBlockFacts {
        SwiftBlockFacts(
            findings: reading.problems.map { SyntaxFinding(line: $0.line, column: $0.column, message: $0.message) },
            shape: ScenarioShape(needsOwnProgram: reading.needsOwnProgram, hasMainAttribute: reading.hasMainAttribute),
            highlighted: reading.highlighted, trees: reading.trees,
            unread: reading.unread.map { SyntaxFinding(line: $0.line, column: $0.column, message: $0.reason) })
    }

    /// Where the compiler's version is remembered (by its path, size and modification time)
    /// between runs: the user's cache folder, so that a course's fresh result cache does not
    /// cost a `swiftc --version` every time.
    static var compilerVersionMemo: String { userCacheFile("compiler-version") }

    /// A file of coursebook's in the user's cache folder (`$XDG_CACHE_HOME/coursebook`, else
    /// `~/.cache/coursebook`).
    static func userCacheFile(_ name: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache"
        return base + "/coursebook/" + name
    }
}
