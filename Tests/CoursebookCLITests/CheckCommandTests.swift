import Foundation
import Testing

/// `coursebook check` on the fixture courses under Tests/Fixtures, through the built binary:
/// every error of the format, asserted on its message, its line and the exit status.
@Suite struct CheckCommandTests {
    static let core = "../../Sources/Invalidation/Invalidation.swift"

    /// Runs `check` on a fixture with a cache of its own, so that every run compiles.
    func check(_ fixture: String, _ extra: [String] = []) throws -> CommandResult {
        let cache = temporaryFolder("cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        return try coursebook(["check", fixture, "--cache-dir", cache.path] + extra)
    }

    @Test func aCourseNoOneHereWroteChecksGreen() throws {
        let result = try check("passing")
        #expect(result == CommandResult(status: 0, standardOutput: """
            compiled 2 scenarios (2 swiftc runs), 0 from the cache
            2 passed, 0 failed, 1 skipped

            """, standardError: ""))
    }

    @Test func oneChangedExpectedLineFailsWithTheDiffAndItsLine() throws {
        // The result bound first, so that a failure prints what the check said.
        let result = try check("output-mismatch")
        #expect(result == CommandResult(status: 1, standardOutput: """
            compiled 2 scenarios (2 swiftc runs), 0 from the cache
            1 error, 0 warnings
            1 passed, 1 failed, 1 skipped

            """, standardError: """
            output-mismatch/01-counter.md:33:1: error: output of the scenario at line 18 differs from its 'output' block at line 31
            --- expected (output-mismatch/01-counter.md:31)
            +++ actual
            @@ -1,5 +1,5 @@
             arttir: count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer
            -tema: theme degisti | yeniden Label ortam | atlanan App,Counter,Footer
            +tema: theme degisti | yeniden Label ortam, Footer ortam | atlanan App,Counter
             bos: missing degisti | yeniden yok | atlanan App,Counter,Label,Footer
             yerel: 1
             ebeveyn: 1

            """))
    }

    @Test func theSecondCheckComesFromTheCache() throws {
        let cache = temporaryFolder("warm")
        defer { try? FileManager.default.removeItem(at: cache) }
        _ = try coursebook(["check", "passing", "--cache-dir", cache.path])
        let warm = try coursebook(["check", "passing", "--cache-dir", cache.path])
        #expect(warm.standardOutput == "compiled 0 scenarios, 2 from the cache\n2 passed, 0 failed, 1 skipped\n")
        let bypassed = try coursebook(["check", "passing", "--no-cache"])
        #expect(bypassed.standardOutput == "compiled 2 scenarios (2 swiftc runs), cache not used\n2 passed, 0 failed, 1 skipped\n")
    }

    @Test func editingOneScenarioRecompilesOnlyThatOne() throws {
        let course = try copyOfFixture("passing")
        defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
        _ = try coursebook(["check", course.path])
        let lesson = course.appendingPathComponent("01-counter.md")
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try text.replacingOccurrences(of: "print(tree.names)", with: "print(tree.names, tree.names.count)")
            .replacingOccurrences(of: "[\"Root\"]\nm: k", with: "[\"Root\"] 1\nm: k")
            .write(to: lesson, atomically: true, encoding: .utf8)
        let result = try coursebook(["check", course.path])
        #expect(result.standardOutput == "compiled 1 scenario (1 swiftc run), 1 from the cache\n2 passed, 0 failed, 1 skipped\n")
        #expect(result.status == 0)
    }

    /// Each fault fixture: exit status, standard error exactly.
    @Test(arguments: [
        ("missing-output", [], 1, """
            missing-output/01-lesson.md:3:1: error: scenario has no 'output' block; add one after it (or run 'coursebook check --update')

            """),
        ("orphan-output", [], 1, """
            orphan-output/01-lesson.md:3:1: error: 'output' block has no scenario above it
            orphan-output/01-lesson.md:15:1: error: second 'output' block for the scenario at line 7; a scenario has exactly one
            orphan-output/01-lesson.md:11:1: note: its first 'output' block is here

            """),
        ("core-drift", [], 1, """
            core-drift/01-lesson.md:69:1: error: core listing differs from \(core) (run 'coursebook check --update' to copy the file in)
            --- listing (core-drift/01-lesson.md:5)
            +++ \(core)
            @@ -61,7 +61,7 @@
                     case .state(let owner):
                         if owner == node.name { return "yerel" }
                         if ancestors(of: node.name).contains(owner) { return "ebeveyn" }
            -            return "kural disi"
            +            return "kural-disi"
                     }
                 }
             

