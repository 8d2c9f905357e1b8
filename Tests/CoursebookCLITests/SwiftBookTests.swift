import Foundation
import Testing

/// A Swift book as it is written (listings.md, sections 4–5), run through the binary:
/// `Tests/Fixtures/swift-book` builds one program over a group of eight blocks with hidden
/// lines and checks green; `Tests/Fixtures/swift-book-broken` has a group that does not
/// compile, an error on a hidden line and a group that crashes in its second block.
@Suite(.serialized) struct SwiftBookTests {
    func copy(_ fixture: String) throws -> (root: URL, course: URL) {
        let root = temporaryFolder(fixture)
        let course = root.appendingPathComponent(fixture)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: course)
        return (root, course)
    }

    func edit(_ lesson: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try #require(text.contains(old), "\(lesson.lastPathComponent) holds no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: lesson, atomically: true, encoding: .utf8)
    }

    /// Each `output` block of the group is a result (six of them, and the scenario of its own);
    /// the group is one program: two compiler runs, and from the cache the second time. The
    /// second lesson's module is imported by a scenario and refused to an `errors` scenario
    /// that reaches its `internal` member (two more).
    @Test func theBookChecksGreenOneProgramPerGroupAndFromTheCacheTheSecondTime() throws {
        let (root, _) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try coursebook(["check", "swift-book", "--strict"], in: root)
        #expect(first == CommandResult(status: 0, standardOutput: "compiled 4 scenarios (4 swiftc runs), 0 from the cache\n9 passed, 0 failed\n",
                                       standardError: ""), "\(first)")
        let second = try coursebook(["check", "swift-book", "--strict"], in: root)
        #expect(second == CommandResult(status: 0, standardOutput: "compiled 0 scenarios, 4 from the cache\n9 passed, 0 failed\n",
                                        standardError: ""), "\(second)")
    }

    /// (The broken programs first share a lifted batch, which the compiler refuses: one swiftc
    /// run more than programs, each then compiled alone.)
    /// A compile error stands at the lesson line of the block it is in (and the group's other
    /// checked blocks fail, pointing at it); an error on a hidden line points at that line and
    /// column; a crash stands at the block that crashed, the blocks before it keep their
    /// verdicts and those after it are not reached.
    @Test func compileErrorsAndCrashesStandAtTheirBlocks() throws {
        let result = try coursebook(["check", "swift-book-broken", "--no-cache"])
        #expect(result.status == 1)
        #expect(result.standardOutput == "compiled 3 scenarios (4 swiftc runs), cache not used\n5 errors, 0 warnings\n1 passed, 5 failed\n", "\(result)")
        #expect(result.standardError.hasPrefix("""
            swift-book-broken/01-broken.md:9:1: error: the program of the group 'group=counter' does not compile (its first error is at line 19), so this block did not run
            swift-book-broken/01-broken.md:19:10: error: cannot convert value of type 'String' to expected argument type 'Int'
            swift-book-broken/01-broken.md:30:19: error: cannot convert value of type 'String' to specified type 'Int'
            swift-book-broken/01-broken.md:49:1: error: scenario crashed: signal 4 (SIGILL: a Swift trap)
            standard output:
                85
            standard error:

            """), "\(result)")
        #expect(result.standardError.contains("Fatal error: Index out of range\n"), "\(result)")
        #expect(result.standardError.hasSuffix("""
            swift-book-broken/01-broken.md:58:1: error: block not run: the group's program stopped in its block at line 49

            """), "\(result)")
    }

    /// A warm check of a book whose programs do not compile compiles nothing and says exactly
    /// what the cold check said; a line added above them moves their errors, and the programs
    /// whose errors moved are compiled again (the crash's verdict is its block's, wherever it
    /// stands).
    @Test func aWarmCheckOfBrokenProgramsCompilesNothingAndSaysTheSame() throws {
        let (root, course) = try copy("swift-book-broken")
        defer { try? FileManager.default.removeItem(at: root) }
        let cold = try coursebook(["check", "swift-book-broken"], in: root)
        #expect(cold.standardOutput == "compiled 3 scenarios (4 swiftc runs), 0 from the cache\n5 errors, 0 warnings\n1 passed, 5 failed\n", "\(cold)")
        let warm = try coursebook(["check", "swift-book-broken"], in: root)
        #expect(warm.standardOutput == "compiled 0 scenarios, 3 from the cache\n5 errors, 0 warnings\n1 passed, 5 failed\n", "\(warm)")
        #expect(warm.status == cold.status && warm.standardError == cold.standardError)

        try edit(course.appendingPathComponent("01-broken.md"), "# Broken Listings\n", "# Broken Listings\n\nOne line more.\n")
        let moved = try coursebook(["check", "swift-book-broken"], in: root)
        #expect(moved.standardOutput == "compiled 2 scenarios (3 swiftc runs), 1 from the cache\n5 errors, 0 warnings\n1 passed, 5 failed\n", "\(moved)")
        #expect(moved.standardError.hasPrefix("swift-book-broken/01-broken.md:11:1: error: the program of the group 'group=counter' does not compile (its first error is at line 21)"), "\(moved)")
        let fresh = try coursebook(["check", "swift-book-broken", "--no-cache"], in: root)
        #expect(moved.standardError == fresh.standardError)
    }

    /// Each `output` block holds what was printed since the group's previous one: a line printed
    /// in one block shows in its own block's diff only, and a hidden line's printing counts.
    @Test func eachOutputBlockIsJudgedOnWhatItsBlocksPrinted() throws {
        let (root, course) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let lesson = course.appendingPathComponent("01-classes.md")
        try edit(lesson, "alias.sides = 5\nprint(square.sides)\n", "alias.sides = 5\nprint(square.sides)\n# print(\"hidden\")\n")
        let result = try coursebook(["check", "swift-book", "--no-cache"], in: root)
        #expect(result == CommandResult(status: 1, standardOutput: "compiled 4 scenarios (4 swiftc runs), cache not used\n2 errors, 0 warnings\n7 passed, 2 failed\n", standardError: """
            swift-book/01-classes.md:91:1: error: output of the scenario at line 82 differs from its 'output' block at line 89
            --- expected (swift-book/01-classes.md:89)
            +++ actual
            @@ -1 +1,2 @@
             5
            +hidden
            swift-book/01-classes.md:101:1: error: output of the scenario at line 95 differs from its 'output' block at line 100
            --- expected (swift-book/01-classes.md:100)
            +++ actual
            @@ -1 +1 @@
            -14 32
            +14 33

            """), "\(result)")
    }

    /// `--update` rewrites only the blocks that no longer match and inserts the block the
    /// group's last block needs, byte for byte elsewhere; a second `--update` changes nothing.
    @Test func updateRewritesOnlyWhatNoLongerMatches() throws {
        let (root, course) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let lesson = course.appendingPathComponent("01-classes.md")
        try edit(lesson, "```output\nsquare 4\n```", "```output\nsquare four\n```")
        try edit(lesson, "\n## A listing of its own", "\n```swift scenario group=shapes\nprint(\"tail\")\n```\n\n## A listing of its own")
        let before = try String(contentsOf: lesson, encoding: .utf8)
        let check = try coursebook(["check", "swift-book", "--no-cache"], in: root)
        #expect(check.status == 1)
        #expect(check.standardError.contains("swift-book/01-classes.md:103:1: error: the group 'group=shapes' printed after its last 'output' block; add an 'output' block after this block (or run 'coursebook check --update')\ntail\n"), "\(check)")
        let update = try coursebook(["check", "swift-book", "--update"], in: root)
        #expect(update == CommandResult(status: 0, standardOutput: """
            swift-book/01-classes.md:27: updated the output block of the scenario at line 22
            swift-book/01-classes.md:107: inserted an output block for the scenario at line 103
            compiled 4 scenarios (4 swiftc runs), 0 from the cache
            10 passed, 0 failed

            """, standardError: ""), "\(update)")
        let after = try String(contentsOf: lesson, encoding: .utf8)
        let expected = before.replacingOccurrences(of: "square four\n", with: "square 4\n")
            .replacingOccurrences(of: "print(\"tail\")\n```\n", with: "print(\"tail\")\n```\n\n```output\ntail\n```\n")
        #expect(after == expected)
        let again = try coursebook(["check", "swift-book", "--update"], in: root)
        #expect(again == CommandResult(status: 0, standardOutput: "compiled 0 scenarios, 4 from the cache\n10 passed, 0 failed\n",
                                       standardError: ""), "\(again)")
        #expect(try String(contentsOf: lesson, encoding: .utf8) == after)
        let last = try coursebook(["check", "swift-book", "--strict"], in: root)
        #expect(last.status == 0, "\(last)")
    }

    /// The blocks of a group say what they may not: an `errors` block, a `trap` block before
    /// the last block.
    @Test func aGroupBlockRefusesAnErrorsBlockAndAnEarlyTrap() throws {
        let (root, course) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let lesson = course.appendingPathComponent("01-classes.md")
        try edit(lesson, "```output\nsquare 4\n```", "```output\nsquare 4\n```\n\n```trap\n```")
        try edit(lesson, "let triangle = Shape(name: \"triangle\", sides: 3)\n```", "let triangle = Shape(name: \"triangle\", sides: 3)\n```\n\n```errors\n1: error: x\n```")
        let result = try coursebook(["check", "swift-book", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError.contains("swift-book/01-classes.md:31:1: error: a 'trap' block may follow only the last block of the group 'group=shapes' (line 101): it is about the whole program\n"), "\(result)")
        #expect(result.standardError.contains("swift-book/01-classes.md:57:1: error: an 'errors' block never follows a block of a group ('group=shapes')"), "\(result)")
    }

    /// Out of the sandbox a group's program runs in an empty folder beside the files of its
    /// compile; the run's token reaches it through a pipe, never a file there that a block could
    /// read to print a boundary of its own.
    @Test func aGroupsTokenIsInNoFileItsProgramCanRead() throws {
        let (root, course) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        try edit(course.appendingPathComponent("01-classes.md"), "\n## A listing of its own", """

            ```swift scenario group=shapes
            # import Foundation
            let beside = try FileManager.default.contentsOfDirectory(atPath: "..")
            print(beside.filter { !$0.hasSuffix(".swift") && $0 != "program" && !$0.hasPrefix("run-") }, readLine() == nil)
            ```

            ```output
            [] true
            ```

            ## A listing of its own
            """)
        let result = try coursebook(["check", "swift-book", "--no-sandbox", "--no-cache"], in: root)
        #expect(result.status == 0, "\(result)")
    }

    // MARK: Modules of the course (listings.md, section 7)

    /// A module member made `internal` fails where a scenario uses it, with the compiler's
    /// words at the scenario's line and column; editing the module re-runs only the scenarios
    /// that import it (the group's programs stay cached).
    @Test func aMemberMadeInternalFailsWhereAScenarioUsesIt() throws {
        let (root, course) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let warm = try coursebook(["check", "swift-book"], in: root)
        #expect(warm.status == 0, "\(warm)")
        try edit(course.appendingPathComponent("02-modules.md"), "public var perimeter", "internal var perimeter")
        let result = try coursebook(["check", "swift-book"], in: root)
        #expect(result == CommandResult(status: 1, standardOutput: """
            compiled 2 scenarios (2 swiftc runs), 2 from the cache
            1 error, 0 warnings
            8 passed, 1 failed

            """, standardError: """
            swift-book/02-modules.md:33:27: error: 'perimeter' is inaccessible due to 'internal' protection level
            note: 'perimeter' declared here

            """), "\(result)")
    }

    /// A module that does not compile is an error at its line, and each scenario that imports
    /// it (an `errors` scenario too) is not run, never verified; a name the module cannot take
    /// is an error of its own; a scenario that imports nothing runs.
    @Test func aBrokenModuleAndBadNamesAreErrorsAndItsScenariosAreNotRun() throws {
        let result = try coursebook(["check", "swift-book-modules", "--no-cache"])
        #expect(result == CommandResult(status: 1, standardOutput: """
            compiled 1 scenario (1 swiftc run), cache not used
            6 errors, 0 warnings
            1 passed, 2 failed

            """, standardError: """
            swift-book-modules/01-modules.md:9:49: error: module 'Counter': cannot convert value of type 'String' to expected argument type 'Int'
            swift-book-modules/01-modules.md:14:1: error: not run: the scenario imports the module 'Counter', which does not compile (its errors are reported at its blocks)
            swift-book-modules/01-modules.md:5:1: note: the module 'Counter' begins here
            swift-book-modules/01-modules.md:27:1: error: not run: the scenario imports the module 'Counter', which does not compile (its errors are reported at its blocks)
            swift-book-modules/01-modules.md:5:1: note: the module 'Counter' begins here
            swift-book-modules/01-modules.md:37:1: error: 'module=Foundation': 'Foundation' is a module of the Swift toolchain; a course module of that name would hide it or be hidden by it; the block is shown, not compiled
            swift-book-modules/01-modules.md:41:1: error: 'module=main': 'main' is the module every scenario is compiled as; a course module takes another name; the block is shown, not compiled
            swift-book-modules/01-modules.md:45:1: error: 'module=2D': '2D' is not a Swift identifier: a module's name is letters, digits and '_', not starting with a digit (module=Shapes); the block is shown, not compiled

            """), "\(result)")
        // Three findings of their own, by id.
        let root = temporaryFolder("modules-report")
        defer { try? FileManager.default.removeItem(at: root) }
        let report = root.appendingPathComponent("report.json").path
        _ = try coursebook(["check", "swift-book-modules", "--no-cache", "--report", report])
        let written = try String(contentsOfFile: report, encoding: .utf8)
        for id in ["module-compile-error", "module-not-built", "module-name-invalid"] {
            #expect(written.contains("\"\(id)\""), "\(id) in \(written)")
        }
    }

    /// In the sandbox, the compiler sees the module's built folder (read-only) and nothing of
    /// the cache around it: the book checks green there, cold and warm.
    @Test func modulesCompileInTheSandbox() throws {
        let (root, _) = try copy("swift-book")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try coursebook(["check", "swift-book", "--sandbox", "required"], in: root)
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput.hasSuffix("9 passed, 0 failed\n"), "\(first)")
    }
}
