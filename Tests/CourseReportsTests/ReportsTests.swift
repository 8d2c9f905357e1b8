import CourseModel
@testable import CourseReports
import Foundation
import TestSupport
import Testing

/// A small report: two lessons, three scenarios (one failed, one skipped), a course-wide error.
func sampleDocument(shard: Shard? = nil, scenarios: [ReportDocument.ScenarioEntry]? = nil,
                    diagnostics: [ReportDocument.Finding]? = nil) -> ReportDocument {
    let mismatch = ReportDocument.Finding(.error(.outputMismatch, "output of the scenario at line 3 differs",
                                                 at: SourceLocation(file: "c/01-a.md", line: 8, column: 1),
                                                 attachment: "--- expected\n+++ actual\n-1\n+2\n"))
    let gap = ReportDocument.Finding(.error(.limitNoteGap, "DR3 follows DR1: DR2 is missing",
                                            at: SourceLocation(file: "c/02-b.md", line: 5, column: 1)))
    let all = scenarios ?? [
        .init(file: "c/01-a.md", line: 3, caption: "the first", status: "failed", expectation: "output", expected: "1\n", actual: "2\n",
              duration: 0.0125, cached: false, findings: [mismatch]),
        .init(file: "c/02-b.md", line: 3, caption: nil, status: "passed", expectation: "output", expected: "x\n", actual: "x\n",
              duration: 0, cached: true, findings: []),
        .init(file: "c/02-b.md", line: 9, caption: "shown \"only\"", status: "skipped", expectation: "output", expected: nil, actual: nil,
              duration: 0, cached: false, findings: []),
    ]
    let findings = diagnostics ?? [mismatch, gap]
    return ReportDocument(
        format: ReportDocument.formatName, version: ReportDocument.currentVersion, tool: "0.1.0", compiler: "Swift version 6.3.1", course: "c",
        title: "A <Course> & more", files: ["c/course.json", "c/01-a.md", "c/02-b.md"],
        scope: .init(lessons: nil, shard: shard), succeeded: false,
        summary: .init(passed: 1, failed: 1, skipped: 1, errors: 2, warnings: 0, notes: 0, compiled: 1, cached: 1, compilerRuns: 1),
        scenarios: all, diagnostics: findings)
}

struct ReportDocumentTests {
    /// Every key is written, `null` where there is nothing, and the document reads back equal.
    @Test func jsonHasEveryKeyAndReadsBack() throws {
        let document = sampleDocument(shard: Shard(index: 2, count: 3))
        let bytes = document.json()
        #expect(bytes.last == UInt8(ascii: "\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let scenario = try #require((object["scenarios"] as? [[String: Any]])?[2])
        #expect(Set(scenario.keys) == ["file", "line", "caption", "status", "expectation", "expected", "actual", "output",
                                       "unordered", "duration", "cached", "findings"])
        #expect(scenario["unordered"] as? Bool == false)
        #expect(scenario["output"] is NSNull && scenario["expectation"] as? String == "output")
        #expect(scenario["expected"] is NSNull && scenario["actual"] is NSNull)
        #expect((object["scope"] as? [String: Any])?["shard"] as? String == "2/3")
        #expect((object["scope"] as? [String: Any])?["lessons"] is NSNull)
        let finding = try #require((object["diagnostics"] as? [[String: Any]])?[1])
        #expect(Set(finding.keys) == ["file", "line", "column", "severity", "id", "message", "notes", "details"])
        #expect(finding["details"] is NSNull)
        #expect(try ReportDocument.read(bytes) == document)
    }

    @Test func aFileThatIsNotAReportSaysWhy() {
        func reason(_ text: String) -> String? {
            do { _ = try ReportDocument.read(Array(text.utf8)); return nil } catch { return error.reason }
        }
        #expect(reason("[") == "not a coursebook JSON report (invalid JSON)")
        #expect(reason("{}") == "not a coursebook JSON report (no 'format')")
        var other = sampleDocument()
        other.format = "junit"
        #expect(reason(String(decoding: other.json(), as: UTF8.self)) == "not a coursebook JSON report (its format is 'junit')")
        other = sampleDocument()
        other.version = 1
        #expect(reason(String(decoding: other.json(), as: UTF8.self)) == "a report of version 1; this coursebook reads version 2")
        let badShard = String(decoding: sampleDocument().json(), as: UTF8.self)
            .replacingOccurrences(of: "\"shard\" : null", with: "\"shard\" : \"3/2\"")
        #expect(reason(badShard)?.hasPrefix("not a coursebook JSON report") == true)
    }

    /// A finding goes to JSON and comes back as the same diagnostic; a whole-file finding has
    /// no line.
    @Test func findingsRoundTrip() {
        let diagnostic = Diagnostic.warning(.limitNoteUnknown, "DR9 is mentioned", at: SourceLocation(file: "c/01-a.md", line: 4, column: 7),
                                            notes: [.init("see here", at: SourceLocation(file: "c/02-b.md", line: 2, column: 1))])
        #expect(ReportDocument.Finding(diagnostic).diagnostic == diagnostic)
        let whole = ReportDocument.Finding(.error(.courseUnreadable, "not UTF-8", at: SourceLocation(file: "c/01-a.md", line: 0)))
        #expect(whole.line == nil && whole.column == nil && whole.file == "c/01-a.md")
    }

    @Test func reportKindsAndStyles() {
        #expect(ReportKind(path: "out/junit.XML") == .junit)
        #expect(ReportKind(path: "result.json") == .json)
        #expect(ReportKind(path: "result.txt") == nil)
        #expect(ReportKind(path: "json") == nil)
        #expect(DiagnosticStyle.resolve(nil, environment: [:]) == .text)
        #expect(DiagnosticStyle.resolve(nil, environment: ["GITHUB_ACTIONS": "true"]) == .github)
        #expect(DiagnosticStyle.resolve(nil, environment: ["GITHUB_ACTIONS": "false"]) == .text)
        #expect(DiagnosticStyle.resolve(.text, environment: ["GITHUB_ACTIONS": "true"]) == .text)
    }
}

