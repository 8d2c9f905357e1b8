import Foundation
import Testing

/// Listings that must fail, run through the binary: `Tests/Fixtures/must-fail` (a language book
/// in the Swift 6 language mode: compile errors, the same code in mode 5, traps) checks green;
/// every verdict of an `errors` and a `trap` block, `--update` (twice, then two checks), the
/// cache, the linker's words and an error in a core file, each as an author meets it.
@Suite(.serialized) struct MustFailTests {
    /// A copy of the fixture in a scratch folder: (the folder holding it, the course).
    func copy() throws -> (root: URL, course: URL) {
        let root = temporaryFolder("must-fail")
        let course = root.appendingPathComponent("must-fail")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("must-fail"), to: course)
        return (root, course)
    }

    func edit(_ lesson: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try #require(text.contains(old), "\(lesson.lastPathComponent) holds no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: lesson, atomically: true, encoding: .utf8)
    }

    @Test func theFixtureChecksGreenAndTheSecondCheckComesFromTheCache() throws {
        let (root, _) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try coursebook(["check", "must-fail", "--strict"], in: root)
        #expect(first == CommandResult(status: 0, standardOutput: "compiled 17 scenarios (17 swiftc runs), 0 from the cache\n17 passed, 0 failed\n",
                                       standardError: ""), "\(first)")
        let second = try coursebook(["check", "must-fail", "--strict"], in: root)
        #expect(second == CommandResult(status: 0, standardOutput: "compiled 0 scenarios, 17 from the cache\n17 passed, 0 failed\n",
                                        standardError: ""), "\(second)")
    }

    /// An `errors` block with another message fails with a diff from the block to what
    /// `swiftc -typecheck` says; one whose scenario compiles fails saying so; one that names a
    /// line the scenario does not have is an error at that line of the block.
    @Test func everyVerdictOfAnErrorsBlock() throws {
        let (root, course) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let types = course.appendingPathComponent("01-types.md")
        try edit(types, "to specified type 'Int'\n", "to type 'Int'\n")
        try edit(types, "2: error: cannot assign", "7: error: cannot assign")
        let switches = course.appendingPathComponent("02-errors-and-switches.md")
        try edit(switches, "    print(\"Where the sun rises\")\n}", "    print(\"Where the sun rises\")\ndefault:\n    print(\"West\")\n}")
        let result = try coursebook(["check", "must-fail", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError == """
            must-fail/01-types.md:16:1: error: the compiler's errors for the scenario at line 9 differ from its 'errors' block at line 15
            --- expected (must-fail/01-types.md:15)
            +++ the compiler (plain swiftc)
            @@ -1 +1 @@
            -2:41: error: cannot convert value of type 'String' to type 'Int'
            +2:41: error: cannot convert value of type 'String' to specified type 'Int'
            must-fail/01-types.md:43:1: error: the scenario has 3 lines, so it has no line 7 for an error to stand at
            must-fail/01-types.md:43:1: error: the compiler's errors for the scenario at line 36 differ from its 'errors' block at line 42
            --- expected (must-fail/01-types.md:42)
            +++ the compiler (plain swiftc)
            @@ -1 +1 @@
            -7: error: cannot assign to value: 'languageName' is a 'let' constant
            +2:1: error: cannot assign to value: 'languageName' is a 'let' constant
            must-fail/02-errors-and-switches.md:74:1: error: the scenario at line 55 compiles, but its 'errors' block says it must not (plain 'swiftc' finds no error in it)
            note: an 'errors' block lists what type-checking finds; what only a full compile finds after it (overlapping accesses to a variable, a missing return, a constant used before it is set) is not among it

            """, "\(result)")
        #expect(result.standardOutput.hasSuffix("4 errors, 0 warnings\n14 passed, 3 failed\n"), "\(result)")
    }

    /// A `trap` block: another message fails with a diff, another output with the output's diff,
    /// and a program that does not trap fails saying how it ended.
    @Test func everyVerdictOfATrapBlock() throws {
        let (root, course) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let traps = course.appendingPathComponent("05-traps.md")
        try edit(traps, "Fatal error: Index out of range\n", "Fatal error: Index is out of range\n")
        try edit(traps, "converted: nil\n", "converted: none\n")
        try edit(traps, "print(ageDescription(-3))", "print(ageDescription(3))")
        let result = try coursebook(["check", "must-fail/05-traps.md", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError == """
            must-fail/05-traps.md:20:1: error: the scenario at line 8 trapped with another message than its 'trap' block at line 19 says
            --- expected (must-fail/05-traps.md:19)
            +++ the runtime
            @@ -1 +1 @@
            -Fatal error: Index is out of range
            +Fatal error: Index out of range
            must-fail/05-traps.md:34:1: error: output of the scenario at line 25 differs from its 'output' block at line 33
            --- expected (must-fail/05-traps.md:33)
            +++ actual
            @@ -1 +1 @@
            -converted: none
            +converted: nil
            must-fail/05-traps.md:43:1: error: the scenario at line 43 ran to its end (exit status 0), but its 'trap' block at line 58 expects it to trap
            standard output:
                30 years
                3 years

            """, "\(result)")
        #expect(result.standardOutput.hasSuffix("3 errors, 0 warnings\n2 passed, 3 failed\n"), "\(result)")
    }

    /// `--update` rewrites what is wrong (keeping the column-less form of a line that still
    /// holds), never makes an `errors` block of a scenario that compiles, and the lessons it
    /// wrote pass the next checks; a second `--update` changes nothing.
    @Test func updateRewritesAndTheNextChecksPass() throws {
        let (root, course) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try FileManager.default.contentsOfDirectory(atPath: course.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { try String(contentsOf: course.appendingPathComponent($0), encoding: .utf8) }
        let types = course.appendingPathComponent("01-types.md")
        try edit(types, "2:41: error: cannot convert value of type 'String' to specified type 'Int'\n", "")
        let concurrency = course.appendingPathComponent("04-concurrency.md")
        try edit(concurrency, "8:5: error: main actor-isolated let 'counter' cannot be accessed from outside of the actor\n",
                 "8: error: main actor-isolated let 'counter' cannot be accessed from outside of the actor\n")
        let traps = course.appendingPathComponent("05-traps.md")
        try edit(traps, "Precondition failed: A person's age can't be less than zero.\n", "")
        try edit(traps, "```output\n32767\n```\n\n", "")
        let updated = try coursebook(["check", "must-fail", "--update", "--no-cache"], in: root)
        #expect(updated.status == 0, "\(updated)")
        #expect(updated.standardOutput.hasPrefix("must-fail/01-types.md:15: updated the errors block of the scenario at line 9\n"
                + "must-fail/05-traps.md:58: updated the trap block of the scenario at line 43\n"
                + "must-fail/05-traps.md:102: inserted an output block for the scenario at line 93\n"), "\(updated)")
        #expect(updated.standardError.isEmpty, "\(updated)")
        let now = try FileManager.default.contentsOfDirectory(atPath: course.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { try String(contentsOf: course.appendingPathComponent($0), encoding: .utf8) }
        // The column-less line stood for the compiler's error and stays as the author wrote it.
        #expect(now[3] == original[3].replacingOccurrences(of: "8:5: error: main actor-isolated let", with: "8: error: main actor-isolated let"))
        #expect(now.enumerated().allSatisfy { $0.offset == 3 || $0.element == original[$0.offset] })
        for _ in 0..<2 {
            let check = try coursebook(["check", "must-fail", "--no-cache"], in: root)
            #expect(check.status == 0 && check.standardError.isEmpty, "\(check)")
        }
        let again = try coursebook(["check", "must-fail", "--update", "--no-cache"], in: root)
        #expect(again.status == 0 && again.standardError.isEmpty, "\(again)")

        // A scenario that now compiles stays a failure; --update leaves its block.
        try edit(types, "languageName = \"Swift++\"\n", "")
        let compiles = try coursebook(["check", "must-fail/01-types.md", "--update"], in: root)
        #expect(compiles.status == 1)
        #expect(compiles.standardError == "must-fail/01-types.md:41:1: error: the scenario at line 36 compiles, but its 'errors' block says it must not (plain 'swiftc' finds no error in it)\n"
                + "note: an 'errors' block lists what type-checking finds; what only a full compile finds after it (overlapping accesses to a variable, a missing return, a constant used before it is set) is not among it\n", "\(compiles)")
        #expect(try String(contentsOf: types, encoding: .utf8).contains("```errors\n2: error: cannot assign"))
    }

    /// A scenario without an `errors` block that does not compile stays an error of the check:
    /// `--update` never turns it into an `errors` block.
    @Test func updateNeverMakesAnErrorsBlock() throws {
        let (root, course) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let types = course.appendingPathComponent("01-types.md")
        try edit(types, "let maximumNumberOfLoginAttempts = Int(\"10\") ?? 0", "let maximumNumberOfLoginAttempts: Int = \"10\"")
        let before = try String(contentsOf: types, encoding: .utf8)
        let result = try coursebook(["check", "must-fail/01-types.md", "--update", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError == "must-fail/01-types.md:23:41: error: cannot convert value of type 'String' to specified type 'Int'\n", "\(result)")
        #expect(try String(contentsOf: types, encoding: .utf8) == before)
    }

    /// The course's language mode is part of every result's key: changed, everything compiles
    /// again, and the page names the mode each scenario was compiled in.
    @Test func theLanguageModeIsPartOfTheKeyAndOnThePage() throws {
        let (root, course) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try coursebook(["check", "must-fail"], in: root)
        try edit(course.appendingPathComponent("course.json"), #""languageMode": "6""#, #""languageMode": "5""#)
        let five = try coursebook(["check", "must-fail"], in: root)
        #expect(five.status == 1)
        // Of the 19, the 4 with their own mode come from the cache; the rest compiled again.
        #expect(five.standardOutput.hasPrefix("compiled 15 scenarios"), "\(five)")
        #expect(five.standardError.contains("must-fail/04-concurrency.md:24:1: error: the scenario at line 11 compiles, but its 'errors' block says it must not"), "\(five)")

        try edit(course.appendingPathComponent("course.json"), #""languageMode": "5""#, #""languageMode": "6""#)
        let site = root.appendingPathComponent("site")
        let build = try coursebook(["build", "must-fail", "--out", site.path, "--no-search"], in: root)
        #expect(build.status == 0, "\(build)")
        let page = try String(contentsOf: site.appendingPathComponent("04-concurrency.html"), encoding: .utf8)
        #expect(page.contains("<span class=\"badge\"><span aria-hidden=\"true\">✓</span> compiler refused · Swift "))
        #expect(page.contains(" · language mode 6</span>"))
        #expect(page.contains("verified with Swift \(try swiftVersion()) · language mode 5</span>"))
    }

    /// A program whose link fails shows the linker's own words, not only the driver's "link
    /// command failed".
    @Test func aLinkErrorShowsTheLinkersWords() throws {
        let root = temporaryFolder("link")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: course, withIntermediateDirectories: true)
        try #"{ "title": "Link", "language": "en", "limitNotes": "optional" }"#
            .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        try """
            # Link

            ```swift scenario
            @_silgen_name("coursebook_nowhere_round")
            func round(_ value: Double) -> Double
            print(round(2.5))
            ```

            ```output
            ```

            """.write(to: course.appendingPathComponent("01-link.md"), atomically: true, encoding: .utf8)
        let result = try coursebook(["check", "course", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError == "course/01-link.md:4:1: error: undefined reference to 'coursebook_nowhere_round'\n", "\(result)")
    }

    /// An `errors` scenario whose code makes a core file fail is a finding of its own, at the
    /// scenario, with the core's errors; the scenarios that leave the core alone share one
    /// check of the core and pass.
    @Test func anErrorInACoreFile() throws {
        let root = temporaryFolder("core-error")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: course, withIntermediateDirectories: true)
        try giveInvalidationCore(to: course)
        var lesson = "# Core\n\n"
        for index in 0..<3 {
            lesson += "```swift scenario\nlet count\(index): Int = \"\(index)\"\n```\n\n```errors\n1:19: error: cannot convert value of type 'String' to specified type 'Int'\n```\n\nDR\(index + 1). x\n\n"
        }
        // The default type of a string literal, for every file of the module.
        lesson += "```swift scenario\ntypealias StringLiteralType = Int\n```\n\n```errors\n```\n\nDR4. y\n"
        try lesson.write(to: course.appendingPathComponent("01-core.md"), atomically: true, encoding: .utf8)
        let result = try coursebook(["check", "course", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardOutput.hasPrefix("compiled 4 scenarios (5 swiftc runs)"), "\(result)")
        #expect(result.standardOutput.hasSuffix("3 passed, 1 failed\n"), "\(result)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first == "course/01-core.md:33:1: error: type-checking the scenario at line 33 meets errors in the core files; an 'errors' block lists errors in the scenario's own code, so the core must compile with it", "\(result)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("course/Invalidation.swift:") && $0.contains(": note: error: ") }, "\(result)")
    }

    /// The JSON report says what each scenario was expected to do and what it came to (the
    /// compiler's errors, the trap's message), valid under its schema; JUnit says what was
    /// expected, valid under the JUnit schema.
    @Test func reportsSayWhatWasExpected() throws {
        let (root, course) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        try edit(course.appendingPathComponent("05-traps.md"), "Fatal error: Index out of range\n", "Fatal error: Index is out of range\n")
        let run = try coursebook(["check", "must-fail", "--report", "reports/result.json", "--report", "reports/junit.xml"], in: root)
        #expect(run.status == 1, "\(run)")
        let json = root.appendingPathComponent("reports/result.json")
        let valid = try validateJSON(json, schema: reportSchema)
        #expect(valid.status == 0, "\(valid)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let scenarios = try #require(document["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["expectation"] as? String } == [
            "errors", "output", "errors", "errors", "output", "errors", "errors", "output", "errors", "output", "errors", "output",
            "trap", "trap", "trap", "trap", "trap",
        ])
        let letError = try #require(scenarios.first { ($0["expected"] as? String)?.contains("'languageName' is a 'let'") == true })
        #expect(letError["expected"] as? String == "2: error: cannot assign to value: 'languageName' is a 'let' constant\n")
        #expect(letError["actual"] as? String == "2:1: error: cannot assign to value: 'languageName' is a 'let' constant\n")
        #expect(letError["status"] as? String == "passed" && letError["output"] is NSNull)
        let outOfRange = scenarios[12]
        #expect(outOfRange["status"] as? String == "failed")
        #expect(outOfRange["expected"] as? String == "Fatal error: Index is out of range\n")
        #expect(outOfRange["actual"] as? String == "Fatal error: Index out of range")
        #expect(outOfRange["output"] as? [String: String] == ["expected": "90\n", "actual": "90\n"])

        let lint = try runTool("xmllint", ["--noout", "--schema", junitSchema.path, "reports/junit.xml"], in: root)
        #expect(lint.status == 0, "\(lint)")
        let xml = try String(contentsOf: root.appendingPathComponent("reports/junit.xml"), encoding: .utf8)
        #expect(xml.contains("<testcase name=\"01-types: a string where an integer belongs (line 9, must not compile)\""))
        #expect(xml.contains("<system-out>expected: the compiler refuses it (plain swiftc) with these errors\n    2:41: error: cannot convert value of type 'String' to specified type 'Int'</system-out>"))
        #expect(xml.contains("<testcase name=\"05-traps: the third score of two (line 8, must trap)\""))
        #expect(xml.contains(">expected: it prints\n    90\nthen traps with\n    Fatal error: Index is out of range\nmust-fail/05-traps.md:20:1: error: the scenario at line 8 trapped with another message"))
    }

    /// Shards of a course of refusals and traps merge into the one verdict: a passed scenario's
    /// status is held to the same comparison the check makes (a column-less errors line, a
    /// trap's message).
    @Test func shardsOfRefusalsAndTrapsMerge() throws {
        let (root, _) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        for shard in 1...2 {
            let run = try coursebook(["check", "must-fail", "--shard", "\(shard)/2", "--report", "shard-\(shard).json"], in: root)
            #expect(run.status == 0, "\(run)")
        }
        let merged = try coursebook(["merge-reports", "shard-1.json", "shard-2.json"], in: root)
        #expect(merged.status == 0 && merged.standardError.isEmpty, "\(merged)")
        #expect(merged.standardOutput.hasSuffix("17 passed, 0 failed\n"), "\(merged)")

        // A shard that says an errors scenario passed with other errors than its block is refused.
        let file = root.appendingPathComponent("shard-2.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let forged = text.replacingOccurrences(of: "\"actual\" : \"2:1: error: cannot assign to value: 'languageName' is a 'let' constant\\n\"",
                                               with: "\"actual\" : \"3:1: error: cannot assign to value: 'languageName' is a 'let' constant\\n\"")
        let other = text == forged ? root.appendingPathComponent("shard-1.json") : file
        let source = try String(contentsOf: other, encoding: .utf8)
        let changed = source.replacingOccurrences(of: "\"actual\" : \"2:1: error: cannot assign to value: 'languageName' is a 'let' constant\\n\"",
                                                  with: "\"actual\" : \"3:1: error: cannot assign to value: 'languageName' is a 'let' constant\\n\"")
        #expect(changed != source)
        try changed.write(to: other, atomically: true, encoding: .utf8)
        let refused = try coursebook(["merge-reports", "shard-1.json", "shard-2.json"], in: root)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.standardError.contains("says passed, but the compiler's errors ('actual') differ from its 'errors' block ('expected')"), "\(refused)")
    }

    func swiftVersion() throws -> String {
        let version = try coursebook(["--version"])
        return String(version.standardOutput.split(separator: "Swift version ").last?.prefix { $0 != " " } ?? "")
    }
}
