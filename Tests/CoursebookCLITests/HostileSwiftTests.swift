import Foundation
import TestSupport
import Testing

/// Swift that the toolchain's parser cannot read in linear time or on its stack, in lessons
/// from strangers: nested array literals (each level doubles the parse; thousands overflow its
/// stack), a chain of arrows (its stack, with no bracket at all), a core file nested too deep.
/// The check ends at once with a finding at the block's line; scenarios are still compiled
/// and run, and the page shows the block as plain text.
@Suite(.serialized) struct HostileSwiftTests {
    func course(_ lessons: [String: String], core: String? = nil) throws -> URL {
        let folder = temporaryFolder("hostile-swift").appendingPathComponent("course")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let coreList = core == nil ? "" : #", "core": ["Core.swift"]"#
        try Data(#"{ "title": "T", "language": "en", "limitNotes": "optional"\#(coreList) }"#.utf8)
            .write(to: folder.appendingPathComponent("course.json"))
        if let core { try Data(core.utf8).write(to: folder.appendingPathComponent("Core.swift")) }
        for (name, text) in lessons { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    func nested(_ levels: Int) -> String {
        String(repeating: "[", count: levels) + "1" + String(repeating: "]", count: levels)
    }

    @Test func deeplyNestedArraysAreReportedNotParsed() throws {
        let lesson = """
            # Deep

            An illustration 24 levels deep, which took the parser past 25 s:

            ```swift
            let x = \(nested(24))
            ```

            One 3,000 levels deep, which overflowed its stack:

            ```swift
            let y = \(nested(3000))
            ```

            And a scenario 8 levels deep, which the compiler reads in no time:

            ```swift scenario
            let z = \(nested(8))
            print(z)
            ```

            ```output
            \(nested(8))
            ```

            """
        let folder = try course(["01-deep.md": lesson])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let file = folder.path + "/01-deep.md"
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == """
            \(file):6:14: warning: coursebook did not read this Swift block: square brackets nested 24 deep; coursebook reads Swift with square brackets nested up to 5 deep (each level doubles the parser's time); its syntax is not checked, and it is shown without highlighting
            \(file):12:14: warning: coursebook did not read this Swift block: square brackets nested 3000 deep; coursebook reads Swift with square brackets nested up to 5 deep (each level doubles the parser's time); its syntax is not checked, and it is shown without highlighting
            \(file):18:14: warning: coursebook did not read this Swift block: square brackets nested 8 deep; coursebook reads Swift with square brackets nested up to 5 deep (each level doubles the parser's time); it is compiled and run as a program of its own, and shown without highlighting

            """, "\(result)")
        #expect(result.standardOutput == "compiled 1 scenario (1 swiftc run), cache not used\n0 errors, 3 warnings\n1 passed, 0 failed\n", "\(result)")

        let strict = try coursebook(["check", folder.path, "--no-cache", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.standardError.components(separatedBy: ": error: coursebook did not read this Swift block").count == 4, "\(strict)")

        // The page shows each of them as its text, escaped, without a highlighted token.
        let site = folder.deletingLastPathComponent().appendingPathComponent("site")
        let built = try coursebook(["build", folder.path, "--no-cache", "--no-search", "--out", site.path])
        #expect(built.status == 0, "\(built)")
        let page = try String(contentsOfFile: site.path + "/01-deep.html", encoding: .utf8)
        #expect(page.contains("let y = " + nested(3000)))
        #expect(page.contains("let z = " + nested(8)))
        #expect(!page.contains("tok-keyword\">let</span> y"), "an unread block was highlighted")
    }

    /// No bracket at all: 4,000 arrows in a type recurse in the parser until its stack
    /// overflows. The process that read it crashed, not the check.
    @Test func aParserCrashIsAFindingNotACrash() throws {
        let code = "let f: " + String(repeating: "() -> ", count: 4000) + "Int"
        let folder = try course(["01-arrows.md": "# Arrows\n\n```swift\n\(code)\n```\n"])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "\(folder.path)/01-arrows.md:4:1: warning: coursebook did not read this Swift block: the Swift parser crashed on it (signal 11, most likely its stack overflowed); its syntax is not checked, and it is shown without highlighting\n", "\(result)")
        #expect(result.standardOutput == "compiled 0 scenarios, cache not used\n0 errors, 1 warning\n0 passed, 0 failed\n")
    }

    /// What the nesting count cannot see (the parser reads this string's end differently from
    /// any lexer, and then meets 24 nested arrays) is read under a time limit and reported
    /// when it passes.
    @Test func aReadingThatTakesTooLongIsStopped() throws {
        let code = #"let x = "\(a "+"# + nested(24) + #"""#
        let folder = try course(["01-slow.md": "# Slow\n\n```swift\n\(code)\n```\n"])
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let start = ContinuousClock.now
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "\(folder.path)/01-slow.md:4:1: warning: coursebook did not read this Swift block: reading it took longer than 5 s, the time coursebook gives the Swift parser for a block this size; its syntax is not checked, and it is shown without highlighting\n", "\(result)")
    }

    /// A core file nested too deep: its names are not known, so no scenario shares a program
    /// with another, and every one still runs.
    @Test func aCoreNestedTooDeepIsReportedAndEveryScenarioRunsAlone() throws {
        let core = "func level() -> Int { 1 }\nlet table = \(nested(9))\n"
        let lesson = "# Core\n\n```swift scenario\nprint(level())\n```\n\n```output\n1\n```\n\n```swift scenario\nprint(level() + 1)\n```\n\n```output\n2\n```\n"
        let folder = try course(["01-core.md": lesson], core: core)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let result = try coursebook(["check", folder.path, "--no-cache"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardError == "\(folder.path)/Core.swift:2:18: warning: coursebook did not read this core file: square brackets nested 9 deep; coursebook reads Swift with square brackets nested up to 5 deep (each level doubles the parser's time); every scenario is compiled as a program of its own\n", "\(result)")
        #expect(result.standardOutput == "compiled 2 scenarios (2 swiftc runs), cache not used\n0 errors, 1 warning\n2 passed, 0 failed\n", "\(result)")
    }
}