/// What a report says of a scenario that must not compile and of one that must trap.
struct ExpectationReportTests {
    static let text = """
        # L

        ```swift scenario
        let x = 1
        x = 2
        ```

        ```errors
        2: error: cannot assign
        ```

        ```swift scenario
        print([1][3])
        ```

        ```output
        ```

        ```trap
        Fatal error: Index out of range
        ```

        """

    func document(_ outcomes: [ScenarioOutcome]) -> ReportDocument {
        let (read, _) = course([Self.text])
        let results = zip(read.lessons[0].scenarios, outcomes).map { scenario, outcome in
            ScenarioResult(lessonIndex: 0, scenario: scenario, status: .passed, outcome: outcome)
        }
        let report = CheckReport(diagnostics: [], results: results, rewrites: [], compiledCount: 2, cachedCount: 0,
                                 compilerRuns: 2, compilerVersion: "Swift version 6.3.1")
        return ReportDocument(course: read, report: report)
    }

    @Test func theCompilersErrorsAndTheTrapsMessageAreActual() {
        let made = document([
            .typeChecked(TypeCheck(errors: [CompilerError(line: 2, column: 1, message: "cannot assign")]), fromCache: true),
            .crashed(.signaled(4), output: "", standardError: "Swift/Array.swift:1: Fatal error: Index out of range\n"),
        ])
        #expect(made.scenarios.map(\.expectation) == ["errors", "trap"])
        #expect(made.scenarios[0].expected == "2: error: cannot assign\n" && made.scenarios[0].actual == "2:1: error: cannot assign\n")
        #expect(made.scenarios[0].output == nil && made.scenarios[0].cached)
        #expect(made.scenarios[1].expected == "Fatal error: Index out of range\n" && made.scenarios[1].actual == "Fatal error: Index out of range")
        #expect(made.scenarios[1].output == ReportDocument.OutputPair(expected: "", actual: ""))
    }

    /// A scenario that did not come to what it was expected to do has no actual: one that
    /// compiled has no errors (empty), one that did not trap no message.
    @Test func whatDidNotHappenIsNull() {
        let made = document([.typeChecked(TypeCheck(errors: []), fromCache: false),
                             .completed(output: "x\n", standardError: "", fromCache: false)])
        #expect(made.scenarios[0].actual == "")
        #expect(made.scenarios[1].actual == nil && made.scenarios[1].output?.actual == "x\n")
        let junit = JUnitReport.xml(made)
        #expect(junit.contains("(line 3, must not compile)") && junit.contains("(line 12, must trap)"))
        #expect(junit.contains("<system-out>expected: it prints\n    (nothing)\nthen traps with\n    Fatal error: Index out of range</system-out>"))
    }
}

