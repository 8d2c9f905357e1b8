import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a hostile lesson prints, or names, reaches the terminal, the CI log, the reports and the
/// page only as text: it cannot break a report's markup, forge a line or a workflow command,
/// hide a Trojan Source, or make merged shards say green.
@Suite(.serialized) struct HostileOutputTests {
    /// A course folder named `name` in a new scratch folder, with one lesson of the given text.
    func course(named name: String = "course", lesson: String) throws -> (root: URL, course: URL) {
        let root = temporaryFolder("hostile-output")
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{ "title": "Hostile", "language": "en", "limitNotes": "optional" }"#.utf8)
            .write(to: folder.appendingPathComponent("course.json"))
        try Data(lesson.utf8).write(to: folder.appendingPathComponent("01-hostile.md"))
        return (root, folder)
    }

    /// A line feed in the course folder's name cannot forge a line through the header of a
    /// mismatch's diff, which names the lesson's path.
    @Test func aPathInADiffIsOneLine() throws {
        let (root, _) = try course(named: "c\nx.md:1:1: error: forged", lesson: """
            # Hostile

            ```swift scenario
            print("a")
            ```

            ```output
            b
            ```

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try coursebook(["check", "c\nx.md:1:1: error: forged", "--no-cache"], in: root)
        #expect(run.status == 1, "\(run)")
        #expect(!run.standardError.split(separator: "\n").contains { $0.hasPrefix("x.md:") }, "\(run)")
        #expect(run.standardError.contains("\n--- expected (c<U+000A>x.md:1:1: error: forged/01-hostile.md:7)\n+++ actual\n"), "\(run)")
    }

    /// Every character a report must survive, as Swift source (escapes in a string literal).
    static let troublesome = #"\u{1}\u{8}\u{1B}[2J\u{7F}\u{85}\u{2028}\u{2029}\u{202E}\u{FFFE}\u{FFFF}]]><&>'\"\t\r\n😀"#

    /// A scenario that prints all of it and differs from its block, and one that prints it and
    /// traps: the JUnit report stays well-formed and valid, the JSON report valid and exact.
    @Test func reportsAreWellFormedWhateverAScenarioPrints() throws {
        let (root, _) = try course(lesson: """
            # Hostile

            ```swift scenario
            print("\(Self.troublesome)")
            ```

            ```output
            something else
            ```

            ```swift scenario
            print("\(Self.troublesome)\\u{0}")
            let none: [Int] = []
            print(none[1])
            ```

            ```output
            x
            ```

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try coursebook(["check", "course", "--no-cache", "--report", "r.xml", "--report", "r.json"], in: root)
        #expect(run.status == 1, "\(run)")
        let xml = try String(contentsOf: root.appendingPathComponent("r.xml"), encoding: .utf8)
        let wellFormed = try runTool("xmllint", ["--noout", "r.xml"], in: root)
        #expect(wellFormed.status == 0, "\(wellFormed)\n\(xml)")
        let valid = try runTool("xmllint", ["--noout", "--schema", junitSchema.path, "r.xml"], in: root)
        #expect(valid.status == 0, "\(valid)")
        #expect(xml.contains("&lt;U+FFFE&gt;&lt;U+FFFF&gt;]]&gt;&lt;&amp;&gt;"), "\(xml)")
        #expect(xml.contains("&lt;U+0001&gt;&lt;U+0008&gt;&lt;U+001B&gt;[2J&lt;U+007F&gt;&lt;U+0085&gt;&lt;U+2028&gt;&lt;U+2029&gt;&lt;U+202E&gt;"), "\(xml)")
        #expect(!xml.unicodeScalars.contains { $0 == "\u{FFFE}" || $0 == "\u{FFFF}" || $0 == "\u{1B}" || $0 == "\u{0}" })

        #expect(try validateJSON(root.appendingPathComponent("r.json"), schema: reportSchema).status == 0)
        let report = try ReportFile(root.appendingPathComponent("r.json"))
        let printed = "\u{1}\u{8}\u{1B}[2J\u{7F}\u{85}\u{2028}\u{2029}\u{202E}\u{FFFE}\u{FFFF}]]><&>'\"\t\r\n😀\n"
        #expect(report.scenarios.first?["actual"] as? String == printed, "the JSON report holds what was printed, exactly")
        #expect(report.scenarios.last?["actual"] as? String == printed.dropLast() + "\u{0}\n")
    }

    /// The lines of `text` that GitHub's runner would read as a workflow command: after its
    /// leading white space, `::`; or `##[` anywhere.
    func commandLines(_ text: String) -> [String] {
        text.components(separatedBy: "\n").filter { line in
            line.unicodeScalars.drop { $0.properties.isWhitespace || $0.value == 0xFEFF }.starts(with: "::".unicodeScalars)
                || line.contains("##[")
        }
    }

    /// A course folder whose name holds a line end and a command, and a scenario that crashes
    /// printing workflow commands (indented, after an ideographic space, after U+2028): no line
    /// of what check prints is forged, in text mode under GitHub Actions or in github mode,
    /// where the only commands are coursebook's own annotations.
    @Test func nothingPrintedForgesALineOrACommand() throws {
        let name = "c\n::error file=x.md::forged"
        let (root, _) = try course(named: name, lesson: #"""
            # Hostile

            ```swift scenario
            print("::stop-commands::pwned")
            print("\u{3000}::warning::ideographic")
            print("\u{2028}::error::separated")
            print("out ##[set-output name=ok;]yes")
            let none: [Int] = []
            print(none[1])
            ```

            ```output
            x
            ```

            """#)
        defer { try? FileManager.default.removeItem(at: root) }
        let text = try coursebook(["check", name, "--no-cache", "--format", "text"], in: root, environment: ["GITHUB_ACTIONS": "true"])
        #expect(text.status == 1, "\(text)")
        #expect(text.standardError.hasPrefix("""
            c<U+000A>::error file=x.md::forged/01-hostile.md:3:1: error: scenario crashed: signal 4 (SIGILL: a Swift trap)
            standard output:
                :<U+003A>stop-commands::pwned
                \u{3000}:<U+003A>warning::ideographic
                <U+2028>::error::separated
                out ##<U+005B>set-output name=ok;]yes
            standard error:
            """), "\(text)")
        #expect(commandLines(text.standardError + text.standardOutput).isEmpty, "\(text)")

        let github = try coursebook(["check", name, "--no-cache", "--format", "github"], in: root)
        #expect(github.status == 1)
        let commands = commandLines(github.standardOutput + github.standardError)
        #expect(commands.count == 1 && commands[0].hasPrefix("::error file=c%0A%3A%3Aerror file=x.md%3A%3Aforged/01-hostile.md,line=3,col=1,title="),
                "\(github)")
        #expect(!github.standardOutput.contains("##[") && commands[0].contains("##<U+005B>set-output"), "\(github)")
    }

    /// Paths and arguments in every other line a command prints: a line end is shown, never
    /// printed.
    @Test func pathsAndArgumentsAreShownOnTheirLine() throws {
        let (root, _) = try course(lesson: "# One\n\n```swift scenario\nprint(1)\n```\n\n```output\n1\n```\n")
        defer { try? FileManager.default.removeItem(at: root) }
        let missing = try coursebook(["check", "no\nsuch.md:1:1: error: forged"], in: root)
        #expect(missing == CommandResult(status: 2, standardOutput: "", standardError: "no<U+000A>such.md:1:1: error: forged: error: no course folder here\n"), "\(missing)")
        let usage = try coursebook(["check", "course", "--timeout", "1\n::error::x"], in: root)
        #expect(usage.status == 64)
        #expect(usage.standardError.hasPrefix("coursebook check: ") && usage.standardError.contains("1<U+000A>::error::x"), "\(usage)")
        #expect(usage.standardError.components(separatedBy: "\n").count == 3, "\(usage)")
        let unknown = try coursebook(["x\n::error::y"], in: root)
        #expect(unknown.standardError.hasPrefix("coursebook: unknown command 'x<U+000A>::error::y'\n"), "\(unknown)")
        let built = try coursebook(["build", "course", "--out", "site\n::error::z", "--no-search"], in: root)
        #expect(built.status == 0, "\(built)")
        #expect(built.standardOutput.contains("\nwrote site<U+000A>::error::z: 3 pages"), "\(built)")
        #expect(commandLines(built.standardOutput + built.standardError).isEmpty)
    }

    /// Bidirectional controls in a scenario, an illustration, an output block and the prose:
    /// a warning at each line (an error with `--strict`), and on the page a marked token, never
    /// the character. A mark in prose (right-to-left text needs it) stays.
    @Test func bidiControlsAreWarnedAndShown() throws {
        let (root, _) = try course(lesson: """
            # Bidi

            Prose with an isolate \u{2066}here\u{2069}, and a mark \u{200F} in it.

            ```swift scenario
            let access = "user" // Check if admin\u{202E} \u{2066}
            print(access)
            ```

            ```output
            user
            ```

            ```swift
            let x = 1 \u{200F}+ 2
            ```

            """)
        defer { try? FileManager.default.removeItem(at: root) }
        let warned = try coursebook(["check", "course"], in: root)
        #expect(warned == CommandResult(status: 0, standardOutput: """
            compiled 1 scenario (1 swiftc run), 0 from the cache
            0 errors, 4 warnings
            1 passed, 0 failed

            """, standardError: """
            course/01-hostile.md:3:23: warning: U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP DIRECTIONAL ISOLATE in the prose reorder how the line shows (Trojan Source); remove them; the page shows each as a marked token
            course/01-hostile.md:6:38: warning: U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE in a scenario reorder how the line shows, so that it reads otherwise than the compiler reads it (Trojan Source); remove them, or write each as an escape such as \\u{202E} in a string; the page shows each as a marked token
            course/01-hostile.md:15:11: warning: U+200F RIGHT-TO-LEFT MARK in an illustration reorders how the line shows, so that it reads otherwise than the compiler reads it (Trojan Source); remove it, or write it as an escape such as \\u{200F} in a string; the page shows it as a marked token
            course/01-hostile.md:15:11: warning: illustration is not valid Swift: invalid character in source file

            """), "\(warned)")
        let strict = try coursebook(["check", "course", "--strict"], in: root)
        #expect(strict.status == 1)
        #expect(strict.standardError.hasPrefix("course/01-hostile.md:3:23: error: U+2066 LEFT-TO-RIGHT ISOLATE"), "\(strict)")

        let built = try coursebook(["build", "course", "--out", "site", "--no-search"], in: root)
        #expect(built.status == 0, "\(built)")
        let page = try String(contentsOf: root.appendingPathComponent("site/01-hostile.html"), encoding: .utf8)
        #expect(page.contains(#"Check if admin<mark class="bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE">U+202E</mark> <mark class="bidi" title="U+2066 LEFT-TO-RIGHT ISOLATE">U+2066</mark>"#), "\(page)")
        #expect(page.contains(#"an isolate <mark class="bidi" title="U+2066 LEFT-TO-RIGHT ISOLATE">U+2066</mark>here<mark class="bidi" title="U+2069 POP DIRECTIONAL ISOLATE">U+2069</mark>"#))
        #expect(page.contains(#"<mark class="bidi" title="U+200F RIGHT-TO-LEFT MARK">U+200F</mark>"#), "a mark in code is shown")
        #expect(page.contains("a mark \u{200F} in it"), "a mark in prose stays")
        for file in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("site").path) where file.hasSuffix(".html") {
            let html = try String(contentsOf: root.appendingPathComponent("site/" + file), encoding: .utf8)
            #expect(!html.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, "\(file)")
        }
    }

    /// Real shards of a course with a failing scenario, then tampered with: a report that says
    /// a failed scenario passed, a scenario in two shards, a shard emptied, a lesson the course
    /// lacks. Each is refused with exit status 2, naming the file; the reports as made merge
    /// into the red verdict.
    @Test func mergeReportsRefusesWhatNoShardHolds() throws {
        let (root, course) = try authorLoopCourse("merge-forged")
        defer { try? FileManager.default.removeItem(at: root) }
        try save(course.appendingPathComponent("03-averages.md"), replacing: "\n4.3\n", with: "\n4.4\n")
        for shard in 1...2 {
            let run = try coursebook(["check", "course", "--shard", "\(shard)/2", "--report", "shard-\(shard).json"], in: root)
            #expect(run.status == 0 || run.status == 1, "\(run)")
        }
        let honest = try coursebook(["merge-reports", "shard-1.json", "shard-2.json"], in: root)
        #expect(honest.status == 1, "\(honest)")
        #expect(honest.standardOutput.hasSuffix("5 passed, 1 failed, 1 skipped\n"), "\(honest)")

        func object(_ shard: Int) throws -> [String: Any] { try ReportFile(root.appendingPathComponent("shard-\(shard).json")).object }
        func write(_ object: [String: Any], _ name: String) throws {
            try JSONSerialization.data(withJSONObject: object).write(to: root.appendingPathComponent(name))
        }
        func merged(_ files: [String]) throws -> CommandResult { try coursebook(["merge-reports"] + files, in: root) }
        let holder = try ReportFile(root.appendingPathComponent("shard-1.json")).scenarios
            .contains { $0["status"] as? String == "failed" } ? 1 : 2
        let other = 3 - holder

        var forged = try object(holder)
        var scenarios = forged["scenarios"] as! [[String: Any]]
        let index = scenarios.firstIndex { $0["status"] as? String == "failed" }!
        let original = scenarios[index]
        scenarios[index]["status"] = "passed"
        scenarios[index]["findings"] = []
        forged["scenarios"] = scenarios
        forged["diagnostics"] = (forged["diagnostics"] as! [[String: Any]]).filter { $0["id"] as? String != "output-mismatch" }
        try write(forged, "forged.json")
        let green = try merged(holder == 1 ? ["forged.json", "shard-2.json"] : ["shard-1.json", "forged.json"])
        #expect(green == CommandResult(status: 2, standardOutput: "", standardError: """
            forged.json: error: the scenario at course/03-averages.md:7 says passed, but what it printed ('actual') differs from its 'output' block ('expected')

            """), "\(green)")

        var twice = try object(other)
        twice["scenarios"] = (twice["scenarios"] as! [[String: Any]]) + [original]
        try write(twice, "twice.json")
        let claimed = try merged(holder == 1 ? ["shard-1.json", "twice.json"] : ["twice.json", "shard-2.json"])
        #expect(claimed.status == 2)
        #expect(claimed.standardError.hasPrefix(holder == 1 ? "twice.json: error: the scenario at course/03-averages.md:7 is also in shard-1.json"
                                                : "shard-2.json: error: the scenario at course/03-averages.md:7 is also in twice.json"), "\(claimed)")

        var emptied = try object(2)
        emptied["scenarios"] = []
        try write(emptied, "empty.json")
        let empty = try merged(["shard-1.json", "empty.json"])
        #expect(empty.status == 2)
        #expect(empty.standardError.hasPrefix("empty.json: error: shard 2/2 holds no scenario, but the shards hold "), "\(empty)")

        var elsewhere = try object(2)
        var moved = elsewhere["scenarios"] as! [[String: Any]]
        moved[0]["file"] = "course/09-nowhere.md"
        elsewhere["scenarios"] = moved
        try write(elsewhere, "elsewhere.json")
        let stranger = try merged(["shard-1.json", "elsewhere.json"])
        #expect(stranger.status == 2)
        #expect(stranger.standardError.hasPrefix("elsewhere.json: error: the scenario at course/09-nowhere.md:"), "\(stranger)")
        #expect(stranger.standardError.hasSuffix(" is in no lesson of the report's course\n"), "\(stranger)")
    }
}