            """),
        ("limit-note-gap", [], 1, """
            limit-note-gap/02-two.md:5:1: error: DR4 follows DR2: DR3 is missing

            """),
        ("limit-note-repeat", [], 1, """
            limit-note-repeat/02-two.md:3:1: error: DR2 repeats a number already used
            limit-note-repeat/01-one.md:5:1: note: DR2 is first here

            """),
        ("limit-note-order", [], 1, """
            limit-note-order/01-one.md:5:1: error: DR3 follows DR1: DR2 is missing
            limit-note-order/01-one.md:7:1: error: DR2 comes after DR3; notes are numbered in course order

            """),
        ("missing-title", [], 1, """
            missing-title/01-untitled.md:1:1: error: lesson has no title: its first level-1 heading ('# ...') names it

            """),
        ("section-without-note", [], 0, """
            section-without-note/01-lesson.md:15:1: warning: section 'Measured, Without a Note' holds a scenario but no limitation note; say what the measurement did not cover ('DRn. ...') or cite an earlier note ('DRn')

            """),
        ("section-without-note", ["--strict"], 1, """
            section-without-note/01-lesson.md:15:1: error: section 'Measured, Without a Note' holds a scenario but no limitation note; say what the measurement did not cover ('DRn. ...') or cite an earlier note ('DRn')

            """),
        ("illustration-syntax", [], 0, """
            illustration-syntax/01-lesson.md:6:20: warning: illustration is not valid Swift: expected ')' to end function call

            """),
        ("illustration-syntax", ["--strict"], 1, """
            illustration-syntax/01-lesson.md:6:20: error: illustration is not valid Swift: expected ')' to end function call

            """),
        ("compile-error", [], 1, """
            compile-error/01-lesson.md:7:18: error: value of type 'ViewTree' has no member 'chnge'

            """),
        ("missing-brace", [], 1, """
            missing-brace/01-lesson.md:18:1: error: expected '}' at end of brace statement
            missing-brace/01-lesson.md:16:14: note: to match this opening '{'

            """),
        ("crash", [], 1, """
            crash/01-lesson.md:3:1: error: scenario crashed: signal 4 (SIGILL: a Swift trap)
            standard output:
                before the trap
            standard error:
                Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range

            """),
        ("timeout", ["--timeout", "1"], 1, """
            timeout/01-lesson.md:3:1: error: scenario ran longer than 1 s and was stopped (--timeout sets the limit)
            standard output:
                spinning

            """),
        ("crlf", [], 0, ""),
        ("no-course-json", [], 2, """
            no-course-json/course.json: error: no course.json: a course folder needs one (title, language; core when scenarios share code)

            """),
        ("missing-core", [], 2, """
            missing-core/course.json:2:1: error: core file '../Nowhere/Core.swift' does not exist (Nowhere/Core.swift)

            """),
        ("not-utf8", [], 2, """
            not-utf8/01-latin1.md:4:22: error: not UTF-8: byte 54 (line 4, column 22) does not decode; save the file as UTF-8

            """),
        ("invalid-json", [], 2, """
            invalid-json/course.json:4:3: error: not valid JSON: invalid value

            """),
        ("no-such-course", [], 2, """
            no-such-course: error: no course folder here