struct JUnitReportTests {
    /// One suite per lesson with its scenarios, the course-wide finding as a failed case of
    /// its file, text escaped for XML.
    @Test func suitesCasesAndEscaping() {
        let xml = JUnitReport.xml(sampleDocument())
        #expect(xml.hasPrefix("""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="A &lt;Course&gt; &amp; more" tests="4" failures="2" errors="0" time="0.013">
              <testsuite name="c/01-a.md" id="0" tests="1" failures="1" errors="0" skipped="0" time="0.013">
                <testcase name="01-a: the first (line 3)" classname="c/01-a.md" file="c/01-a.md" line="3" time="0.013"><failure message="output of the scenario at line 3 differs" type="output-mismatch">c/01-a.md:8:1: error: output of the scenario at line 3 differs
            --- expected
            +++ actual
            -1
            +2</failure></testcase>
              </testsuite>
              <testsuite name="c/02-b.md" id="1" tests="3" failures="1" errors="0" skipped="1" time="0.000">
                <testcase name="02-b: scenario (line 3)" classname="c/02-b.md" file="c/02-b.md" line="3" time="0.000"/>
                <testcase name="02-b: shown &quot;only&quot; (line 9)" classname="c/02-b.md" file="c/02-b.md" line="9" time="0.000"><skipped message="swift scenario skip: shown, not run"/></testcase>
                <testcase name="02-b: rules of the file" classname="c/02-b.md" file="c/02-b.md" time="0.000"><failure message="DR3 follows DR1: DR2 is missing" type="limit-note-gap">c/02-b.md:5:1: error: DR3 follows DR1: DR2 is missing</failure></testcase>
              </testsuite>
            </testsuites>

            """), "\(xml)")
    }

    /// Characters XML 1.0 cannot hold are shown as `<U+…>`; quotes and line ends in an
    /// attribute are references.
    @Test func textThatXMLCannotHold() {
        #expect(JUnitReport.text("a\u{1B}[31m<b>\u{0}") == "a&lt;U+001B&gt;[31m&lt;b&gt;&lt;U+0000&gt;")
        // U+FFFE and U+FFFF are no XML characters: their tokens are text, not markup.
        #expect(JUnitReport.text("\u{FFFE}\u{FFFF}]]>\u{202E}\r") == "&lt;U+FFFE&gt;&lt;U+FFFF&gt;]]&gt;&lt;U+202E&gt;&lt;U+000D&gt;")
        #expect(JUnitReport.attribute("\u{FFFF}\u{1}") == "&lt;U+FFFF&gt;&lt;U+0001&gt;")
        // What XML 1.0 holds passes: a supplementary character, one after U+D7FF, U+FFFD.
        #expect(JUnitReport.text("😀\u{E000}\u{FFFD}é") == "😀\u{E000}\u{FFFD}é")
        #expect(JUnitReport.attribute("say \"hi\"\nthen\tgo") == "say &quot;hi&quot;&#10;then&#9;go")
        #expect(JUnitReport.seconds(0) == "0.000")
        #expect(JUnitReport.seconds(1.0405) == "1.041")
        #expect(JUnitReport.seconds(12.5) == "12.500")
    }
}

struct GitHubAnnotationsTests {
    /// One line per finding, on its file, line and column; the notes and the diff in the
    /// message with encoded line ends, so nothing in it starts a command of its own.
    @Test func aFindingIsOneWorkflowCommand() {
        let diagnostic = Diagnostic.error(.outputMismatch, "50% differs: a, b", at: SourceLocation(file: "c/0,1:a.md", line: 8, column: 3),
                                          notes: [.init("expected here", at: SourceLocation(file: "c/01.md", line: 6, column: 1))],
                                          attachment: "-1\n+::error::forged\r\n")
        #expect(GitHubAnnotations.annotation(diagnostic)
            == "::error file=c/0%2C1%3Aa.md,line=8,col=3,title=coursebook%3A output-mismatch::50%25 differs: a, b%0Anote: c/01.md:6:1: expected here%0A-1%0A+::error::forged<U+000D>%0A")
        let warning = Diagnostic.warning(.illustrationSyntax, "not valid \u{1B}[2J Swift", at: SourceLocation(file: "c/a.md", line: 0))
        #expect(GitHubAnnotations.annotation(warning) == "::warning file=c/a.md,title=coursebook%3A illustration-syntax::not valid <U+001B>[2J Swift")
        let note = Diagnostic(.note, .illustrationSyntax, "left out", at: SourceLocation(file: "c/a.md", line: 3, column: 1))
        #expect(GitHubAnnotations.annotation(note) == "::notice file=c/a.md,line=3,col=1,title=coursebook%3A illustration-syntax::left out")
        let nowhere = Diagnostic.error(.toolchainUnavailable, "no swiftc", at: nil)
        #expect(GitHubAnnotations.annotation(nowhere) == "::error title=coursebook%3A toolchain-unavailable::no swiftc")
    }
}

struct ReportMergeTests {
    func shard(_ index: Int, of count: Int, _ scenarios: [ReportDocument.ScenarioEntry],
               _ findings: [ReportDocument.Finding]) -> ReportDocument {
        var document = sampleDocument(shard: Shard(index: index, count: count), scenarios: scenarios, diagnostics: findings)
        document.summary.compiled = scenarios.count
        document.summary.compilerRuns = 1
        return document
    }

    /// The shards' scenarios in course order, findings in the order check prints them, the
    /// core's errors (which every shard that compiled meets) once.
    @Test func shardsJoinInCourseOrder() throws {
        let whole = sampleDocument()
        let core = ReportDocument.Finding(.error(.coreCompileError, "core does not compile", at: SourceLocation(file: "c/course.json", line: 0)))
        let first = shard(1, of: 2, [whole.scenarios[1], whole.scenarios[2]], [whole.diagnostics[1], core])
        let second = shard(2, of: 2, [whole.scenarios[0]], [core, whole.diagnostics[0]])
        let merged = try ReportMerge.merge([("b.json", second), ("a.json", first)])
        #expect(merged.scenarios == whole.scenarios)
        #expect(merged.diagnostics == [core, whole.diagnostics[0], whole.diagnostics[1]])
        #expect(merged.scope.shard == nil)
        #expect(merged.summary == .init(passed: 1, failed: 1, skipped: 1, errors: 3, warnings: 0, notes: 0, compiled: 3, cached: 2, compilerRuns: 2))
        #expect(!merged.succeeded)
    }

    @Test func reportsThatDoNotMakeACourseAreRefused() {
        func failure(_ reports: [(String, ReportDocument)]) -> ReportMerge.Failure? {
            do { _ = try ReportMerge.merge(reports); return nil } catch { return error }
        }
        let one = shard(1, of: 2, [], [])
        let two = shard(2, of: 2, [], [])
        #expect(failure([]) == .init(file: nil, reason: "no reports to merge"))
        #expect(failure([("w.json", sampleDocument())]) == .init(file: "w.json", reason: "not the report of a shard (check --shard K/N --report FILE.json)"))
        #expect(failure([("a.json", one)]) == .init(file: nil, reason: "the shards do not make the whole course: missing 2/2"))
        #expect(failure([("a.json", one), ("b.json", one)]) == .init(file: "b.json", reason: "shard 1/2 is also a.json"))
        #expect(failure([("a.json", one), ("c.json", shard(2, of: 3, [], []))]) == .init(file: "c.json", reason: "shard 2/3 of another split than a.json (of 2)"))
        var elsewhere = two
        elsewhere.files.append("c/03-c.md")
        #expect(failure([("a.json", one), ("b.json", elsewhere)]) == .init(file: "b.json", reason: "a report of another course (or another version of it) than a.json"))
        var newer = two
        newer.compiler = "Swift version 7.0"
        #expect(failure([("a.json", one), ("b.json", newer)]) == .init(file: "b.json", reason: "made by another coursebook or compiler than a.json"))
        #expect(failure([("a.json", one), ("b.json", two)]) == nil)
    }
}

extension ReportMergeTests {
    func failure(_ reports: [(String, ReportDocument)]) -> ReportMerge.Failure? {
        do { _ = try ReportMerge.merge(reports); return nil } catch { return error }
    }

    /// The sample's scenarios: a failed one (01-a:3), a passed one (02-b:3), a skipped one.
    var failed: ReportDocument.ScenarioEntry { sampleDocument().scenarios[0] }
    var passed: ReportDocument.ScenarioEntry { sampleDocument().scenarios[1] }
    var skipped: ReportDocument.ScenarioEntry { sampleDocument().scenarios[2] }

    /// A scenario claimed by two shards, or twice by one, is refused, naming the second file.
    @Test func eachScenarioIsInOneShard() {
        #expect(failure([("a.json", shard(1, of: 2, [passed], [])), ("b.json", shard(2, of: 2, [passed], []))])
                == .init(file: "b.json", reason: "the scenario at c/02-b.md:3 is also in a.json; each scenario is in exactly one shard"))
        #expect(failure([("a.json", shard(1, of: 2, [passed, passed], [])), ("b.json", shard(2, of: 2, [failed], []))])
                == .init(file: "a.json", reason: "the scenario at c/02-b.md:3 is also in a.json; each scenario is in exactly one shard"))
    }

    /// A scenario of a lesson the course does not have (or one that is not a lesson, or one
    /// outside the lessons a `check LESSON.md` report covers) is refused.
    @Test func scenariosAreInLessonsOfTheCourse() {
        var stranger = passed
        stranger.file = "c/09-elsewhere.md"
        #expect(failure([("a.json", shard(1, of: 2, [stranger], [])), ("b.json", shard(2, of: 2, [failed], []))])
                == .init(file: "a.json", reason: "the scenario at c/09-elsewhere.md:3 is in no lesson of the report's course"))
        var config = passed
        config.file = "c/course.json"
        #expect(failure([("a.json", shard(1, of: 2, [config], [])), ("b.json", shard(2, of: 2, [failed], []))])?.reason
                == "the scenario at c/course.json:3 is in no lesson of the report's course")
        var one = shard(1, of: 2, [passed], []), two = shard(2, of: 2, [failed], [])
        one.scope.lessons = ["c/02-b.md"]
        two.scope.lessons = ["c/02-b.md"]
        #expect(failure([("a.json", one), ("b.json", two)])
                == .init(file: "b.json", reason: "the scenario at c/01-a.md:3 is in no lesson of the report's course"))
    }

    /// Shards 1 to M hold one scenario each before any holds two (ShardPlan): an empty shard
    /// among them is refused; shards past the number of scenarios are empty, as a real split.
    @Test func anEmptyShardIsRefusedWhereTheSplitWouldHaveFilledIt() {
        #expect(failure([("a.json", shard(1, of: 2, [passed, failed], [])), ("b.json", shard(2, of: 2, [], []))])
                == .init(file: "b.json", reason: "shard 2/2 holds no scenario, but the shards hold 2 scenarios between them: a split of 2 gives each of the first 2 at least one"))
        // The skipped scenario is shard 1's and runs nowhere: it fills no shard.
        #expect(failure([("a.json", shard(1, of: 3, [skipped], [])), ("b.json", shard(2, of: 3, [passed], [])),
                         ("c.json", shard(3, of: 3, [], []))])?.file == "a.json")
        // Two scenarios over four shards: the last two are empty, as ShardPlan leaves them.
        #expect(failure([("a.json", shard(1, of: 4, [passed, skipped], [])), ("b.json", shard(2, of: 4, [failed], [])),
                         ("c.json", shard(3, of: 4, [], [])), ("d.json", shard(4, of: 4, [], []))]) == nil)
    }

    /// A status that what the report says of the scenario does not bear out is refused: above
    /// all a "passed" whose output differs from its block, which would turn the verdict green.
    @Test func aStatusMustFitTheOutput() {
        func refusal(_ scenario: ReportDocument.ScenarioEntry, shardOf index: Int = 1) -> String? {
            let other = index == 1 ? failed : passed
            let reports = [("a.json", shard(1, of: 2, index == 1 ? [scenario] : [other], [])),
                           ("b.json", shard(2, of: 2, index == 1 ? [other] : [scenario], []))]
            return failure(reports)?.reason
        }
        var forged = failed
        forged.status = "passed"
        forged.findings = []
        #expect(refusal(forged) == "the scenario at c/01-a.md:3 says passed, but what it printed ('actual') differs from its 'output' block ('expected')")
        var withError = passed
        withError.findings = failed.findings
        #expect(refusal(withError) == "the scenario at c/02-b.md:3 says passed, but it has an error (output-mismatch)")
        var unrun = passed
        unrun.actual = nil
        #expect(refusal(unrun) == "the scenario at c/02-b.md:3 says passed, but it has no 'output' block or printed nothing a run produced")
        var green = failed
        green.status = "green"
        #expect(refusal(green) == "the scenario at c/01-a.md:3 has the status 'green'; a scenario is passed, failed or skipped")
        var ran = skipped
        ran.actual = "x\n"
        #expect(refusal(ran) == "the scenario at c/02-b.md:9 says skipped, but it has output; a skipped scenario never runs")
        #expect(refusal(skipped, shardOf: 2) == "the scenario at c/02-b.md:9 says skipped in shard 2/2; skipped scenarios are reported by shard 1 only")
        // As the check compares: one final newline and CRLF aside.
        var crlf = passed
        crlf.expected = "a\nb"
        crlf.actual = "a\r\nb\r\n"
        #expect(refusal(crlf) == nil)
    }

    /// A finding of a severity or kind this coursebook does not know could not be counted:
    /// refused rather than dropped from the verdict.
    @Test func findingsOfUnknownSeverityOrKindAreRefused() {
        var fatal = sampleDocument().diagnostics[1]
        fatal.severity = "fatal"
        #expect(failure([("a.json", shard(1, of: 2, [passed], [fatal])), ("b.json", shard(2, of: 2, [failed], []))])
                == .init(file: "a.json", reason: "a finding of severity 'fatal'; findings are errors, warnings or notes"))
        var strange = sampleDocument().diagnostics[1]
        strange.id = "all-good"
        #expect(failure([("a.json", shard(1, of: 2, [passed], [])), ("b.json", shard(2, of: 2, [failed], [strange]))])
                == .init(file: "b.json", reason: "a finding of a kind this coursebook does not know ('all-good')"))
    }
}

/// One line as printed: nothing in it ends the line, drives the terminal or starts a GitHub
/// Actions workflow command (as actions/runner's ActionCommand parses them).
struct LogLineTests {
    @Test func aLineStaysOneLine() {
        #expect(LogLine.shown("lessons\n01.md:3:1: error: forged") == "lessons<U+000A>01.md:3:1: error: forged")
        #expect(LogLine.shown("a\rb\u{2028}c\u{2029}d\u{85}e\u{202E}f\tg") == "a<U+000D>b<U+2028>c<U+2029>d<U+0085>e<U+202E>f\tg")
        #expect(LogLine.shown("plain text, é, 😀") == "plain text, é, 😀")
    }

    /// A command starts a line after its white space is trimmed (.NET's TrimStart: tabs,
    /// spaces, no-break and ideographic spaces ...): the second colon is shown as `<U+003A>`.
    @Test func noLineStartsACommand() {
        for start in ["", "    ", "\t", "\u{A0}", "\u{3000}", "\u{2003}", "\u{FEFF}", "\u{200B} "] {
            #expect(LogLine.shown(start + "::stop-commands::x") == start + ":<U+003A>stop-commands::x", "\(Array(start.unicodeScalars))")
        }
        // A control before it is shown, and so no longer white space: nothing to neutralize.
        #expect(LogLine.shown("\u{B}::error::x") == "<U+000B>::error::x")
        // `::` inside a line is no command.
        #expect(LogLine.shown("+a::b") == "+a::b")
        #expect(LogLine.shown(":x") == ":x")
    }

    /// `##[` is read anywhere in a line: its bracket is shown as `<U+005B>`, every time.
    @Test func noLineHoldsALegacyCommand() {
        #expect(LogLine.shown("+ out ##[set-output name=x;]y") == "+ out ##<U+005B>set-output name=x;]y")
        #expect(LogLine.shown("###[[##[") == "###<U+005B>[##<U+005B>")
        #expect(LogLine.shown("#[x] # [y]") == "#[x] # [y]")
        #expect(LogLine.command("::error file=a.md::x ##[add-mask]y") == "::error file=a.md::x ##<U+005B>add-mask]y")
    }

    /// The colours of the formatter pass only when asked for; any other escape is shown.
    @Test func onlyTheFormattersColours() {
        let painted = "a.md:1:1: \u{1B}[1;31merror:\u{1B}[0m x \u{1B}]0;title\u{7}"
        #expect(LogLine.shown(painted, colours: true) == "a.md:1:1: \u{1B}[1;31merror:\u{1B}[0m x <U+001B>]0;title<U+0007>")
        #expect(LogLine.shown(painted) == "a.md:1:1: <U+001B>[1;31merror:<U+001B>[0m x <U+001B>]0;title<U+0007>")
    }
}

struct ReportTextTests {
    @Test func closingLines() {
        #expect(ReportText.statistics(compiled: 1, compilerRuns: 1, fromCache: 5, cacheUsed: true) == "compiled 1 scenario (1 swiftc run), 5 from the cache")
        #expect(ReportText.statistics(compiled: 0, compilerRuns: 0, fromCache: 0, cacheUsed: false) == "compiled 0 scenarios, cache not used")
        #expect(ReportText.findingCounts(errors: 0, warnings: 0) == nil)
        #expect(ReportText.findingCounts(errors: 1, warnings: 2) == "1 error, 2 warnings")
        #expect(ReportText.findingCounts(errors: 0, warnings: 0, notes: 1) == "0 errors, 0 warnings, 1 note")
    }
}
