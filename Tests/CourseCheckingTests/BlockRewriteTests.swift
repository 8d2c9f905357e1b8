import BackgroundWork
@testable import CourseChecking
import CourseModel
import LessonParsing
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

    // MARK: Inside list items and quotes (issue 23)

    /// Every line written keeps the container's marks: a quote's `> ` (a bare `>` on an empty
    /// line, which would otherwise end the quote), a list item's indent, both for a list in a
    /// quote; the fence's own indent on top; CRLF as the file has it.
    @Test(arguments: [
        ("> ```swift scenario\n> x\n> ```\n>\n> ```output\n> old\n> ```\n",
         "> ```swift scenario\n> x\n> ```\n>\n> ```output\n> a\n>\n>   b\n> ```\n"),
        ("1. Step\n\n   ```swift scenario\n   x\n   ```\n   ```output\n   old\n   ```\n2. Next\n",
         "1. Step\n\n   ```swift scenario\n   x\n   ```\n   ```output\n   a\n\n     b\n   ```\n2. Next\n"),
        ("- ```swift scenario\r\n  x\r\n  ```\r\n  ```output\r\n  old\r\n  ```\r\n",
         "- ```swift scenario\r\n  x\r\n  ```\r\n  ```output\r\n  a\r\n\r\n    b\r\n  ```\r\n"),
        ("> 1. Step\n>    ```swift scenario\n>    x\n>    ```\n>\n>      ```output\n>    old\n>      ```\n",
         "> 1. Step\n>    ```swift scenario\n>    x\n>    ```\n>\n>      ```output\n>      a\n>\n>        b\n>      ```\n"),
    ])
    func rewritesABlockInsideAListOrAQuote(text: String, expected: String) throws {
        let (read, _) = lesson("# T\n\n" + text)
        guard let output = read.codeBlocks.last, output.role == .output else {
            Issue.record("no output block: \(read.codeBlocks.map(\.role))"); return
        }
        let edit = BlockRewrite.Edit(.replaceCode(output), code: "a\n\n  b\n", summary: "")
        let (bytes, _) = try BlockRewrite.apply([edit], to: read.source)
        #expect(String(decoding: bytes, as: UTF8.self) == "# T\n\n" + expected)
        // Read again, the block holds exactly the new output, still in its container.
        let (again, _) = lesson(String(decoding: bytes, as: UTF8.self))
        #expect(again.codeBlocks.last?.code == "a\n\n  b\n")
        #expect(again.codeBlocks.last?.container == output.container)
    }

    /// An inserted `output` block stands in the scenario's container: after a `>` line in a
    /// quote, and at once in a list item (whose marker stands before the scenario's fence),
    /// so that a tight list stays tight.
    @Test func insertsAnOutputBlockInsideAListOrAQuote() throws {
        let quote = "# T\n\n> ```swift scenario\n> x\n> ```\n\nAfter.\n"
        let list = "# T\n\n- ```swift scenario\n  x\n  ```\n- Next\n"
        var results: [String] = []
        for text in [quote, list] {
            let (read, _) = lesson(text)
            let edit = BlockRewrite.Edit(.insertOutput(after: read.scenarios[0].block), code: "1\n", summary: "")
            let (bytes, placed) = try BlockRewrite.apply([edit], to: read.source)
            results.append(String(decoding: bytes, as: UTF8.self))
            let (again, diagnostics) = lesson(results.last!)
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            #expect(again.scenarios[0].expected?.code == "1\n")
            #expect(again.scenarios[0].expected?.line == placed.first?.line)
        }
        #expect(results == ["# T\n\n> ```swift scenario\n> x\n> ```\n>\n> ```output\n> 1\n> ```\n\nAfter.\n",
                            "# T\n\n- ```swift scenario\n  x\n  ```\n  ```output\n  1\n  ```\n- Next\n"])
        let page = LessonMarkdown.parse(results[1], counts: WorkCounts()).renderBlocks(mentionHref: { _ in nil })
        #expect(page.contains { if case let .html(html, _) = $0 { html.contains("<li>Next</li>") } else { false } }, "the list stays tight")
    }

    /// A tab before the fence of a block in a quote is read as spaces to the next tab stop: the
    /// rewrite cannot keep it, and says so at the block's line.
    @Test func aTabAmongTheMarksCannotBeRewritten() {
        let (read, _) = lesson("# T\n\n> ```swift scenario\n> x\n> ```\n>\n>\t```output\n>\told\n>\t```\n")
        guard let output = read.scenarios.first?.expected else { Issue.record("no output block"); return }
        let edit = BlockRewrite.Edit(.replaceCode(output), code: "new\n", summary: "")
        #expect(throws: BlockRewrite.Unplaceable(line: 7, reason: "a tab stands before the fence of the block at line 7 inside a list or a quote; indent with spaces, or write the block by hand")) {
            try BlockRewrite.apply([edit], to: read.source)
        }
    }
}