            """),
    ] as [(String, [String], Int32, String)])
    func faults(fixture: String, extra: [String], status: Int32, standardError: String) throws {
        let result = try check(fixture, extra)
        #expect(result.status == status, "\(result)")
        #expect(result.standardError == standardError)
        // The tally, exactly: a lesson-rule error fails the check with no scenario failed.
        let key = ([fixture] + extra).joined(separator: " ")
        if status == 2 {
            #expect(result.standardOutput == "")
        } else {
            let tally = try #require(Self.tallies[key], "no tally for \(key)")
            #expect(result.standardOutput.hasSuffix("\n" + tally + "\n"), "\(result.standardOutput)")
        }
    }

    static let tallies = [
        "missing-output": "0 passed, 1 failed", "orphan-output": "1 passed, 0 failed",
        "core-drift": "0 passed, 0 failed", "limit-note-gap": "0 passed, 0 failed",
        "limit-note-repeat": "0 passed, 0 failed", "limit-note-order": "0 passed, 0 failed",
        "missing-title": "0 passed, 0 failed", "section-without-note": "2 passed, 0 failed",
        "section-without-note --strict": "2 passed, 0 failed", "illustration-syntax": "0 passed, 0 failed",
        "illustration-syntax --strict": "0 passed, 0 failed", "compile-error": "1 passed, 1 failed",
        "missing-brace": "2 passed, 1 failed", "crash": "1 passed, 1 failed",
        "timeout --timeout 1": "1 passed, 1 failed", "crlf": "1 passed, 0 failed",
    ]

    @Test func countsOfTheFaults() throws {
        #expect(try check("compile-error").standardOutput
                == "compiled 2 scenarios (3 swiftc runs), 0 from the cache\n1 error, 0 warnings\n1 passed, 1 failed\n")
        #expect(try check("crash").standardOutput
                == "compiled 2 scenarios (1 swiftc run), 0 from the cache\n1 error, 0 warnings\n1 passed, 1 failed\n")
        #expect(try check("section-without-note").standardOutput
                == "compiled 2 scenarios (1 swiftc run), 0 from the cache\n0 errors, 1 warning\n2 passed, 0 failed\n")
    }

    @Test func outputPastTheCapIsCutAndReported() throws {
        let result = try check("output-cap")
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first == "output-cap/01-lesson.md:3:1: error: scenario printed more than 1 MiB and was stopped; its output is cut there")
        #expect(lines.count <= 24)
    }

    @Test func updateRewritesOnlyItsBlocksAndThenChangesNothing() throws {
        let course = try copyOfFixture("update")
        defer { try? FileManager.default.removeItem(at: course.deletingLastPathComponent()) }
        let lesson = course.appendingPathComponent("01-lesson.md")
        let before = try Data(contentsOf: lesson)
        let first = try coursebook(["check", "update", "--update", "--no-cache"], in: course.deletingLastPathComponent())
        #expect(first.status == 0, "\(first)")
        #expect(first.standardOutput == """
            update/01-lesson.md:10: updated the output block of the scenario at line 5
            update/01-lesson.md:15: updated the core listing from update/Invalidation.swift
            update/01-lesson.md:112: inserted an output block for the scenario at line 18
            compiled 2 scenarios (1 swiftc run), cache not used
            2 passed, 0 failed

            """)

        // Every byte outside the rewritten blocks is as it was: BOM, CRLF, trailing spaces,
        // the tilde fence, the indent of the listing, the missing final line end.
        let coreLines = try String(contentsOf: course.appendingPathComponent("Invalidation.swift"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? "" : "   " + $0 }.joined(separator: "\r\n")
        let original = String(decoding: before, as: UTF8.self)
        let expected = original
            .replacingOccurrences(of: "~~~output\r\nold\r\n~~~", with: "~~~output\r\nnew\r\n```\r\n~~~")
            .replacingOccurrences(of: "   stale\r\n", with: coreLines + "\r\n")
            .replacingOccurrences(of: "print(\"inserted\")\r\n```\r\n", with: "print(\"inserted\")\r\n```\r\n\r\n```output\r\ninserted\r\n```\r\n")
        #expect(String(decoding: try Data(contentsOf: lesson), as: UTF8.self) == expected)

        let second = try coursebook(["check", "update", "--update", "--no-cache"], in: course.deletingLastPathComponent())
        #expect(second.standardOutput == "compiled 2 scenarios (1 swiftc run), cache not used\n2 passed, 0 failed\n")
        #expect(String(decoding: try Data(contentsOf: lesson), as: UTF8.self) == expected)
    }

    /// A block `--update` cannot place (a scenario whose fence is never closed) is an
    /// `update-failed` error at the scenario, and the lesson stays as it was.
    @Test func anUpdateThatCannotBePlacedFailsAtTheScenario() throws {
        let root = temporaryFolder("update-failed")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: course, withIntermediateDirectories: true)
        try #"{ "title": "T", "language": "en", "limitNotes": "optional" }"#
            .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        let text = "# A\n\n```swift scenario\nprint(\"hi\")\n"
        try text.write(to: course.appendingPathComponent("01-a.md"), atomically: true, encoding: .utf8)
        let result = try coursebook(["check", "course", "--update", "--no-cache"], in: root)
        #expect(result == CommandResult(status: 1, standardOutput: """
            compiled 1 scenario (1 swiftc run), cache not used
            1 error, 0 warnings
            0 passed, 1 failed

