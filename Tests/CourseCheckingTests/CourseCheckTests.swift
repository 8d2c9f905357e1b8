@testable import CourseChecking
import CourseModel
import Foundation
import TestSupport
import Testing

/// Outcomes from a table of code to outcome, for checking without compiling.
struct TableRunner {
    var outcomes: [String: ScenarioOutcome]
}

extension CourseCheck {
    /// The check of a course whose scenarios ended as the table says.
    static func run(_ course: Course, loadDiagnostics: [Diagnostic], options: CheckOptions,
                    runner: TableRunner, facts: CourseFacts? = nil) -> CheckReport {
        var outcomes: [ScenarioPlace: ScenarioOutcome] = [:]
        for (place, source) in scenariosToRun(course) {
            // A scenario the table does not know is a mistake in the test, never a run that
            // printed nothing and passed.
            guard let outcome = runner.outcomes[source.code] else {
                Issue.record("the table has no outcome for the scenario at line \(source.firstLine):\n\(source.code)")
                outcomes[place] = .crashed(.exited(99), output: "", standardError: "not in the test's table")
                continue
            }
            outcomes[place] = outcome
        }
        let run = RunReport(outcomes: Array(outcomes.values), compiledCount: outcomes.count, cachedCount: 0,
                            compilerRuns: 1, diagnostics: [])
        return report(course, findings: loadDiagnostics, facts: facts ?? CourseFacts(course), outcomes: outcomes, run: run,
                      compilerVersion: "Swift version 0.0", options: options)
    }
}

struct CourseCheckTests {
    static let text = """
        # Lesson

        ## Measured

        ```swift scenario
        print("a")
        ```

        ```output
        a
        ```

        DR1. Limit.

        ```swift scenario
        print("b")
        ```

        ```output
        expected b
        ```

        ```swift scenario skip
        print("c")
        ```

        ```swift scenario
        crash()
        ```

        ```output
        ```

        """

    let runner = TableRunner(outcomes: [
        "print(\"a\")\n": .completed(output: "a", standardError: "", fromCache: false),
        "print(\"b\")\n": .completed(output: "b\n", standardError: "", fromCache: false),
        "crash()\n": .crashed(.signaled(4), output: "partial\n", standardError: "Fatal error: boom\n"),
    ])

