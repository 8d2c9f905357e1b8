import Foundation
import Testing

/// Listings inside list items and DocC's asides (issue 23), through the binary:
/// `Tests/Fixtures/nested-book` tells a group over a numbered list of steps with hidden lines,
/// and keeps scenarios in a `> Note:` aside and in a list inside a `> Tip:` aside. They are
/// checked as at the top level, their findings stand at their lesson lines and columns, and
/// `--update` writes them back in place, the container's marks kept.
@Suite(.serialized) struct NestedBlocksTests {
    func copy() throws -> (root: URL, lesson: URL) {
        let root = temporaryFolder("nested-book")
        let course = root.appendingPathComponent("nested-book")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("nested-book"), to: course)
        // A check run by hand in the fixture leaves its cache there (COURSE_DIR/.coursebook-cache):
        // the copy starts without one, so that its first check compiles.
        try? FileManager.default.removeItem(at: course.appendingPathComponent(".coursebook-cache"))
        return (root, course.appendingPathComponent("01-steps.md"))
    }

    func edit(_ lesson: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try #require(text.contains(old), "\(lesson.lastPathComponent) holds no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: lesson, atomically: true, encoding: .utf8)
    }

    /// The group of three steps is one program (two results: the first step prints nothing),
    /// each aside's scenario a program of its own; nothing is left unchecked, so `--strict`
    /// passes; the second time everything comes from the cache.
    @Test func theBookChecksGreenStrictly() throws {
        let (root, _) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try coursebook(["check", "nested-book", "--strict"], in: root)
        #expect(first == CommandResult(status: 0, standardOutput: "compiled 3 scenarios (2 swiftc runs), 0 from the cache\n4 passed, 0 failed\n",
                                       standardError: ""), "\(first)")
        let second = try coursebook(["check", "nested-book", "--strict"], in: root)
        #expect(second == CommandResult(status: 0, standardOutput: "compiled 0 scenarios, 3 from the cache\n4 passed, 0 failed\n",
                                        standardError: ""), "\(second)")
    }

    /// A compile error in a step stands at its lesson line and column (past the item's indent),
    /// one in an aside past the quote's `> `; a mismatch in a list inside an aside stands at its
    /// `output` block.
    @Test func findingsStandAtTheLessonLinesOfTheBlocks() throws {
        let (root, lesson) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        try edit(lesson, "   print(shelf.books.count, shelf.books[0])", "   print(shelf.books.count, shelf.books[0], shelf.size)")
        try edit(lesson, "> print(pages.reduce(0, +))", "> print(pages.reduce(0, +) + \"\")")
        try edit(lesson, ">    ```output\n>    4\n", ">    ```output\n>    5\n")
        let result = try coursebook(["check", "nested-book", "--no-cache"], in: root)
        #expect(result == CommandResult(status: 1, standardOutput: "compiled 3 scenarios (4 swiftc runs), cache not used\n4 errors, 0 warnings\n0 passed, 4 failed\n", standardError: """
            nested-book/01-steps.md:19:1: error: the program of the group 'group=shelf' does not compile (its first error is at line 33), so this block did not run
            nested-book/01-steps.md:33:51: error: value of type 'Shelf' has no member 'size'
            nested-book/01-steps.md:46:28: error: binary operator '+' cannot be applied to operands of type 'Int' and 'String'
            nested-book/01-steps.md:46:28: note: overloads for '+' exist with these partially matching parameter lists: (Int, Int), (String, String)
            nested-book/01-steps.md:63:1: error: output of the scenario at line 57 differs from its 'output' block at line 62
            --- expected (nested-book/01-steps.md:62)
            +++ actual
            @@ -1 +1 @@
            -5
            +4

            """), "\(result)")
    }

    /// `--update` rewrites an output block in a list item and one in a quote, and inserts the
    /// one a scenario in a list inside a quote lacks, each line with its container's marks
    /// (a scenario's line as the file was read, each block's as it is written):
    /// the lesson comes back byte for byte as the fixture has it, and a second `--update`
    /// changes nothing.
    @Test func updateWritesNestedBlocksInPlace() throws {
        let (root, lesson) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try String(contentsOf: lesson, encoding: .utf8)
        try edit(lesson, "   ```output\n   Emma, Dune\n   ```", "   ```output\n   Emma\n\n   Dune?\n   ```")
        try edit(lesson, "> ```output\n> 732\n> ```", "> ```output\n> 0\n> ```")
        try edit(lesson, ">    ```\n>\n>    ```output\n>    4\n>    ```\n", ">    ```\n")
        let check = try coursebook(["check", "nested-book", "--no-cache"], in: root)
        #expect(check.status == 1)
        #expect(check.standardError.contains("nested-book/01-steps.md:59:1: error: scenario has no 'output' block; add one after it (or run 'coursebook check --update')\n"), "\(check)")
        let update = try coursebook(["check", "nested-book", "--update"], in: root)
        #expect(update == CommandResult(status: 0, standardOutput: """
            nested-book/01-steps.md:25: updated the output block of the scenario at line 19
            nested-book/01-steps.md:49: updated the output block of the scenario at line 46
            nested-book/01-steps.md:62: inserted an output block for the scenario at line 59
            compiled 3 scenarios (2 swiftc runs), 0 from the cache
            4 passed, 0 failed

            """, standardError: ""), "\(update)")
        #expect(try String(contentsOf: lesson, encoding: .utf8) == original)
        let again = try coursebook(["check", "nested-book", "--update"], in: root)
        #expect(again == CommandResult(status: 0, standardOutput: "compiled 0 scenarios, 3 from the cache\n4 passed, 0 failed\n",
                                       standardError: ""), "\(again)")
        #expect(try String(contentsOf: lesson, encoding: .utf8) == original)
        let strict = try coursebook(["check", "nested-book", "--strict"], in: root)
        #expect(strict.status == 0, "\(strict)")
    }

    /// An `output` block left outside its scenario's list item is an error that says where
    /// each stands; so is a listing in a footnote, which stays unchecked (a warning: `--strict`
    /// fails on it).
    @Test func anOutputBlockOutsideItsContainerAndAFootnotesListingAreFindings() throws {
        let (root, lesson) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        try edit(lesson, "   ```\n\n   ```output\n   2 Dune\n   ```\n", "   ```\n\n```output\n2 Dune\n```\n")
        try edit(lesson, "## Asides\n", "## Asides\n\nA footnote.[^f]\n\n[^f]: With a listing.\n\n    ```swift scenario\n    print(0)\n    ```\n")
        let result = try coursebook(["check", "nested-book", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError.contains("""
            nested-book/01-steps.md:31:1: error: the group 'group=shelf' printed after its last 'output' block; add an 'output' block after this block (or run 'coursebook check --update')
            2 Dune
            nested-book/01-steps.md:36:1: error: 'output' block at the top level has no scenario above it there: the scenario above it stands in a list item; a scenario's 'output' block follows it in the same list item or quote
            nested-book/01-steps.md:31:1: note: the scenario above it is here

            """), "\(result)")
        #expect(result.standardError.contains("nested-book/01-steps.md:46:5: warning: a 'swift scenario' block inside a footnote is shown as it is and not checked; put it in the lesson's text (a list item or a quote is fine)\n"), "\(result)")
    }
}