            """, standardError: "course/01-a.md:3:1: error: cannot update: the scenario's code block is not closed\n"))
        #expect(try String(contentsOf: course.appendingPathComponent("01-a.md"), encoding: .utf8) == text)
    }

    /// Output a Markdown block cannot hold (NUL, a carriage return alone) is an error that names
    /// the byte and its line, never an update that changes the lesson on every run; CRLF is a
    /// line end, as in the lesson: updated once, then equal.
    @Test func outputALessonCannotHoldIsAnErrorAndCRLFConverges() throws {
        let root = temporaryFolder("unholdable")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: course, withIntermediateDirectories: true)
        try #"{ "title": "T", "language": "en", "limitNotes": "optional" }"#
            .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        let text = #"""
            # A

            ```swift scenario
            print("a\0b")
            ```

            ```swift scenario
            print("one")
            print("two\rthree")
            ```

            ```swift scenario
            print("x\r\ny")
            print("z")
            ```

            """#
        try text.write(to: course.appendingPathComponent("01-a.md"), atomically: true, encoding: .utf8)
        let errors = """
            course/01-a.md:3:1: error: scenario has no 'output' block; add one after it (or run 'coursebook check --update')
            course/01-a.md:3:1: error: scenario printed a NUL byte (\\0) on line 1 of its output, which an 'output' block cannot hold (Markdown reads it as U+FFFD); print it some other way, such as escaped
            course/01-a.md:7:1: error: scenario has no 'output' block; add one after it (or run 'coursebook check --update')
            course/01-a.md:7:1: error: scenario printed a carriage return (\\r) without a line feed on line 2 of its output, which an 'output' block cannot hold (Markdown reads it as a line end); print it some other way, such as escaped

            """
        let first = try coursebook(["check", "course", "--update", "--no-cache"], in: root)
        #expect(first == CommandResult(status: 1, standardOutput: """
            course/01-a.md:17: inserted an output block for the scenario at line 12
            compiled 3 scenarios (1 swiftc run), cache not used
            4 errors, 0 warnings
            1 passed, 2 failed

            """, standardError: errors))
        #expect(try String(contentsOf: course.appendingPathComponent("01-a.md"), encoding: .utf8)
                == text.replacingOccurrences(of: "print(\"z\")\n```\n", with: "print(\"z\")\n```\n\n```output\nx\ny\nz\n```\n"))
        let second = try coursebook(["check", "course", "--update", "--no-cache"], in: root)
        #expect(second.standardOutput == "compiled 3 scenarios (1 swiftc run), cache not used\n4 errors, 0 warnings\n1 passed, 2 failed\n")
        #expect(second.standardError == errors)
    }

    /// A `--cache-dir` that cannot hold the cache is a wrong command line, not a run that
    /// silently keeps nothing.
    @Test func aCacheFolderThatIsAFileIsRefused() throws {
        let root = temporaryFolder("cache-file")
        defer { try? FileManager.default.removeItem(at: root) }
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("cache").path, contents: Data())
        let file = try coursebook(["check", fixtures.appendingPathComponent("passing").path, "--cache-dir", "cache"], in: root)
        #expect(file == CommandResult(status: 64, standardOutput: "",
                                      standardError: "coursebook check: check failed in step read: --cache-dir cache: this is a file; the cache needs a folder\n"))
        let below = try coursebook(["build", fixtures.appendingPathComponent("passing").path, "--out", "site", "--cache-dir", "cache/results"], in: root)
        #expect(below == CommandResult(status: 64, standardOutput: "",
                                       standardError: "coursebook build: build failed in step read: --cache-dir cache/results: cannot make the folder: cache is a file\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["cache"])
    }

    /// No compiler: exit status 5, with what to do about it, before anything runs.
    @Test func noSwiftCompilerIsExitStatusFive() throws {
        let result = try coursebook(["check", "passing", "--no-cache"], environment: ["COURSEBOOK_SWIFTC": "/nowhere/swiftc"])
        #expect(result == CommandResult(status: 5, standardOutput: "", standardError: """
            coursebook check: check failed in step run: cannot find '/nowhere/swiftc' on PATH: scenarios need the Swift toolchain (set COURSEBOOK_SWIFTC to choose a compiler)

