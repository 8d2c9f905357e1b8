import Foundation
import Processes
import ScenarioRunning
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A copy of `Tests/Fixtures/author-loop` (three lessons, six scenarios and one skipped, DR1 to
/// DR5), as `root/course`, so that a test may edit it; the caller removes `root`.
func authorLoopCourse(_ name: String) throws -> (root: URL, course: URL) {
    let root = temporaryFolder(name)
    let course = root.appendingPathComponent("course")
    try FileManager.default.copyItem(at: fixtures.appendingPathComponent("author-loop"), to: course)
    return (root, course)
}

/// Replaces text in a lesson the way an editor saves: the new text into a hidden file beside
/// it, renamed over the lesson.
func save(_ file: URL, replacing old: String, with new: String) throws {
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains(old), "\(file.lastPathComponent) does not hold '\(old)'")
    let scratch = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).swp")
    try text.replacingOccurrences(of: old, with: new).write(to: scratch, atomically: false, encoding: .utf8)
    #expect(rename(scratch.path, file.path) == 0)
}

/// Runs a program of the system (xmllint, python3) and collects what it printed.
func runTool(_ name: String, _ arguments: [String], in folder: URL) throws -> CommandResult {
    let executable = try #require(findOnPath(name), "\(name) is not installed (make installs it)")
    var watcher = CollectingWatcher(timeLimit: .seconds(120))
    let termination = try ChildProcess(executable: executable, arguments: arguments, workingDirectory: folder.path)
        .run(watching: &watcher)
    guard case .exited(let status) = termination else { return CommandResult(status: -1, standardOutput: "", standardError: "\(termination)") }
    return CommandResult(status: status, standardOutput: String(decoding: watcher.standardOutput, as: UTF8.self),
                         standardError: String(decoding: watcher.standardError, as: UTF8.self))
}

/// Validates a JSON file against a JSON Schema with python3-jsonschema (Debian's).
func validateJSON(_ file: URL, schema: URL) throws -> CommandResult {
    try runTool("python3", ["-c", """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
        for error in errors: print(list(error.absolute_path), error.message)
        sys.exit(1 if errors else 0)
        """, schema.path, file.path], in: file.deletingLastPathComponent())
}

let reportSchema = packageRoot.appendingPathComponent("docs/report.schema.json")
let junitSchema = fixtures.appendingPathComponent("reports/junit.xsd")