    @Test func comparesAndCounts() {
        let (read, found) = course([Self.text])
        let report = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: runner)
        #expect(report.results.map(\.status) == [.passed, .failed, .skipped, .failed])
        #expect(report.summaryLine == "1 passed, 2 failed, 1 skipped")
        #expect(report.diagnostics.ids == ["output-mismatch", "scenario-crashed"])
        #expect(report.diagnostics[0].location?.line == 20)
        #expect(report.diagnostics[0].summary == "output of the scenario at line 15 differs from its 'output' block at line 19")
        #expect(report.diagnostics[0].attachment == "--- expected (lessons/01-lesson.md:19)\n+++ actual\n@@ -1 +1 @@\n-expected b\n+b\n")
        #expect(report.diagnostics[1].summary == "scenario crashed: signal 4 (SIGILL: a Swift trap)")
        #expect(report.diagnostics[1].attachment == "standard output:\n    partial\nstandard error:\n    Fatal error: boom")
        #expect(!report.succeeded)
    }

    /// A time limit is said as it was given, never rounded to "0 s".
    @Test(arguments: [(Duration.seconds(10), "10 s"), (.milliseconds(1500), "1.5 s"), (.milliseconds(250), "0.25 s"),
                      (.milliseconds(1), "0.001 s"), (.microseconds(100), "less than 0.001 s")])
    func timeLimitsInWords(duration: Duration, words: String) {
        #expect(seconds(duration) == words)
    }

    @Test func onlyAFinalNewlineDifferenceIsIgnored() {
        let text = "# L\n\n```swift scenario\nx\n```\n\n```output\na\n\n```\n\nDR1. n\n"
        let (read, found) = course([text])
        let trailing = TableRunner(outcomes: ["x\n": .completed(output: "a\n", standardError: "", fromCache: false)])
        #expect(CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: trailing).failed == 1)
        let same = TableRunner(outcomes: ["x\n": .completed(output: "a\n\n", standardError: "", fromCache: false)])
        #expect(CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: same).passed == 1)
    }

    /// Exact means byte for byte: two spellings of "é" that Unicode calls equal are not.
    @Test func outputsCompareByteForByte() {
        let text = "# L\n\n```swift scenario\nx\n```\n\n```output\ncaf\u{E9}\n```\n\nDR1. n\n"
        let (read, found) = course([text])
        let decomposed = TableRunner(outcomes: ["x\n": .completed(output: "cafe\u{301}\n", standardError: "", fromCache: false)])
        #expect(CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: decomposed).failed == 1)
        let same = TableRunner(outcomes: ["x\n": .completed(output: "caf\u{E9}", standardError: "", fromCache: false)])
        #expect(CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: same).passed == 1)
    }

    @Test func strictMakesWarningsErrors() {
        let text = "# L\n\n## S\n\n```swift scenario\nx\n```\n\n```output\n```\n"
        let (read, found) = course([text])
        let runner = TableRunner(outcomes: ["x\n": .completed(output: "", standardError: "", fromCache: false)])
        let relaxed = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: runner)
        #expect(relaxed.succeeded && relaxed.warningCount == 1)
        let strict = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(strict: true), runner: runner)
        #expect(!strict.succeeded && strict.errorCount == 1)
    }

    /// Lessons are judged on every core and put together in course order: each verdict stays
    /// with its own scenario and lesson.
    @Test func lessonsJudgedAtOnceComeTogetherInCourseOrder() {
        let texts = (1...9).map { number in
            "# L\n\n```swift scenario\nfirst(\(number))\n```\n\n```output\n\(number)\n```\n\nDR1. n\n\n"
                + "```swift scenario\nsecond(\(number))\n```\n\n```output\nsecond\n```\n\n```swift core\nstruct Other\(number) {}\n```\n"
        }
        let (read, found) = course(texts)
        var outcomes: [String: ScenarioOutcome] = [:]
        for number in 1...9 {
            outcomes["first(\(number))\n"] = .completed(output: number % 3 == 0 ? "other\n" : "\(number)\n", standardError: "", fromCache: false)
            outcomes["second(\(number))\n"] = .completed(output: number % 2 == 0 ? "second\n" : "\(number)\n", standardError: "", fromCache: false)
        }
        let report = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: TableRunner(outcomes: outcomes))
        #expect(report.results.map(\.lessonIndex) == (0..<9).flatMap { [$0, $0] })
        #expect(report.results.map(\.status) == (1...9).flatMap { number -> [ScenarioResult.Status] in
            [number % 3 == 0 ? .failed : .passed, number % 2 == 0 ? .passed : .failed]
        })
        let mismatches = report.diagnostics.filter { $0.id == .outputMismatch }
        #expect(mismatches.map { $0.location?.file ?? "" } == (1...9).flatMap { number -> [String] in
            Array(repeating: "lessons/0\(number)-lesson.md", count: (number % 3 == 0 ? 1 : 0) + (number % 2 == 0 ? 0 : 1))
        })
        #expect(mismatches.compactMap(\.attachment).map { $0.split(separator: "\n").last.map(String.init) ?? "" }
                == (1...9).flatMap { number -> [String] in (number % 3 == 0 ? ["+other"] : []) + (number % 2 == 0 ? [] : ["+\(number)"]) })
        #expect(report.diagnostics.filter { $0.id == .coreListingDrift }.map { $0.location?.file ?? "" }
                == (1...9).map { "lessons/0\($0)-lesson.md" })
    }

    @Test func coreListingDrift() {
        let text = "# L\n\n```swift core\nstruct Other {}\n```\n"
        let (read, found) = course([text])
        let report = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(), runner: TableRunner(outcomes: [:]))
        #expect(report.diagnostics.ids == ["core-listing-drift"])
        #expect(report.summaryLine == "0 passed, 0 failed")
        #expect(!report.succeeded)
    }

    @Test func updatePlansTheLessonsRewrite() throws {
        var (read, found) = course([Self.text + "```swift core\nold\n```\n\n```swift scenario\nprint(\"new\")\n```\n"])
        read.folderPath = "/somewhere"
        let runner = TableRunner(outcomes: [
            "print(\"a\")\n": .completed(output: "a", standardError: "", fromCache: false),
            "print(\"b\")\n": .completed(output: "b\n", standardError: "", fromCache: false),
            "print(\"new\")\n": .completed(output: "new\n", standardError: "", fromCache: false),
            "crash()\n": .crashed(.signaled(4), output: "", standardError: "Fatal error"),
        ])
        let report = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(update: true), runner: runner)
        // The check only plans the rewrite; writing it is a step of the pipeline.
        #expect(report.rewrites.map(\.path) == ["/somewhere/01-lesson.md"])
        #expect(report.updates.map(\.summary) == [
            "updated the output block of the scenario at line 15",
            "updated the core listing from Sources/Core.swift",
            "inserted an output block for the scenario at line 37",
        ])
        #expect(report.updates.map(\.location.line) == [19, 33, 41])
        #expect(report.results.map(\.status) == [.passed, .passed, .skipped, .failed, .passed])
        let written = String(decoding: report.rewrites[0].bytes, as: UTF8.self)
        #expect(written.contains("```output\nb\n```"))
        #expect(written.contains("```swift core\nstruct Core {}\n```"))
        #expect(written.hasSuffix("```swift scenario\nprint(\"new\")\n```\n\n```output\nnew\n```\n"))
        // The crashed scenario keeps its block: `--update` writes only what ran to its end.
        #expect(written.contains("crash()\n```\n\n```output\n```"))
    }
}

/// Illustrations are judged from what the Swift reader found, placed at the lesson's line and
/// column.
struct IllustrationFindingsTests {
    @Test func aProblemIsAWarningAtTheLessonLineAndColumn() {
        let (read, found) = course(["# T\n\n  ```swift\n  let x = (1, \n  struct {}\n  ```\n"])
        var facts = CourseFacts(read)
        facts[0, 0] = SwiftBlockFacts(findings: [SyntaxFinding(line: 2, column: 1, message: "expected ')'")],
                                      shape: .batchable, highlighted: nil)
        let report = CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(),
                                     runner: TableRunner(outcomes: [:]), facts: facts)
        #expect(report.diagnostics.ids == ["illustration-syntax"])
        #expect(report.diagnostics[0].severity == .warning)
        #expect(report.diagnostics[0].summary == "illustration is not valid Swift: expected ')'")
        #expect(report.diagnostics[0].location == SourceLocation(file: "lessons/01-lesson.md", line: 5, column: 3))
    }
}