            """))
    }

    /// A clang that cannot compile the batch runner: every scenario is compiled alone, each
    /// verdict the same, and the check says why it was slower.
    @Test func aRunnerThatCannotBeCompiledIsSaid() throws {
        let root = temporaryFolder("runner-clang")
        defer { try? FileManager.default.removeItem(at: root) }
        let course = root.appendingPathComponent("course"), tools = root.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: course, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try #"{ "title": "Three Prints", "language": "en", "limitNotes": "optional" }"#
            .write(to: course.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        try ("# Prints\n\n" + (1...3).map { "```swift scenario\nprint(\($0))\n```\n\n```output\n\($0)\n```\n" }.joined(separator: "\n"))
            .write(to: course.appendingPathComponent("01-prints.md"), atomically: true, encoding: .utf8)
        // The real compiler behind a script of a folder of its own, beside a clang that fails.
        let real = try #require(findOnPathForTests("swiftc"))
        let swiftc = tools.appendingPathComponent("swiftc").path, clang = tools.appendingPathComponent("clang").path
        try "#!/bin/sh\nexec '\(real)' \"$@\"\n".write(toFile: swiftc, atomically: true, encoding: .utf8)
        try "#!/bin/sh\necho 'clang: error: cannot compile anything' >&2\nexit 1\n".write(toFile: clang, atomically: true, encoding: .utf8)
        chmod(swiftc, 0o755)
        chmod(clang, 0o755)
        let environment = ["COURSEBOOK_SWIFTC": swiftc, "XDG_CACHE_HOME": root.appendingPathComponent("user-cache").path]
        let result = try coursebook(["check", course.path, "--no-cache", "--sandbox", "off"], environment: environment)
        #expect(result == CommandResult(status: 0, standardOutput: """
            compiled 3 scenarios (3 swiftc runs), cache not used
            3 passed, 0 failed

            """, standardError: """
            coursebook check: note: every scenario was compiled alone, which is slower: coursebook could not compile the program that runs a batch of them (\(clang) ended with exit status 1: clang: error: cannot compile anything)

            """))
        // With the toolchain's own clang: one batch, and nothing said.
        let batched = try coursebook(["check", course.path, "--no-cache", "--sandbox", "off"],
                                     environment: ["XDG_CACHE_HOME": root.appendingPathComponent("user-cache").path])
        #expect(batched == CommandResult(status: 0, standardOutput: "compiled 3 scenarios (1 swiftc run), cache not used\n3 passed, 0 failed\n",
                                         standardError: ""))
    }

    /// A user's cache that cannot be written (here `XDG_CACHE_HOME` is a file; a read-only
    /// home on a CI runner is the same): the check passes and says so once, in the system's
    /// words.
    @Test func aUserCacheThatCannotBeWrittenIsNoted() throws {
        let root = temporaryFolder("user-cache-blocked")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocked = root.appendingPathComponent("cache-file")
        try Data().write(to: blocked)
        // (In the sandbox: outside it the compiler keeps its own module cache there too, and fails.)
        let result = try coursebook(["check", "passing", "--no-cache"], environment: ["XDG_CACHE_HOME": blocked.path])
        #expect(result == CommandResult(status: 0, standardOutput: """
            compiled 2 scenarios (2 swiftc runs), cache not used
            2 passed, 0 failed, 1 skipped

