@testable import CourseChecking
import CourseModel
import TestSupport
import Testing

struct BlockRewriteTests {
    func rewrite(_ text: String, _ makeEdits: (Lesson) -> [BlockRewrite.Edit]) throws -> String {
        let (read, _) = lesson(text)
        let (bytes, _) = try BlockRewrite.apply(makeEdits(read), to: read.source)
        return String(decoding: bytes, as: UTF8.self)
    }

    func replaceOutput(_ code: String) -> (Lesson) -> [BlockRewrite.Edit] {
        { read in [.init(.replaceCode(read.scenarios[0].expected!), code: code, summary: "")] }
    }

    @Test func replacesOnlyTheBlockContent() throws {
        let text = "\u{FEFF}# T  \r\n\r\n```swift scenario\r\nprint(1)\r\n```\r\n\r\n```output\r\nold\r\nlines\r\n```\r\ntail \t\r\n"
        let result = try rewrite(text, replaceOutput("1\n"))
        #expect(result == "\u{FEFF}# T  \r\n\r\n```swift scenario\r\nprint(1)\r\n```\r\n\r\n```output\r\n1\r\n```\r\ntail \t\r\n")
    }

    /// A block that already says the output keeps its bytes, however it spells them (less
    /// indent than its fence, a line of spaces, CRLF): the rewriter's identity, which
    /// `make fuzz` checks on any lesson.
    @Test func theSameOutputChangesNoByte() throws {
        let text = "# T\n\n```swift scenario\nx\n```\n\n  ```output\r\n a\r\n   \r\n  b\r\n  ```\n"
        let (read, _) = lesson(text)
        #expect(read.scenarios[0].expected?.code == "a\n \nb\n")
        #expect(try rewrite(text, replaceOutput("a\n \nb\n")) == text)
        #expect(try rewrite(text, replaceOutput("a\n \nc\n")) == "# T\n\n```swift scenario\nx\n```\n\n  ```output\r\n  a\r\n   \r\n  c\r\n  ```\n")
    }

    @Test func keepsTheFenceIndentAndTildes() throws {
        let text = "# T\n\n```swift scenario\nx\n```\n\n  ~~~~ output\n  old\n  ~~~~\n"
        let result = try rewrite(text, replaceOutput("  a\nb\n"))
        #expect(result == "# T\n\n```swift scenario\nx\n```\n\n  ~~~~ output\n    a\n  b\n  ~~~~\n")
    }

    @Test func lengthensTheFenceWhenTheNewCodeWouldCloseIt() throws {
        let text = "# T\n\n```swift scenario\nx\n```\n\n```output\nold\n```\n"
        let result = try rewrite(text, replaceOutput("```\n`````\n"))
        #expect(result == "# T\n\n```swift scenario\nx\n```\n\n``````output\n```\n`````\n``````\n")
        // Read again, the block holds exactly the new output.
        let (again, _) = lesson(result)
        #expect(again.scenarios[0].expected?.code == "```\n`````\n")
    }

    @Test func fillsAnEmptyBlockAndEmptiesAFullOne() throws {
        let empty = "# T\n\n```swift scenario\nx\n```\n\n```output\n```\n"
        #expect(try rewrite(empty, replaceOutput("1\n")) == "# T\n\n```swift scenario\nx\n```\n\n```output\n1\n```\n")
        let full = "# T\n\n```swift scenario\nx\n```\n\n```output\n1\n2\n```\n"
        #expect(try rewrite(full, replaceOutput("")) == "# T\n\n```swift scenario\nx\n```\n\n```output\n```\n")
    }

    @Test func insertsAMissingOutputBlock() throws {
        let text = "# T\r\n\r\n```swift scenario\r\nx\r\n```\r\nAfter."
        let (read, _) = lesson(text)
        let edit = BlockRewrite.Edit(.insertOutput(after: read.scenarios[0].block), code: "1\n", summary: "")
        let (bytes, placed) = try BlockRewrite.apply([edit], to: read.source)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "# T\r\n\r\n```swift scenario\r\nx\r\n```\r\n\r\n```output\r\n1\r\n```\r\nAfter.")
        #expect(placed.map(\.line) == [7])
        let (again, diagnostics) = lesson(String(decoding: bytes, as: UTF8.self))
        #expect(diagnostics.isEmpty)
        #expect(again.scenarios[0].expected?.line == 7)
    }

    @Test func placesLaterBlocksByTheLinesAddedBefore() throws {
        let text = "# T\n\n```swift scenario\nx\n```\n\n```output\n1\n```\n\n```swift scenario\ny\n```\n\n```output\n2\n```\n"
        let (read, _) = lesson(text)
        let edits: [BlockRewrite.Edit] = [
            .init(.replaceCode(read.scenarios[1].expected!), code: "b\n", summary: ""),
            .init(.replaceCode(read.scenarios[0].expected!), code: "a\na\na\n", summary: ""),
        ]
        let (_, placed) = try BlockRewrite.apply(edits, to: read.source)
        #expect(placed.map(\.line) == [7, 17])
    }

    @Test func anUnclosedScenarioCannotGetAnOutputBlock() {
        let (read, _) = lesson("# T\n\n```swift scenario\nx\n")
        let edit = BlockRewrite.Edit(.insertOutput(after: read.scenarios[0].block), code: "1\n", summary: "")
        #expect(throws: BlockRewrite.Unplaceable.self) { try BlockRewrite.apply([edit], to: read.source) }
    }
}
