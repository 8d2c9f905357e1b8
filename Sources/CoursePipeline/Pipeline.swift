import BackgroundWork
import CourseChecking
internal import CourseFiles
package import CourseModel
internal import CourseReports
package import CourseSite
import Foundation
import LessonParsing
import ScenarioRunning
import SwiftReading

/// `check` and `build` as one pipeline of named steps, in the order they run:
///
///     load → prepare (words, templates, destination, search) → check → render → index → write
///
/// `check` runs load and check (and, with `--update`, writes the lessons it rewrote); `build`
/// runs them all. A step hands its result to the next or throws a `PipelineError` that names
/// the step, the path at fault and the exit status. Every warning of every step goes into the
/// check's one report, so `--strict` means the same for all of them. The command line only
/// turns arguments into options and prints what comes back.
package struct Pipeline: Sendable {
    /// How much parsing this pipeline did (tests read it).
    package let counts = WorkCounts()
    /// Whether the process ends with this command (`check` and `build` on the command line, not
    /// `watch` or a library user): what the command made is then left to the process's end.
    package let endsWithTheProcess: Bool

    package init(endsWithTheProcess: Bool = false) {
        self.endsWithTheProcess = endsWithTheProcess
    }

    /// What `check` found.
    package struct Checked: Sendable {
        package var report: CheckReport
        /// Whether results were kept between runs (`--no-cache` says no).
        package var cacheUsed: Bool

        package init(report: CheckReport, cacheUsed: Bool) {
            self.report = report
            self.cacheUsed = cacheUsed
        }
    }

    /// What `build` wrote.
    package struct Built: Sendable {
        package var checked: Checked
        package var pages: Int
        package var assets: Int
        /// Files the lessons link to, copied into the site.
        package var linkedFiles: Int
        /// How many of the pages are lessons, and whether one is the limitations page.
        package var lessonPages: Int
        package var limitationsPage: Bool
        /// How many pages the search index holds; nil when the site has none (Pagefind is not
        /// installed, or `--no-search`).
        package var searchPages: Int?
        /// Whether the index is the one in place, its pages unchanged and its files verified
        /// (Pagefind did not run).
        package var searchReused: Bool = false
        /// The pages still to index (`searchAfterPages`): `refreshIndex` indexes them.
        package var searchPending: [String]?
        /// Whether Pagefind was looked for and not found (the command says so).
        package var searchUnavailable: Bool
    }

    // MARK: The commands

    package func check(_ options: CheckCommandOptions) throws(PipelineError) -> Checked {
        try Self.prepareCache(options.shared)
        let loaded = try load(options.shared.course, forPages: false)
        let scope = try scope(of: loaded.course, lessons: options.lessons, shard: options.shard)
        var checked = try check(loaded, findings: [], options: options.shared, update: options.update,
                                forSite: false, scope: scope).checked
        checked.report = write(rewritesOf: checked.report)
        try writeReports(checked, of: loaded.course, to: options.shared.reports)
        release(loaded)
        return checked
    }

    /// What `check LESSON.md ...` and `--shard K/N` leave to this run: the lessons named (each
    /// must be a lesson file of the course), the share of the scenarios.
    func scope(of course: Course, lessons: [String], shard: Shard?) throws(PipelineError) -> CheckScope {
        guard !lessons.isEmpty else { return CheckScope(shard: shard) }
        var chosen = Set<Int>()
        for given in lessons {
            let name = URL(fileURLWithPath: given).lastPathComponent
            guard let index = course.lessons.firstIndex(where: { $0.fileName == name }) else {
                let why = CourseLoader.isLessonFileName(name)
                    ? "no such lesson in the course \(course.folder)"
                    : "not a lesson file: lessons are named NN-slug.md (01-intro.md ...)"
                throw PipelineError(.load, path: given, status: .courseUnreadable,
                                    diagnostic: .error(.courseUnreadable, why, at: SourceLocation(file: given, line: 0, column: 0)))
            }
            chosen.insert(index)
        }
        return CheckScope(lessons: chosen, shard: shard,
                          lessonPaths: chosen.sorted().map { course.lessons[$0].path })
    }

    /// `--report FILE`: each file written whole, whatever the check found. A file that cannot
    /// be written stops the command (exit status 4), after the check's findings are shown.
    func writeReports(_ checked: Checked, of course: Course, to paths: [String]) throws(PipelineError) {
        guard !paths.isEmpty else { return }
        try Self.write(ReportDocument(course: course, report: checked.report), to: paths, checked: checked)
    }

    /// A report document into files, each in the format its name asks for.
    static func write(_ document: ReportDocument, to paths: [String], checked: Checked?) throws(PipelineError) {
        for path in paths {
            guard let kind = ReportKind(path: path) else {
                throw PipelineError(.write, path: path, status: .usage, diagnostic: .error(
                    .reportNotWritten, "a report is a .json or a .xml file", at: nil), checked: checked)
            }
            // A report is written by a rename over its name, which would put a file in place
            // of a link; and writing where a link points is writing where whoever made the
            // link wants (one committed to the repository may point at a file of the user's).
            // So a link is refused, as `--out` refuses one.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " (to \(escapingControls($0)))" } ?? ""
                throw PipelineError(.write, path: path, status: .siteNotWritten, diagnostic: .error(
                    .reportNotWritten,
                    "cannot write the report \(escapingControls(path)): it is a symbolic link\(target), and coursebook writes a report only as a file of its own; give the path of the file itself",
                    at: nil), checked: checked)
            }
            do {
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                try writeAtomically(kind.render(document), to: path, keepingPermissions: false)
            } catch {
                throw PipelineError(.write, path: path, status: .siteNotWritten, diagnostic: .error(
                    .reportNotWritten, "cannot write the report \(path): \(error)", at: nil), checked: checked)
            }
        }
    }

    package func build(_ options: BuildCommandOptions) throws(PipelineError) -> Built {
        let indexer = options.search ? SearchIndexer.locate() : nil
        var (checked, input) = try checkedSite(options, validatingDestination: true, search: indexer != nil)
        let course = input.course, drawings = input.diagrams
        // Handed over whole: the pages let each lesson's document and diagrams go once used.
        let staging = try render(consume input, out: options.out)
        // The drawings are read from the store as the pages are made.
        checked.report.cacheRefusals += drawings?.refusedEntries ?? 0
        let pagesToIndex = course.lessons.map(SitePages.pageName)
        var search: SearchIndexer.Outcome?
        var pending: [String]?
        if let indexer {
            if options.searchAfterPages {
                search = indexer.reuse(site: staging.site.folder, pages: pagesToIndex, previous: options.out)
                if search == nil { pending = pagesToIndex }
            } else {
                search = try index(staging.site, with: indexer, pages: pagesToIndex, previous: options.out)
            }
        }
        try write(staging.site, out: options.out)
        release(course)
        return Built(checked: checked, pages: staging.pages, assets: staging.assets,
                     linkedFiles: course.linkedFiles.count, lessonPages: course.lessons.count,
                     limitationsPage: SitePages.hasLimitationsPage(course), searchPages: search?.pages,
                     searchReused: search?.reused ?? false, searchPending: pending, searchUnavailable: options.search && indexer == nil)
    }

    /// Freeing a large course's parsed documents and pages takes tens of milliseconds: a
    /// command that ends the process leaves it to the end (`CommandLifetime.keepUntilExit`);
    /// any other frees it on another thread, so that the answer does not wait for it.
    private func release<Value: Sendable>(_ value: Value) {
        if endsWithTheProcess, CommandLifetime.keepUntilExit(value) { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
    }

    /// The files `build` would write, kept in memory instead (`--out` is not looked at), with
    /// the pages of a searchable site when `options.search` says so (the index itself is not
    /// made): for tests that compare pages.
    package func siteFiles(_ options: BuildCommandOptions) throws(PipelineError) -> (checked: Checked, files: [SiteFile]) {
        var (checked, input) = try checkedSite(options, validatingDestination: false, search: options.search)
        do {
            let drawings = input.diagrams
            let files = try SitePages.files(input)
            checked.report.cacheRefusals += drawings?.refusedEntries ?? 0
            return (checked, files)
        } catch {
            throw siteError(.render, error)
        }
    }

    /// load → prepare → check, stopping when the check fails.
    private func checkedSite(_ options: BuildCommandOptions, validatingDestination: Bool,
                             search: Bool) throws(PipelineError) -> (Checked, SiteInput) {
        try Self.prepareCache(options.shared)
        let loaded = try load(options.shared.course, forPages: true)
        let site = try prepare(loaded.course, out: validatingDestination ? options.out : nil,
                               cacheFolder: Self.cacheFolder(options.shared, course: loaded.course))
        let (checked, facts) = try check(loaded, findings: site.findings, options: options.shared,
                                         update: false, forSite: true)
        try writeReports(checked, of: loaded.course, to: options.shared.reports)
        guard checked.report.succeeded else {
            throw PipelineError(.check, path: options.out, status: .checkFailed,
                                diagnostic: .error(.checkFailed, "the check failed; \(options.out) was not written", at: nil),
                                checked: checked)
        }
        var course = loaded.course
        course.linkedFiles = site.linkedFiles
        let counts = self.counts
        let drawer = DiagramDrawer(storeFolder: Self.cacheFolder(options.shared, course: course), toolVersion: ToolBuild.keyVersion(CoursebookVersion.current),
                                   onDraw: { counts.diagramsDrawn.add(1, ordering: .relaxed) })
        let diagrams = drawer.diagrams(of: checked.report, words: site.words.diagram, lessons: course.lessons.count)
        return (checked, SiteInput(course: course, documents: loaded.documents, report: checked.report,
                                   facts: facts, templates: site.templates, words: site.words, search: search,
                                   diagrams: diagrams))
    }

    // MARK: load

    /// Reads `course.json`, the core files and every lesson, each parsed once.
    func load(_ folder: String, forPages: Bool, unsaved: [String: [UInt8]] = [:]) throws(PipelineError) -> LoadedCourse {
        do {
            return try CourseLoader.load(folder: folder, counts: counts, forPages: forPages, unsaved: unsaved)
        } catch {
            throw PipelineError(.load, path: error.diagnostic.location?.file, status: .courseUnreadable,
                                diagnostic: error.diagnostic)
        }
    }

    // MARK: prepare

    /// What a site needs before anything runs, so that a build that cannot be written fails
    /// before its scenarios cost anything.
    struct SitePlan {
        var words: SiteWords
        var templates: TemplateSet
        /// Warnings for the check's report.
        var findings: [Diagnostic]
        /// The linked files the site carries: those at a path the site does not use itself.
        var linkedFiles: [String]
    }

    func prepare(_ course: Course, out: String?, cacheFolder: String? = nil) throws(PipelineError) -> SitePlan {
        var findings: [Diagnostic] = []
        let words: SiteWords
        if let builtIn = SiteWords.forLanguage(course.config.language) {
            words = builtIn
        } else {
            findings.append(.warning(
                .languageWords,
                "no built-in words for language '\(course.config.language)'; pages use English for the words the tool adds",
                at: SourceLocation(file: course.configPath, line: 0)))
            words = .english
        }

        let templates: TemplateSet
        do {
            if let folder = course.config.templates {
                templates = try TemplateSet.load(
                    folder: URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: course.folderPath + "/"))
                        .standardizedFileURL.path,
                    displayFolder: displayPath(course.folder, folder),
                    trustedRoot: Confinement.trustedRoot(ofCourse: course.folderPath))
            } else {
                templates = try TemplateSet.builtIn()
            }
        } catch {
            throw PipelineError(.prepare, path: error.template, status: .templateInvalid,
                                diagnostic: .error(.templateInvalid, error.message,
                                                   at: SourceLocation(file: error.template, line: error.line)))
        }

        if let out {
            do {
                try SiteWriter.validate(destination: out, course: course, cacheFolder: cacheFolder)
                // What a killed build left is put right now, so that even a build whose check
                // fails leaves the site in place.
                try SiteWriter.recover(destination: out)
            } catch {
                throw siteError(.prepare, error)
            }
        }
        var linkedFiles: [String] = []
        for file in course.linkedFiles {
            guard LinkedFiles.isTaken(file, by: course) else {
                linkedFiles.append(file)
                continue
            }
            let place = course.lessons.lazy.compactMap { lesson in
                lesson.links.first { link in
                    if case let .relative(path, _) = link.target { return LinkTarget.coursePath(path) == file }
                    return false
                }.map { lesson.location(line: $0.line, column: $0.column) }
            }.first
            findings.append(.warning(
                .linkTargetReserved,
                "'\(file)' is where the site keeps a file of its own, so the site cannot carry it; move or rename it",
                at: place))
        }
        return SitePlan(words: words, templates: templates, findings: findings, linkedFiles: linkedFiles)
    }

    // MARK: check

    /// Reads the Swift blocks, runs the scenarios, judges everything: one report. The batch
    /// compiles while the scenarios are read (on a guess of their shapes that the reading then
    /// confirms or drops); the other blocks are read while it runs. A check nobody waits for
    /// any more (an editor's, after a newer edit: `cancellation`) stops with `.interrupted`:
    /// asked before the scenarios start and after they end, and in between the cancellation
    /// kills the compilers and programs running, starts no more, and caches nothing of them.
    func check(_ loaded: LoadedCourse, findings: [Diagnostic], options: SharedOptions, update: Bool,
               forSite: Bool, scope: CheckScope = .wholeCourse,
               cancellation: Cancellation? = nil) throws(PipelineError) -> (checked: Checked, facts: CourseFacts) {
        let isCancelled = { cancellation?.isCancelled == true }
        let course = loaded.course
        let cacheFolder = Self.cacheFolder(options, course: course)
        let compiler: SwiftCompiler
        do {
            // The version is a fact about the compiler's file (remembered by its path, size and
            // time), not a result: `--no-cache` uses it too, and the driver's plans likewise.
            compiler = try SwiftCompiler.locate(versionCache: Self.compilerVersionMemo,
                                                planCache: Self.userCacheFile("compile-plans"))
        } catch {
            throw PipelineError(.check, path: nil, status: .toolchainUnavailable,
                                diagnostic: .error(.toolchainUnavailable, error.description, at: nil))
        }

        let counts = self.counts
        let reader = SwiftBlockReader(storeFolder: cacheFolder, toolVersion: ToolBuild.keyVersion(CoursebookVersion.current),
                                      compilerVersion: compiler.version,
                                      onParse: { counts.swiftParses.add(1, ordering: .relaxed) },
                                      elsewhere: SwiftReadingProcess.elsewhere())
        var toRun = CourseCheck.scenariosToRun(course).filter { scope.includes(lesson: $0.place.lesson) }
        if !course.coreFiles.isEmpty, toRun.contains(where: { $0.source.goal == .typeCheck }) {
            let coreReach = CoreReach.names(ofCore: course.coreFiles.map(\.text))
            for index in toRun.indices where toRun[index].source.goal == .typeCheck {
                toRun[index].source.leavesCoreAlone = CoreReach.leavesCoreAlone(toRun[index].source.code, coreNames: coreReach)
            }
        }
        var facts = CourseFacts(course)
        var knownNames = Set<String>()
        var readingFindings: [Diagnostic] = []
        for core in course.coreFiles {
            switch reader.globalNames(of: core.text) {
            case .success(let names):
                knownNames.formUnion(names)
            case .failure(let unread):
                readingFindings.append(.warning(
                    .swiftUnread,
                    "coursebook did not read this core file: \(unread.reason); every scenario is compiled as a program of its own",
                    at: SourceLocation(file: core.displayPath, line: unread.line, column: unread.column)))
            }
        }
        let coreNames = knownNames
        // A core whose names are not known may use any name a scenario declares: no scenario
        // shares a program with another then.
        let corePlaces = !readingFindings.isEmpty || course.coreFiles.contains { PlaceLiterals.appear(in: $0.text) }

        var settings = RunSettings()
        settings.timeLimit = options.timeLimit
        settings.compileTimeLimit = options.compileTimeLimit
        settings.sandbox = options.sandbox
        settings.languageMode = course.config.languageMode
        settings.limits = options.limits
        settings.outputCap = options.outputCap
        // Out of the sandbox's sight even where a system folder holds them (a repository under
        // /usr/src, Docker's WORKDIR): the whole repository, the course, the caches, the home folder.
        let environment = ProcessInfo.processInfo.environment
        settings.hiddenFolders = [Confinement.trustedRoot(ofCourse: course.folderPath), course.folderPath,
                                  (Self.userCacheFile("x") as NSString).deletingLastPathComponent]
            + (cacheFolder.map { [$0] } ?? []) + [environment["HOME"], NSHomeDirectory()].compactMap { $0 }
            .filter { !$0.isEmpty && $0 != "/" }
        // Whether bubblewrap can start here is a fact about the machine (remembered per boot), not
        // a result: `--no-cache` uses it too.
        settings.sandboxMemo = Self.userCacheFile("sandbox")
        let runner = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles, settings: settings,
                                    cache: cacheFolder.map(ResultCache.init(folder:)), cancellation: cancellation,
                                    modules: course.modules)

        // Every scenario is read whole before it runs: its shape says whether a batch can run
        // it exactly as its own main.swift would. The batch does not wait for the reading: it
        // starts compiling at once, with the scenarios that a look at their words says it will
        // hold, and serves only if the shapes agree (a shard's share depends on the shapes, so
        // a shard waits).
        if isCancelled() { throw Self.cancelled }
        let sources = toRun.map(\.source)
        let guess: (@Sendable (ScenarioSource) -> Bool)?
        if corePlaces {
            guess = nil
        } else {
            guess = { source in !source.isGroup && ShapeGuess.fitsBatch(source.code, coreNames: coreNames) }
        }
        let started: Background<RunStart>? = scope.shard != nil || sources.isEmpty ? nil : Background {
            runner.start(sources, batchGuess: guess)
        }
        // An `errors` scenario is only type-checked, as `main.swift` whatever its shape: a check
        // needs nothing of its reading (a build, its highlighting).
        let needsReading = toRun.map { forSite || $0.source.goal == .run }
        let read = reader.read(toRun.indices.filter { needsReading[$0] }.map { (toRun[$0].source.code, forSite ? .highlighted : .problems) })
        var readings = [SwiftBlockReading](repeating: .notNeeded, count: toRun.count)
        for (index, reading) in zip(toRun.indices.filter { needsReading[$0] }, read) {
            readings[index] = reading
            let scenario = toRun[index]
            let block = course.lessons[scenario.place.lesson].scenarios[scenario.place.scenario].block
            facts[scenario.place.lesson, block.id] = Self.facts(reading)
        }
        let traps = toRun.map { course.lessons[$0.place.lesson].scenarios[$0.place.scenario].expectation.kind == .trap }
        var jobs = Self.jobs(toRun.map(\.source), readings: readings, coreNames: coreNames, corePlaces: corePlaces,
                             traps: traps)
        if let shard = scope.shard {
            // Every shard reads every scenario's shape (from the cache, once it is warm) and
            // computes the same split; it runs its own share.
            let costs = jobs.map { ShardPlan.cost($0.shape, lines: $0.source.columnOffsets.count) }
            let assignment = ShardPlan.assign(costs: costs, shards: shard.count)
            let mine = assignment.indices.filter { assignment[$0] == shard.index - 1 }
            toRun = mine.map { toRun[$0] }
            readings = mine.map { readings[$0] }
            jobs = mine.map { jobs[$0] }
        }

        let batch = jobs
        let running = Background {
            if batch.isEmpty { return RunReport.empty }
            if let started { return runner.finish(started.wait(), jobs: batch) }
            return runner.run(batch)
        }

        // While the compiler works: every other Swift block, as far as this command needs it
        // (a check, the illustrations' syntax; a build, every block's highlighting too; the
        // scenarios that ran were read above).
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
                    need = forSite ? .highlighted : .problems
                } else if forSite, block.role == .scenario || block.role == .skippedScenario || block.isModuleListing,
                          block.group != nil || HiddenLines.appear(in: block.code) {
                    shownOnly.insert(requests.count)
                    requests.append((block.shownCode, .highlighted))
                    places.append((lessonIndex, block.id))
                    continue
                } else if forSite, block.role != .output, block.role != .scenario {
                    need = .highlighted
                } else {
                    continue
                }
                requests.append((block.code, need))
                places.append((lessonIndex, block.id))
            }
        }
        for (index, (place, reading)) in zip(places, reader.read(requests)).enumerated() {
            if shownOnly.contains(index), var known = facts[place.lesson, place.block] {
                known.highlighted = Self.facts(reading).highlighted
                facts[place.lesson, place.block] = known
            } else {
                facts[place.lesson, place.block] = Self.facts(reading)
            }
        }

        let run = running.wait()
        if isCancelled() { throw Self.cancelled }
        switch run.batchAhead {
        case .used: counts.batchesAheadUsed.add(1, ordering: .relaxed)
        case .dropped: counts.batchesAheadDropped.add(1, ordering: .relaxed)
        case .none: break
        }
        if case .refused(let reason) = run.sandbox {
            throw PipelineError(.check, path: nil, status: .sandboxUnavailable, diagnostic: .error(
                .sandboxUnavailable,
                "the sandbox is required (--sandbox required) and cannot start here: \(reason)", at: nil))
        }
        var outcomes: [ScenarioPlace: ScenarioOutcome] = [:]
        var durations: [ScenarioPlace: Duration] = [:]
        for (index, scenario) in toRun.enumerated() {
            outcomes[scenario.place] = run.outcomes[index]
            if index < run.durations.count, let duration = run.durations[index] { durations[scenario.place] = duration }
        }
        var report = CourseCheck.report(
            course, findings: loaded.diagnostics + findings + readingFindings, facts: facts, outcomes: outcomes, run: run,
            compilerVersion: compiler.version, options: CheckOptions(strict: options.strict, update: update),
            scope: scope, durations: durations)
        report.sandbox = run.sandbox
        report.compilerLanguageMode = compiler.defaultLanguageMode
        report.cacheRefusals = run.cacheRefusals + reader.refusedEntries
        report.cacheProblem = cacheFolder == nil ? nil : ContentStore(folder: cacheFolder!).problem
        return (Checked(report: report, cacheUsed: cacheFolder != nil), facts)
    }

    /// A check stopped by its cancellation: what it found is dropped, and what it ran after the
    /// cancellation was never cached.
    static let cancelled = PipelineError(.check, path: nil, status: .interrupted, diagnostic: .note(
        .checkCancelled, "the check was cancelled: a newer edit is checked instead", at: nil))

    /// `--cache-dir DIR` must be a folder the cache can live in: made now when missing, and an
    /// error (a wrong command line) when a file is in the way or it cannot be made. Results
    /// that could not be kept would silently make every run compile everything.
    static func prepareCache(_ options: SharedOptions) throws(PipelineError) {
        guard case .folder(let folder) = options.cache else { return }
        func refuse(_ why: String) -> PipelineError {
            PipelineError(.load, path: folder, status: .usage,
                          diagnostic: .error(.cacheUnusable, "--cache-dir \(folder): \(why)", at: nil))
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw refuse("this is a file; the cache needs a folder") }
            return
        }
        // The first folder on the way that cannot be made says why.
        var path = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            path += (path.isEmpty || path == "/" ? "" : "/") + part
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw refuse("cannot make the folder: \(path) is a file") }
                continue
            }
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw refuse("cannot make the folder \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Where results are kept between runs; nil with `--no-cache`.
    static func cacheFolder(_ options: SharedOptions, course: Course) -> String? {
        switch options.cache {
        case .inCourse: course.folderPath + "/.coursebook-cache"
        case .folder(let folder): URL(fileURLWithPath: folder).standardizedFileURL.path
        case .none: nil
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

    // MARK: render

    /// The pages, rendered on every core into a staging folder beside the destination. The
    /// input is handed on to the pages (see `SitePages.render`).
    func render(_ input: consuming SiteInput, out: String) throws(PipelineError) -> (site: SiteStaging, pages: Int, assets: Int) {
        let course = input.course
        let staging: SiteStaging
        do {
            staging = try SiteStaging(destination: out)
        } catch {
            throw siteError(.render, error)
        }
        do throws(SiteWriteError) {
            let made = try SitePages.render(consume input, into: staging)
            for file in course.linkedFiles {
                let bytes: [UInt8]
                switch readRegularFile(atPath: course.folderPath + "/" + file) {
                case .success(let read): bytes = read
                case .failure(let failure):
                    throw SiteWriteError(folder: out, message: "cannot read \(displayPath(course.folder, file)), which a lesson links to: \(failure)")
                }
                try staging.add(SiteFile(path: file, bytes: bytes))
            }
            return (staging, made.pages, made.assets)
        } catch {
            staging.discard()
            throw siteError(.render, error)
        }
    }

    // MARK: index

    /// The search index of the staged site, before it is swapped in: a site is never in place
    /// with a search page and no index.
    func index(_ staging: SiteStaging, with indexer: SearchIndexer, pages: [String],
               previous: String?) throws(PipelineError) -> SearchIndexer.Outcome {
        do {
            return try indexer.index(site: staging.folder, pages: pages, previous: previous)
        } catch {
            staging.discard()
            throw PipelineError(.index, path: indexer.executable, status: error.timedOut ? .searchTimedOut : .siteNotWritten,
                                diagnostic: .error(error.timedOut ? .searchTimedOut : .siteNotWritten,
                                                   "cannot index the site for search: \(error)", at: nil))
        }
    }

    /// A new search index for the site in place at `out`, made from `pages` after they were
    /// written (`BuildCommandOptions.searchAfterPages`): the site is staged again from its own
    /// files (hard links), indexed, and swapped in, so that a reader never sees half an index.
    package func refreshIndex(out: String, pages: [String]) throws(PipelineError) -> SearchIndexer.Outcome? {
        guard let indexer = SearchIndexer.locate() else { return nil }
        let staging: SiteStaging
        do {
            staging = try SiteStaging(destination: out)
        } catch {
            throw siteError(.index, error)
        }
        let files = FileManager.default
        for name in SearchIndexRecord.files(under: out)
        where name != SiteWriter.marker && !name.hasPrefix(SearchIndexer.folder + "/") {
            let target = staging.folder + "/" + name
            do {
                try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                if link(out + "/" + name, target) != 0 { try files.copyItem(atPath: out + "/" + name, toPath: target) }
            } catch {
                staging.discard()
                throw PipelineError(.index, path: out, status: .siteNotWritten,
                                    diagnostic: .error(.siteNotWritten, "cannot index the site for search: \(error.localizedDescription)", at: nil))
            }
        }
        let outcome = try index(staging, with: indexer, pages: pages, previous: nil)
        try write(staging, out: out)
        return outcome
    }

    // MARK: write

    /// The staged site in place of the destination.
    func write(_ staging: SiteStaging, out: String) throws(PipelineError) {
        do {
            try staging.commit()
        } catch {
            throw siteError(.write, error)
        }
    }

    /// `--update`: the lessons the check rewrote, each written atomically and once. Each file is
    /// read again just before it is replaced: one that changed since the check read it (an
    /// author saved it meanwhile) is left as it is now, and reported. A file that cannot be
    /// written, or that changed, becomes an error, and its scenarios count as failed.
    func write(rewritesOf report: CheckReport) -> CheckReport {
        var report = report
        var written: [LessonRewrite] = []
        for rewrite in report.rewrites {
            let lessonStart = rewrite.updates.first.map { SourceLocation(file: $0.location.file, line: 1) }
            do {
                guard readFile(atPath: rewrite.path) == rewrite.original else {
                    report.diagnostics.append(.error(
                        .lessonChanged,
                        "the lesson changed while the check ran, so it was not updated; check it again (with --update) to update what it holds now",
                        at: lessonStart))
                    Self.fail(lesson: rewrite.lessonIndex, in: &report)
                    continue
                }
                try writeAtomically(rewrite.bytes, to: rewrite.path)
                written.append(rewrite)
            } catch {
                report.diagnostics.append(.error(.updateFailed, "cannot write the lesson: \(error)", at: lessonStart))
                Self.fail(lesson: rewrite.lessonIndex, in: &report)
            }
        }
        report.rewrites = written
        return report
    }

    /// A lesson whose update was not written: what passed only thanks to it did not pass.
    private static func fail(lesson: Int, in report: inout CheckReport) {
        for index in report.results.indices
        where report.results[index].lessonIndex == lesson && report.results[index].status == .passed {
            report.results[index].status = .failed
        }
    }

    private func siteError(_ step: PipelineStep, _ error: SiteWriteError) -> PipelineError {
        PipelineError(step, path: error.folder, status: .siteNotWritten,
                      diagnostic: .error(.siteNotWritten, error.description, at: nil))
    }
}