/// One lesson at a time, shards and their merge, the reports CI reads.
@Suite(.serialized) struct LessonsShardsAndReportsTests {
    /// `check LESSON.md` runs that lesson's scenarios alone; the numbering of the limitation
    /// notes is still judged on the whole course, from the other lessons' text, and only what
    /// lands in the chosen lesson is reported.
    @Test func checkingOneLessonRunsOnlyItsScenarios() throws {
        let (root, course) = try authorLoopCourse("one-lesson")
        defer { try? FileManager.default.removeItem(at: root) }
        // Lessons 1 and 3 are broken; lesson 2 is not.
        try save(course.appendingPathComponent("01-tally.md"), replacing: "\n6\n", with: "\n7\n")
        try save(course.appendingPathComponent("03-averages.md"), replacing: "DR5.", with: "DR7.")

        let one = try coursebook(["check", "course/02-sums.md", "--report", "one.json"], in: root)
        #expect(one == CommandResult(status: 0, standardOutput: """
            compiled 2 scenarios (1 swiftc run), 0 from the cache
            2 passed, 0 failed, 1 skipped

            """, standardError: ""), "\(one)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("one.json"))) as? [String: Any]
        let scenarios = report?["scenarios"] as? [[String: Any]] ?? []
        #expect(scenarios.map { $0["file"] as? String } == ["course/02-sums.md", "course/02-sums.md", "course/02-sums.md"])
        #expect((report?["scope"] as? [String: Any])?["lessons"] as? [String] == ["course/02-sums.md"])

        // DR3 renumbered DR4: a gap after lesson 1's DR2, found in lesson 2 only because the
        // other lessons were read; lesson 3's repeat of DR4 is not this check's to report.
        try save(course.appendingPathComponent("02-sums.md"), replacing: "DR3. Only", with: "DR4. Only")
        try save(course.appendingPathComponent("02-sums.md"), replacing: "(DR3 holds", with: "(DR4 holds")
        let numbering = try coursebook(["check", "course/02-sums.md"], in: root)
        #expect(numbering == CommandResult(status: 1, standardOutput: """
            compiled 0 scenarios, 2 from the cache
            1 error, 0 warnings
            2 passed, 0 failed, 1 skipped

            """, standardError: """
            course/02-sums.md:18:1: error: DR4 follows DR2: DR3 is missing

            """), "\(numbering)")

        let two = try coursebook(["check", "course/03-averages.md", "course/01-tally.md"], in: root)
        #expect(two.status == 1)
        #expect(two.standardOutput.hasPrefix("compiled 4 scenarios (1 swiftc run), 0 from the cache\n"), "\(two)")
        let findings = two.standardError.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }
        #expect(findings == [
            "course/01-tally.md:15:1: error: output of the scenario at line 7 differs from its 'output' block at line 14",
            "course/03-averages.md:17:1: error: DR4 repeats a number already used",
            "course/03-averages.md:31:1: error: DR7 follows DR4: DR5 to DR6 are missing",
        ], "\(two)")

        let missing = try coursebook(["check", "course/09-none.md"], in: root)
        #expect(missing == CommandResult(status: 2, standardOutput: "", standardError: "course/09-none.md: error: no such lesson in the course course\n"), "\(missing)")
        let notALesson = try coursebook(["check", "course/notes.md"], in: root)
        #expect(notALesson.status == 2)
        #expect(notALesson.standardError == "course/notes.md: error: not a lesson file: lessons are named NN-slug.md (01-intro.md ...)\n")
    }

    /// Three shards run one after another, merged, say what one check of the whole course
    /// says: the same scenarios with the same outputs and findings, the same verdict, printed
    /// the same way. Each scenario runs in exactly one shard; course-wide rules only in the first.
    @Test func threeShardsMergeIntoTheFullCheck() throws {
        let (root, course) = try authorLoopCourse("shards")
        defer { try? FileManager.default.removeItem(at: root) }
        try save(course.appendingPathComponent("03-averages.md"), replacing: "\n4.3\n", with: "\n4.4\n")
        try save(course.appendingPathComponent("03-averages.md"), replacing: "DR5.", with: "DR6.")

        var compiled = 0
        for shard in 1...3 {
            let run = try coursebook(["check", "course", "--shard", "\(shard)/3", "--report", "shard-\(shard).json"], in: root)
            #expect(run.status == 0 || run.status == 1, "\(run)")
            let words = run.standardOutput.split(separator: " ")
            compiled += words.count > 1 ? Int(words[1]) ?? 0 : 0
            let report = try ReportFile(root.appendingPathComponent("shard-\(shard).json"))
            #expect(report.scope["shard"] as? String == "\(shard)/3")
            let courseRules = report.diagnostics.filter { $0["id"] as? String == "limit-note-gap" }
            #expect(courseRules.count == (shard == 1 ? 1 : 0), "shard \(shard): \(report.diagnostics)")
        }
        #expect(compiled == 6, "every scenario runs in exactly one shard")

        let merged = try coursebook(["merge-reports", "shard-2.json", "shard-3.json", "shard-1.json", "--report", "merged.json"], in: root)
        let full = try coursebook(["check", "course", "--cache-dir", "full-cache", "--report", "full.json"], in: root)
        #expect(full.status == 1)
        #expect(merged.status == full.status, "\(merged)")
        #expect(merged.standardError == full.standardError, "\(merged)\n\(full)")
        #expect(merged.standardOutput.hasSuffix(full.standardOutput.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"),
                "\(merged)\n\(full)")
        #expect(merged.standardOutput.hasPrefix("merged 3 reports: compiled 6 scenarios"), "\(merged)")

        let mergedReport = try ReportFile(root.appendingPathComponent("merged.json"))
        let fullReport = try ReportFile(root.appendingPathComponent("full.json"))
        #expect(mergedReport.verdict == fullReport.verdict)
        #expect(try validateJSON(root.appendingPathComponent("merged.json"), schema: reportSchema).status == 0)

        // Reports that do not make one course are refused, naming the one at fault.
        let short = try coursebook(["merge-reports", "shard-1.json", "shard-3.json"], in: root)
        #expect(short == CommandResult(status: 2, standardOutput: "", standardError: "coursebook merge-reports: the shards do not make the whole course: missing 2/3\n"), "\(short)")
        let twice = try coursebook(["merge-reports", "shard-1.json", "shard-2.json", "shard-1.json"], in: root)
        #expect(twice.status == 2)
        #expect(twice.standardError == "shard-1.json: error: shard 1/3 is also shard-1.json\n", "\(twice)")
        let whole = try coursebook(["merge-reports", "full.json"], in: root)
        #expect(whole.standardError == "full.json: error: not the report of a shard (check --shard K/N --report FILE.json)\n", "\(whole)")
        try "{}".write(to: root.appendingPathComponent("empty.json"), atomically: true, encoding: .utf8)
        let empty = try coursebook(["merge-reports", "empty.json"], in: root)
        #expect(empty.standardError == "empty.json: error: not a coursebook JSON report (no 'format')\n", "\(empty)")
    }

    /// The shards a course splits into depend on its text alone: two runs give the same split,
    /// whatever the cache holds.
    @Test func theSplitIsTheSameOnEveryMachine() throws {
        let (root, _) = try authorLoopCourse("split")
        defer { try? FileManager.default.removeItem(at: root) }
        func split(_ cache: [String]) throws -> [[String]] {
            try (1...2).map { shard in
                let run = try coursebook(["check", "course", "--shard", "\(shard)/2", "--report", "s.json"] + cache, in: root)
                #expect(run.status == 0, "\(run)")
                return try ReportFile(root.appendingPathComponent("s.json")).scenarios.map { "\($0["file"]!):\($0["line"]!)" }
            }
        }
        let cold = try split(["--no-cache"])
        let warm = try split([])
        let again = try split([])
        #expect(cold == warm && warm == again)
        #expect(Set(cold[0]).isDisjoint(with: cold[1]))
        #expect(cold[0].count + cold[1].count == 7)
    }

    /// The JUnit report validates against the JUnit schema (xmllint), one test case per
    /// scenario named by lesson and caption, the diff in the failure.
    @Test func theJUnitReportValidates() throws {
        let (root, course) = try authorLoopCourse("junit")
        defer { try? FileManager.default.removeItem(at: root) }
        try save(course.appendingPathComponent("03-averages.md"), replacing: "\n4.3\n", with: "\n4.4 & <more>\n")
        let run = try coursebook(["check", "course", "--report", "reports/junit.xml", "--report", "reports/result.json"], in: root)
        #expect(run.status == 1, "\(run)")
        let xml = try String(contentsOf: root.appendingPathComponent("reports/junit.xml"), encoding: .utf8)
        let lint = try runTool("xmllint", ["--noout", "--schema", junitSchema.path, "reports/junit.xml"], in: root)
        #expect(lint.status == 0, "\(lint)\n\(xml)")
        #expect(xml.contains(#"<testsuites name="Counting Things" tests="7" failures="1" errors="0""#), "\(xml)")
        #expect(xml.contains(#"<testcase name="03-averages: the mean of five marks (line 7)" classname="course/03-averages.md" file="course/03-averages.md" line="7""#), "\(xml)")
        #expect(xml.contains("""
            -4.4 &amp; &lt;more&gt;
            +4.3</failure>
            """), "\(xml)")
        #expect(xml.contains(#"<skipped message="swift scenario skip: shown, not run"/>"#))
        #expect(try validateJSON(root.appendingPathComponent("reports/result.json"), schema: reportSchema).status == 0)
    }

    /// The JSON report holds to its documented schema, and the schema is a real check: a
    /// report without a scenario's `cached` fails it.
    @Test func theJSONReportHoldsToItsSchema() throws {
        let (root, course) = try authorLoopCourse("json")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try coursebook(["check", "course", "--report", "result.json"], in: root).status == 0)
        try save(course.appendingPathComponent("01-tally.md"), replacing: "on the mat\"\nlet words", with: "on the mat today\"\nlet words")
        let run = try coursebook(["check", "course", "--report", "result.json"], in: root)
        #expect(run.status == 1)
        let report = root.appendingPathComponent("result.json")
        let valid = try validateJSON(report, schema: reportSchema)
        #expect(valid.status == 0, "\(valid)")

        let document = try ReportFile(report)
        let first = try #require(document.scenarios.first)
        #expect(first["file"] as? String == "course/01-tally.md")
        #expect(first["line"] as? Int == 7)
        #expect(first["caption"] as? String == "words split on single spaces")
        #expect(first["status"] as? String == "failed")
        #expect(first["expected"] as? String == "6\n")
        #expect(first["actual"] as? String == "7\n")
        #expect(first["cached"] as? Bool == false)
        #expect(document.scenarios[1]["cached"] as? Bool == true)
        #expect((first["duration"] as? Double ?? -1) >= 0)

        var broken = document.object
        var scenarios = document.scenarios
        scenarios[0]["cached"] = nil
        broken["scenarios"] = scenarios
        let brokenFile = root.appendingPathComponent("broken.json")
        try JSONSerialization.data(withJSONObject: broken).write(to: brokenFile)
        let invalid = try validateJSON(brokenFile, schema: reportSchema)
        #expect(invalid.status == 1)
        #expect(invalid.standardOutput.contains("'cached' is a required property"), "\(invalid)")
    }

    /// `--format github` (and GitHub Actions itself, through `GITHUB_ACTIONS=true`) prints
    /// each finding as a workflow command on the finding's file, line and column.
    @Test func githubAnnotationsLandOnTheLine() throws {
        let (root, course) = try authorLoopCourse("github")
        defer { try? FileManager.default.removeItem(at: root) }
        try save(course.appendingPathComponent("03-averages.md"), replacing: "\n4.3\n", with: "\n4.4\n")
        let annotation = "::error file=course/03-averages.md,line=14,col=1,title=coursebook%3A output-mismatch::output of the scenario at line 7 differs from its 'output' block at line 13%0A--- expected (course/03-averages.md:13)%0A+++ actual%0A@@ -1 +1 @@%0A-4.4%0A+4.3"
        let inActions = try coursebook(["check", "course"], in: root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(inActions.status == 1)
        #expect(inActions.standardOutput.hasPrefix(annotation + "\ncompiled 6 scenarios"), "\(inActions)")
        #expect(inActions.standardError == "")
        let asked = try coursebook(["check", "course", "--format", "github"], in: root)
        #expect(asked.standardOutput.hasPrefix(annotation + "\n"), "\(asked)")
        let text = try coursebook(["check", "course", "--format", "text"], in: root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(text.standardError.hasPrefix("course/03-averages.md:14:1: error: output of the scenario"), "\(text)")
        #expect(!text.standardOutput.contains("::error"))
    }

    /// `new lesson` writes the next lesson; `check --update` fills its output; `check --strict`
    /// then passes, in an English course and in a Turkish one that has no lesson yet.
    @Test func aNewLessonIsGreenAfterOneUpdate() throws {
        let (root, course) = try authorLoopCourse("new-lesson")
        defer { try? FileManager.default.removeItem(at: root) }
        let made = try coursebook(["new", "lesson", "Rounding \"Half\" Up", "course"], in: root)
        #expect(made == CommandResult(status: 0, standardOutput: """
            wrote course/04-rounding-half-up.md (its limitation note is DR6)
            next: write the scenario, then 'coursebook check course/04-rounding-half-up.md --update' fills in its output

            """, standardError: ""), "\(made)")
        let lesson = try String(contentsOf: course.appendingPathComponent("04-rounding-half-up.md"), encoding: .utf8)
        #expect(lesson.hasPrefix("# Rounding \"Half\" Up\n"))
        #expect(lesson.contains("print(\"Rounding \\\"Half\\\" Up\")"))
        #expect(lesson.contains("```output\n```\n"))
        #expect(lesson.contains("\nDR6. "))
        #expect(try coursebook(["check", "course", "--strict"], in: root).status == 1)
        let update = try coursebook(["check", "course", "--update"], in: root)
        #expect(update.status == 0, "\(update)")
        #expect(update.standardOutput.hasPrefix("course/04-rounding-half-up.md:16: updated the output block of the scenario at line 11\n"), "\(update)")
        let strict = try coursebook(["check", "course", "--strict"], in: root)
        #expect(strict == CommandResult(status: 0, standardOutput: "compiled 0 scenarios, 7 from the cache\n7 passed, 0 failed, 1 skipped\n", standardError: ""), "\(strict)")

        let again = try coursebook(["new", "lesson", "Rounding \"Half\" Up", "course"], in: root)
        #expect(again.standardOutput.hasPrefix("wrote course/05-rounding-half-up.md (its limitation note is DR7)"), "\(again)")

        let turkish = root.appendingPathComponent("ders")
        try FileManager.default.createDirectory(at: turkish, withIntermediateDirectories: true)
        try #"{ "title": "Deneme", "language": "tr" }"#.write(to: turkish.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        let first = try coursebook(["new", "lesson", "Şartlı Ölçüm"], in: root)
        #expect(first.status == 2, "no 'lessons' folder here: \(first)")
        let inTurkish = try coursebook(["new", "lesson", "Şartlı Ölçüm", "ders"], in: root)
        #expect(inTurkish.standardOutput.hasPrefix("wrote ders/01-sartli-olcum.md (its limitation note is DR1)"), "\(inTurkish)")
        let text = try String(contentsOf: turkish.appendingPathComponent("01-sartli-olcum.md"), encoding: .utf8)
        #expect(text.contains("## Ölçüm\n") && text.contains("\nDR1. Bu ölçümün"))
        #expect(try coursebook(["check", "ders", "--update"], in: root).status == 0)
        let turkishStrict = try coursebook(["check", "ders", "--strict"], in: root)
        #expect(turkishStrict.status == 0, "\(turkishStrict)")
    }

    /// `new lesson --errors` writes a scenario the compiler refuses under an empty `errors`
    /// block; `check --update` fills it with the compiler's errors, and the lesson passes.
    @Test func aNewLessonOfErrors() throws {
        let (root, course) = try authorLoopCourse("new-errors")
        defer { try? FileManager.default.removeItem(at: root) }
        let made = try coursebook(["new", "lesson", "Constants", "course", "--errors"], in: root)
        #expect(made == CommandResult(status: 0, standardOutput: """
            wrote course/04-constants.md (its limitation note is DR6)
            next: write the scenario, then 'coursebook check course/04-constants.md --update' fills in its errors block with the compiler's errors

            """, standardError: ""), "\(made)")
        let file = course.appendingPathComponent("04-constants.md")
        let lesson = try String(contentsOf: file, encoding: .utf8)
        #expect(lesson.contains("```swift scenario\n// main.swift — what the compiler refuses\nlet title = \"Constants\"\ntitle = \"Constants!\"\n```\n\n```errors\n```\n"))
        #expect(!lesson.contains("```output"))
        let failing = try coursebook(["check", "course/04-constants.md"], in: root)
        #expect(failing.status == 1, "\(failing)")
        let update = try coursebook(["check", "course/04-constants.md", "--update"], in: root)
        #expect(update.standardOutput.hasPrefix("course/04-constants.md:17: updated the errors block of the scenario at line 11\n"), "\(update)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("```errors\n3:1: error: cannot assign to value: 'title' is a 'let' constant\n```\n"))
        let strict = try coursebook(["check", "course", "--strict"], in: root)
        #expect(strict.status == 0, "\(strict)")
    }
}

/// A JSON report read back, for the tests.
struct ReportFile {
    var object: [String: Any]

    init(_ file: URL) throws {
        object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    var scenarios: [[String: Any]] { object["scenarios"] as? [[String: Any]] ?? [] }
    var diagnostics: [[String: Any]] { object["diagnostics"] as? [[String: Any]] ?? [] }
    var scope: [String: Any] { object["scope"] as? [String: Any] ?? [:] }

    /// What the check found, without what differs between runs of the same check: how long
    /// programs ran, how many compiler runs it took, and which part of the course it covered.
    var verdict: String {
        var copy = object
        copy["scenarios"] = scenarios.map { scenario in
            var scenario = scenario
            scenario["duration"] = 0
            return scenario
        }
        var summary = copy["summary"] as? [String: Any] ?? [:]
        summary["compilerRuns"] = 0
        copy["summary"] = summary
        let data = try? JSONSerialization.data(withJSONObject: copy, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
