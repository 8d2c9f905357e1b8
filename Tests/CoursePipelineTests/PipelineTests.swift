import CourseFiles
import CourseModel
@testable import CoursePipeline
import Foundation
import TestSupport
import Testing

/// The pipeline's steps, through the library: what each command parses, and how each step's
/// failure names itself.
struct PipelineTests {
    /// A copy of a fixture with a cache of its own.
    func options(_ fixture: String, cache: URL) -> SharedOptions {
        var options = SharedOptions()
        options.course = fixtures.appendingPathComponent(fixture).path
        options.cache = .folder(cache.path)
        return options
    }

    /// A build with no `--out` is wrong usage, not a site written into "" (a new lesson with
    /// no title: `NewLessonUsageTests`).
    @Test func whatIsNotGivenIsNil() throws {
        #expect(BuildCommandOptions().out == nil)
        // A course that is not there: whatever goes wrong, nothing is written anywhere.
        let root = temporaryFolder("pipeline-not-given")
        defer { try? FileManager.default.removeItem(at: root) }
        let nowhere = root.appendingPathComponent("no-course").path
        var build = BuildCommandOptions()
        build.shared.course = nowhere
        #expect {
            try Pipeline().build(build)
        } throws: { error in
            (error as? PipelineError)?.status == .usage
                && (error as? PipelineError)?.diagnostic.summary == "'--out DIR' is required: the folder to write the site into"
        }
    }

    /// A cache folder that is a symbolic link is not used, and the check says why (what the
    /// runner's store found, not a store made again to ask).
    @Test func aCacheThatIsALinkIsNotUsedAndTheCheckSaysWhy() throws {
        let root = temporaryFolder("pipeline-cache-link")
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real"), link = root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        var check = CheckCommandOptions()
        check.shared = options("passing", cache: link)
        let checked = try Pipeline().check(check)
        #expect(checked.cache.problem == "\(link.path) is not a folder (a symbolic link?); the cache is not used")
        #expect(checked.cache.used)

        check.shared = options("passing", cache: real)
        #expect(try Pipeline().check(check).cache.problem == nil)
    }

    /// A cache whose results cannot be written (here a folder stands at each result's name;
    /// a full disk is the same to it): the check goes on and says so, once.
    @Test func aCacheThatCannotBeWrittenIsSaid() throws {
        let cache = temporaryFolder("pipeline-cache-unwritable")
        defer { try? FileManager.default.removeItem(at: cache) }
        var check = CheckCommandOptions()
        check.shared = options("passing", cache: cache)
        #expect(try Pipeline().check(check).cache.problem == nil)
        // The results, and the pack that holds them all for a warm check.
        let results = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".out") || $0 == "outputs.pack" }
        #expect(results.count == 3, "\(results)")
        for name in results {
            let path = cache.appendingPathComponent(name)
            try FileManager.default.removeItem(at: path)
            try FileManager.default.createDirectory(at: path.appendingPathComponent("inside"), withIntermediateDirectories: true)
        }
        let checked = try Pipeline().check(check)
        #expect(checked.report.succeeded)
        #expect(checked.cache.problem == "the cache cannot be written (cannot write in \(cache.path): Is a directory): what this check found is not kept, and the next check does it again",
                "\(checked.cache.problem ?? "none")")
    }

    /// The cache every course shares (the Swift readings; the compiler's plans, held by
    /// `CompilePlanTests`) that cannot be written: the check goes on and says so; the course's
    /// own cache, written, is said first when it cannot be.
    @Test func aSharedCacheThatCannotBeWrittenIsSaid() throws {
        let root = temporaryFolder("pipeline-shared-unwritable")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data().write(to: root.appendingPathComponent("file"))
        let shared = root.appendingPathComponent("file/readings").path
        var check = CheckCommandOptions()
        check.shared = options("passing", cache: root.appendingPathComponent("cache"))
        let checked = try Pipeline(sharedReadings: shared).check(check)
        #expect(checked.report.succeeded)
        let problem = try #require(checked.cache.problem)
        #expect(problem == "the cache every course shares cannot be written (cannot make \(shared): Not a directory): the Swift this check read and the compiles it planned are not kept for other checks, which do them again", "\(problem)")
        #expect(try Pipeline(sharedReadings: root.appendingPathComponent("readings").path).check(check).cache.problem == nil)

        let course = ContentStore(folder: root.appendingPathComponent("course").path)
        course.write([("k", [1])], suffix: "out")
        #expect(Pipeline.cacheProblem(results: course, readings: ("course readings", "shared readings"), plans: "plans")
                == "the cache cannot be written (course readings): what this check found is not kept, and the next check does it again")
        #expect(Pipeline.cacheProblem(results: course, readings: (nil, nil), plans: "plans")?.hasPrefix("the cache every course shares cannot be written (plans)") == true)
        #expect(Pipeline.cacheProblem(results: nil, readings: (nil, nil), plans: nil) == nil)
    }

    @Test func aCheckParsesEachLessonOnceAndAWarmCheckParsesNoSwift() throws {
        let cache = temporaryFolder("pipeline-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        var check = CheckCommandOptions()
        check.shared = options("site", cache: cache)

        let cold = Pipeline()
        #expect(try cold.check(check).report.succeeded)
        #expect(cold.counts.markdownParses.load(ordering: .relaxed) == 2)
        #expect(cold.counts.swiftParses.load(ordering: .relaxed) > 0)

        let warm = Pipeline()
        let report = try warm.check(check).report
        #expect(report.succeeded && report.compiledCount == 0)
        #expect(warm.counts.markdownParses.load(ordering: .relaxed) == 2)
        #expect(warm.counts.swiftParses.load(ordering: .relaxed) == 0)
    }

    /// Programs that do not compile (alone, and blamed in a batch) are not compiled again by a
    /// warm check, whose findings are the cold one's.
    @Test func aWarmCheckCompilesNoProgramThatFailedAndFindsTheSame() throws {
        for fixture in ["compile-error", "swift-book-broken"] {
            let cache = temporaryFolder("failure-cache")
            defer { try? FileManager.default.removeItem(at: cache) }
            var check = CheckCommandOptions()
            check.shared = options(fixture, cache: cache)
            let cold = try Pipeline().check(check).report
            #expect(!cold.succeeded && cold.compilerRuns > 0)
            let warm = try Pipeline().check(check).report
            #expect(warm.compilerRuns == 0 && warm.compiledCount == 0, "\(fixture)")
            #expect(warm.diagnostics == cold.diagnostics, "\(fixture)")
            #expect(warm.results.map(\.findings) == cold.results.map(\.findings), "\(fixture)")
            #expect(warm.results.map(\.status) == cold.results.map(\.status), "\(fixture)")
        }
    }

    /// A cold check compiles the batch while it reads the scenarios' shapes, on a guess that
    /// the shapes then confirm: the batching fixture's tricky scenarios (a program of its own for
    /// many of them, one that does not parse) are guessed right and one compile serves. What it
    /// finds is what a check that waits for the shapes (a single shard) finds.
    @Test func aColdCheckCompilesTheBatchWhileItReadsTheShapes() throws {
        var check = CheckCommandOptions()
        check.shared.course = fixtures.appendingPathComponent("batching").path
        check.shared.cache = .none
        let ahead = Pipeline()
        let guessed = try ahead.check(check).report
        #expect(ahead.counts.batchesAheadUsed.load(ordering: .relaxed) == 1)
        #expect(ahead.counts.batchesAheadDropped.load(ordering: .relaxed) == 0)

        check.shard = Shard(index: 1, count: 1)
        let waiting = Pipeline()
        let waited = try waiting.check(check).report
        #expect(waiting.counts.batchesAheadUsed.load(ordering: .relaxed) == 0)
        #expect(guessed.results.count == 52)
        #expect(guessed.results.map(\.status) == waited.results.map(\.status))
        // The same endings and outputs (a crash's stack trace holds addresses of its own).
        for (left, right) in zip(guessed.results, waited.results) {
            guard let left = left.outcome, let right = right.outcome else {
                #expect(left.outcome == nil && right.outcome == nil)
                continue
            }
            #expect(DifferentialTests.same(left, right), "\(left) vs \(right)")
        }
        #expect(guessed.diagnostics == waited.diagnostics)
    }

    @Test func aBuildParsesEachLessonOnceAndARebuildParsesNoSwift() throws {
        let root = temporaryFolder("pipeline-build")
        defer { try? FileManager.default.removeItem(at: root) }
        var build = BuildCommandOptions()
        build.shared = options("site", cache: root.appendingPathComponent("cache"))
        build.out = root.appendingPathComponent("site").path
        build.search = false

        let first = Pipeline()
        let built = try first.build(build)
        // Two lessons, the index, the limitations page, the whole course; the stylesheet and
        // the part sheets they link (the index's, the limitations page's, the diagrams', and
        // the tables' for the first lesson's table).
        #expect(built.pages == 5 && built.assets == 5 && built.searchPages == nil)
        // The check and the pages use the same document: one parse per lesson.
        #expect(first.counts.markdownParses.load(ordering: .relaxed) == 2)
        #expect(first.counts.swiftParses.load(ordering: .relaxed) > 0)

        let again = Pipeline()
        _ = try again.build(build)
        #expect(again.counts.markdownParses.load(ordering: .relaxed) == 2)
        #expect(again.counts.swiftParses.load(ordering: .relaxed) == 0)
    }

    /// A warning of the prepare step goes through the check's report, so `--strict` stops the
    /// build on it like on any other warning.
    @Test func strictStopsABuildOnAWarningOfThePrepareStep() throws {
        let root = temporaryFolder("pipeline-strict")
        defer { try? FileManager.default.removeItem(at: root) }
        var build = BuildCommandOptions()
        build.shared = options("custom-templates", cache: root.appendingPathComponent("cache"))
        build.out = root.appendingPathComponent("site").path

        let relaxed = try Pipeline().build(build)
        #expect(relaxed.checked.report.diagnostics.map(\.id) == [.languageWords])
        #expect(relaxed.checked.report.warningCount == 1)

        build.shared.strict = true
        build.out = root.appendingPathComponent("strict-site").path
        #expect {
            try Pipeline().build(build)
        } throws: { error in
            guard let error = error as? PipelineError else { return false }
            return error.step == .judge && error.status == .checkFailed
                && error.checked?.report.diagnostics.map(\.id) == [.languageWords]
                && error.checked?.report.errorCount == 1
        }
        #expect(!FileManager.default.fileExists(atPath: build.out!))
    }

    @Test func eachFailureNamesItsStepPathAndStatus() throws {
        let root = temporaryFolder("pipeline-errors")
        defer { try? FileManager.default.removeItem(at: root) }
        func failure(_ fixture: String, out: String) -> PipelineError? {
            var build = BuildCommandOptions()
            build.shared = options(fixture, cache: root.appendingPathComponent("cache"))
            build.out = out
            do {
                _ = try Pipeline().build(build)
                return nil
            } catch {
                return error
            }
        }
        let unreadable = try #require(failure("no-course-json", out: root.appendingPathComponent("a").path))
        #expect(unreadable.step == .read && unreadable.status == .courseUnreadable)
        #expect(unreadable.path?.hasSuffix("no-course-json/course.json") == true)

        let template = try #require(failure("bad-template", out: root.appendingPathComponent("b").path))
        #expect(template.step == .read && template.status == .templateInvalid)
        #expect(template.path?.hasSuffix("templates/lesson.html") == true)

        let course = fixtures.appendingPathComponent("passing").path
        let destination = try #require(failure("passing", out: course))
        #expect(destination.step == .read && destination.status == .siteNotWritten && destination.path == course)

        let failed = try #require(failure("output-mismatch", out: root.appendingPathComponent("c").path))
        #expect(failed.step == .judge && failed.status == .checkFailed)
        #expect(failed.checked?.report.failed == 1)
    }

    @Test func updateWritesTheLessonsTheCheckRewrote() throws {
        let folder = temporaryFolder("pipeline-update")
        defer { try? FileManager.default.removeItem(at: folder) }
        let course = folder.appendingPathComponent("update")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("update"), to: course)
        try giveInvalidationCore(to: course)
        var check = CheckCommandOptions()
        check.shared.course = course.path
        check.shared.cache = .none
        check.update = true
        let updated = try Pipeline().check(check).report
        #expect(!updated.updates.isEmpty)
        check.update = false
        #expect(try Pipeline().check(check).report.succeeded)
    }

    /// An author saves a lesson while `--update` runs: that lesson keeps the author's bytes and
    /// is reported; the other lesson is updated.
    @Test func updateLeavesALessonEditedDuringTheCheckAlone() throws {
        let course = temporaryFolder("pipeline-edited")
        defer { try? FileManager.default.removeItem(at: course) }
        try Data(#"{ "title": "T", "language": "en", "limitNotes": "optional" }"#.utf8)
            .write(to: course.appendingPathComponent("course.json"))
        let text = "# A\n\n```swift scenario\nprint(\"new\")\n```\n\n```output\nold\n```\n"
        for name in ["01-a.md", "02-b.md"] {
            try Data(text.utf8).write(to: course.appendingPathComponent(name))
        }
        var options = SharedOptions()
        options.course = course.path
        options.cache = .none
        let pipeline = Pipeline()
        var context = PipelineContext(.check, options: options)
        context.update = true
        try pipeline.run([.read, .run], &context)
        // Judged without writing: both lessons would be rewritten, and pass.
        context.writes = false
        try pipeline.run([.judge], &context)
        let planned = try #require(context.checked).report
        #expect(planned.rewrites.count == 2 && planned.succeeded)

        // Saved by the author after the check read it, before the update is written.
        let edited = text + "\nA paragraph the author just wrote.\n"
        try Data(edited.utf8).write(to: course.appendingPathComponent("01-a.md"))
        context.writes = true
        try pipeline.run([.judge], &context)
        let report = try #require(context.checked).report

        #expect(try String(contentsOf: course.appendingPathComponent("01-a.md"), encoding: .utf8) == edited)
        #expect(try String(contentsOf: course.appendingPathComponent("02-b.md"), encoding: .utf8)
                == text.replacingOccurrences(of: "old", with: "new"))
        #expect(report.diagnostics.map(\.id) == [.lessonChanged])
        #expect(report.diagnostics.first?.location == SourceLocation(file: course.path + "/01-a.md", line: 1))
        #expect(report.updates.map(\.location.file) == [course.path + "/02-b.md"])
        #expect(!report.succeeded && report.failed == 1 && report.passed == 1)
    }

    /// A file a lesson links to is copied into the site at its path; one where the site keeps a
    /// file of its own is left out, with a warning at the link.
    @Test func linkedFilesTravelWithTheSite() throws {
        let root = temporaryFolder("pipeline-linked")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: course.appendingPathComponent("img"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: course.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try Data(#"{ "title": "T", "language": "en" }"#.utf8).write(to: course.appendingPathComponent("course.json"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: course.appendingPathComponent("img/plan.png"))
        try Data("body {}".utf8).write(to: course.appendingPathComponent("assets/style.css"))
        try Data("# A\n\n![plan](img/plan.png) [styles](assets/style.css) [again](img/plan.png)\n".utf8)
            .write(to: course.appendingPathComponent("01-a.md"))
        var build = BuildCommandOptions()
        build.shared.course = course.path
        build.shared.cache = .none
        build.out = root.appendingPathComponent("site").path

        let built = try Pipeline().build(build)
        #expect(built.linkedFiles == 1)
        #expect(FileManager.default.contents(atPath: build.out! + "/img/plan.png") == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(FileManager.default.contents(atPath: build.out! + "/assets/style.css") != Data("body {}".utf8))
        let warnings = built.checked.report.diagnostics
        #expect(warnings.map(\.id) == [.linkTargetReserved])
        #expect(warnings.first?.location == SourceLocation(file: course.path + "/01-a.md", line: 3, column: 23))
    }

    /// A core function whose default argument is `#line` takes the caller's line: the line of
    /// main.swift, so with such a core every scenario is a program of its own.
    @Test func aCoreThatTakesTheCallersPlaceRunsEveryScenarioAlone() throws {
        let course = temporaryFolder("pipeline-places")
        defer { try? FileManager.default.removeItem(at: course) }
        try Data(#"{ "title": "T", "language": "en", "core": ["Log.swift"], "limitNotes": "optional" }"#.utf8)
            .write(to: course.appendingPathComponent("course.json"))
        try Data("func here(line: Int = #line) -> Int { line }\n".utf8).write(to: course.appendingPathComponent("Log.swift"))
        let scenario = "```swift scenario\nprint(here())\n```\n\n```output\n1\n```\n\n"
        try Data(("# A\n\n" + scenario + scenario).utf8).write(to: course.appendingPathComponent("01-a.md"))
        var check = CheckCommandOptions()
        check.shared.course = course.path
        check.shared.cache = .none
        let report = try Pipeline().check(check).report
        #expect(report.succeeded, "\(report.diagnostics)")
        #expect(report.compilerRuns == 2)
    }
}