            """, standardError: """
            coursebook check: note: the cache every course shares cannot be written (cannot make \(blocked.path)/coursebook: Not a directory): the Swift this check read and the compiles it planned are not kept for other checks, which do them again

            """))
    }

    @Test func theDefaultCourseFolderIsLessons() throws {
        let root = temporaryFolder("default")
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try coursebook(["check"], in: root)
        #expect(result == CommandResult(status: 2, standardOutput: "", standardError: "lessons: error: no course folder here\n"))
    }
}

/// The command line itself: help, version, usage errors.
struct CommandLineTests {
    @Test(arguments: [
        (["check", "--bogus"], "coursebook check: unknown option '--bogus'\nsee 'coursebook check --help'\n"),
        (["check", "a", "b"], "coursebook check: unexpected argument 'b'\nsee 'coursebook check --help'\n"),
        (["check", "--timeout"], "coursebook check: '--timeout' needs a value\nsee 'coursebook check --help'\n"),
        (["check", "passing", "--timeout", "soon"], "coursebook check: '--timeout' needs a number of seconds greater than 0, not 'soon'\nsee 'coursebook check --help'\n"),
        (["check", "passing", "--timeout", "0.0001"], "coursebook check: '--timeout' needs at least 0.001 seconds (1 ms), not '0.0001'\nsee 'coursebook check --help'\n"),
        (["check", "passing", "--cache-dir", ""], "coursebook check: '--cache-dir' needs a folder, not an empty name\nsee 'coursebook check --help'\n"),
        (["build", "passing", "--out", "site", "--cache-dir="], "coursebook build: '--cache-dir' needs a folder, not an empty name\nsee 'coursebook build --help'\n"),
        (["check", "--strict=yes"], "coursebook check: '--strict' takes no value\nsee 'coursebook check --help'\n"),
        (["help", "nothing"], "coursebook help: no command 'nothing' (commands: check, build, watch, serve, new, merge-reports, lsp)\n"),
        (["help", "check", "build"], "coursebook help: unexpected argument 'build'\nsee 'coursebook help --help'\n"),
        (["build", "passing", "--out="], "coursebook build: '--out' needs a folder\nsee 'coursebook build --help'\n"),
        (["check", "passing", "01-counter.md"], "coursebook check: give a course folder or lesson files, not both ('passing' is not a lesson file)\nsee 'coursebook check --help'\n"),
        (["check", "passing/01-counter.md", "update/01-counter.md"], "coursebook check: lesson files of one course only: 'update/01-counter.md' is not in the folder of 'passing/01-counter.md'\nsee 'coursebook check --help'\n"),
        (["check", "passing/01-counter.md", "./passing/01-counter.md"], "coursebook check: './passing/01-counter.md' is given twice\nsee 'coursebook check --help'\n"),
        (["check", "--shard", "3/2"], "coursebook check: '--shard' is K/N with 1 <= K <= N (2/4), not '3/2'\nsee 'coursebook check --help'\n"),
        (["check", "--shard", "1/2", "--update"], "coursebook check: '--update' rewrites lessons and cannot run on a shard; run it without '--shard'\nsee 'coursebook check --help'\n"),
        (["check", "--report", "out.txt"], "coursebook check: '--report' writes a .json or a .xml file, not 'out.txt'\nsee 'coursebook check --help'\n"),
        (["check", "--format", "json"], "coursebook check: '--format' is text or github, not 'json'\nsee 'coursebook check --help'\n"),
        (["watch", "--out="], "coursebook watch: '--out' needs a folder\nsee 'coursebook watch --help'\n"),
        (["watch", "--port", "1"], "coursebook watch: unknown option '--port'\nsee 'coursebook watch --help'\n"),
        (["serve", "--port", "65536"], "coursebook serve: '--port' is a number from 0 to 65535, not '65536'\nsee 'coursebook serve --help'\n"),
        (["serve", "a", "b"], "coursebook serve: unexpected argument 'b'\nsee 'coursebook serve --help'\n"),
        (["new"], "coursebook new: what to make is missing: 'coursebook new lesson TITLE [COURSE_DIR]'\nsee 'coursebook new --help'\n"),
        (["new", "course", "X"], "coursebook new: 'course' is not something 'new' makes: 'coursebook new lesson TITLE [COURSE_DIR]'\nsee 'coursebook new --help'\n"),
        (["new", "lesson"], "coursebook new: the lesson's title is missing: 'coursebook new lesson TITLE [COURSE_DIR]'\nsee 'coursebook new --help'\n"),
        (["new", "lesson", "  "], "coursebook new: the lesson's title is empty\nsee 'coursebook new --help'\n"),
        (["new", "lesson", "a\nb"], "coursebook new: the lesson's title is one line of text, without control characters\nsee 'coursebook new --help'\n"),
        (["new", "lesson", "?!"], "coursebook new: the lesson's title needs a letter or a digit, not '?!'\nsee 'coursebook new --help'\n"),
        (["new", "lesson", "T", "c", "x"], "coursebook new: unexpected argument 'x'\nsee 'coursebook new --help'\n"),
        (["merge-reports"], "coursebook merge-reports: no reports to merge: give the shards' JSON reports (check --shard K/N --report FILE.json)\nsee 'coursebook merge-reports --help'\n"),
        (["merge-reports", "a.json", "--shard", "1/2"], "coursebook merge-reports: unknown option '--shard'\nsee 'coursebook merge-reports --help'\n"),
        (["--version", "x"], "coursebook: '--version' takes no argument\nsee 'coursebook --help'\n"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let result = try coursebook(arguments)
        #expect(result.status == 64)
        #expect(result.standardError == message)
        #expect(result.standardOutput == "")
    }

    @Test func unknownCommandAndNoCommandShowTheOverview() throws {
        let unknown = try coursebook(["publish"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.hasPrefix("coursebook: unknown command 'publish'\n\ncoursebook: checks"))
        let none = try coursebook([])
        #expect(none.status == 64)
        #expect(none.standardError.contains("usage: coursebook <command> [options]"))
    }

    @Test func helpAndVersion() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try coursebook(arguments)
            #expect(result.status == 0)
            for usage in ["check [COURSE_DIR | LESSON.md ...]", "build [COURSE_DIR] --out DIR", "watch [COURSE_DIR] [--out DIR]",
                          "serve [COURSE_DIR] [--port N]", "new lesson TITLE [COURSE_DIR]", "merge-reports SHARD.json ..."] {
                #expect(result.standardOutput.contains("  " + usage + " "))
            }
        }
        for (command, usage) in [("check", "check [COURSE_DIR | LESSON.md ...]"), ("build", "build [COURSE_DIR] --out DIR"),
                                 ("watch", "watch [COURSE_DIR] [--out DIR]"), ("serve", "serve [COURSE_DIR] [--port N]"),
                                 ("new", "new lesson TITLE [COURSE_DIR] [--errors]"), ("merge-reports", "merge-reports SHARD.json ...")] {
            let result = try coursebook([command, "--help"])
            #expect(result.status == 0)
            #expect(result.standardOutput.hasPrefix("usage: coursebook \(usage)"))
            #expect(try coursebook(["help", command]).standardOutput == result.standardOutput)
        }
        #expect(try coursebook(["new", "lesson", "--help"]).standardOutput == (try coursebook(["new", "--help"])).standardOutput)
    }

    /// `--version` names the tool's version and the compiler that scenarios are compiled with
    /// (the one COURSEBOOK_SWIFTC names), or says that there is none.
    @Test func versionNamesTheCompiler() throws {
        let result = try coursebook(["--version"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "coursebook 0.1.0")
        #expect(lines.count == 2 && lines[1].hasPrefix("scenarios run with: Swift version "), "\(result)")
        let none = try coursebook(["--version"], environment: ["COURSEBOOK_SWIFTC": "no-such-swiftc"])
        #expect(none.status == 0)
        #expect(none.standardOutput.hasPrefix("coursebook 0.1.0\nscenarios run with: no compiler: cannot find 'no-such-swiftc' on PATH"), "\(none)")
    }
}
