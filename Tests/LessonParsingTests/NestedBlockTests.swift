import BackgroundWork
@testable import LessonParsing
import CourseModel
import TestSupport
import Testing

/// Blocks inside list items and quotes (issue 23): read exactly as at the top level, their
/// `output` blocks in the same container, their lines counted as the lesson has them.
struct NestedBlockTests {
    static let steps = """
        # T

        1. Declare it:

           ```swift scenario group=shelf
           # func show(_ n: Int) { print(n) }
           struct Shelf { var books = 0 }
           ```

        2. Use it:
           ```swift scenario group=shelf
           let shelf = Shelf()
           # show(shelf.books)
           ```
           ```output
           0
           ```

        > Note: In an aside.
        >
        > ```swift scenario
        > print(  1)
        > ```
        >
        > ```output
        > 1
        > ```

        > - A list in a quote:
        >
        >   ```swift scenario
        >   print(2)
        >   ```
        >
        >   ```output
        >   2
        >   ```

        """

    @Test func scenariosInListItemsAndQuotesAreReadAsAtTheTopLevel() {
        let (read, diagnostics) = lesson(Self.steps)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(read.codeBlocks.map(\.role) == [.scenario, .scenario, .output, .scenario, .output, .scenario, .output])
        #expect(read.scenarios.map(\.group) == ["shelf", "shelf", nil, nil])
        #expect(read.scenarios.map { $0.expected?.code } == [nil, "0\n", "1\n", "2\n"])
        #expect(read.scenarios[1].compiledCode == "let shelf = Shelf()\nshow(shelf.books)\n")
        #expect(read.codeBlocks[1].shownCode == "let shelf = Shelf()\n")
        // Each block knows its container: the two steps are two list items.
        let containers = read.codeBlocks.map(\.container)
        #expect(containers[0] != nil && containers[0] != containers[1] && containers[1] == containers[2])
        #expect(containers[3] == containers[4] && containers[5] == containers[6] && containers[3] != containers[5])
        // A column in the code is found on its lesson line past the item's indent, the quote's
        // marks, or both.
        #expect(read.codeBlocks[0].lessonPosition(codeLine: 2, codeColumn: 8) == (7, 11))
        #expect(read.codeBlocks[1].line == 11)
        #expect(read.codeBlocks[3].lessonPosition(codeLine: 1, codeColumn: 9) == (22, 11))
        #expect(read.codeBlocks[5].lessonPosition(codeLine: 1, codeColumn: 7) == (32, 11))
    }

    /// An `output` block belongs to the scenario above it in the same list item or quote; one
    /// that stands elsewhere says where each of them is.
    @Test(arguments: [
        ("- ```swift scenario\n  print(1)\n  ```\n\n```output\n1\n```\n", 5,
         "'output' block at the top level has no scenario above it there: the scenario above it stands in a list item; a scenario's 'output' block follows it in the same list item or quote"),
        ("> ```swift scenario\n> print(1)\n> ```\n\n> ```output\n> 1\n> ```\n", 5,
         "'output' block in a quote has no scenario above it there: the scenario above it stands in another one; a scenario's 'output' block follows it in the same list item or quote (a line of only '>' between two blocks keeps them in one quote)"),
        ("1. ```swift scenario\n   print(1)\n   ```\n2. ```trap\n   ```\n", 4,
         "'trap' block in a list item has no scenario above it there: the scenario above it stands in another one; a scenario's 'trap' block follows it in the same list item or quote"),
        ("```swift scenario\nprint(1)\n```\n\n> ```errors\n> 1: error: x\n> ```\n", 5,
         "'errors' block in a quote has no scenario above it there: the scenario above it stands at the top level; a scenario's 'errors' block follows it in the same list item or quote (a line of only '>' between two blocks keeps them in one quote)"),
    ])
    func anOutputBlockStandsInItsScenariosContainer(body: String, line: Int, message: String) {
        let (read, diagnostics) = lesson("# T\n\n" + body)
        let misplaced = diagnostics.filter { $0.summary == message }
        #expect(misplaced.count == 1, "\(diagnostics.map(\.summary))")
        #expect(misplaced.first?.location?.line == line + 2)
        #expect(misplaced.first?.notes.first?.location?.line == 3)
        #expect(read.scenarios[0].expectation.isEmpty)
    }

    /// The page gets a mark where each block of a list or a quote stands, for the site to put
    /// the block there as it renders one at the top level (hidden lines left out); a callout's
    /// blocks too, and one that a `<details>` hides says so.
    @Test func thePageMarksWhereEachNestedBlockStands() {
        let document = LessonMarkdown.parse(Self.steps + "<details>\n<summary>Answer</summary>\n\n- ```output\n  3\n  ```\n\n</details>\n",
                                            counts: WorkCounts())
        let blocks = document.renderBlocks(mentionHref: { _ in nil })
        var codes: [NestedCodeBlock.Piece] = []
        for block in blocks {
            switch block {
            case let .html(html, _), let .callout(_, _, html):
                #expect(!html.contains("show("), "a hidden line reaches the page: \(html)")
                codes += NestedCodeBlock.pieces(of: html).filter { if case .code = $0 { true } else { false } }
            case .code:
                Issue.record("a nested block came out at the top level")
            default:
                break
            }
        }
        #expect(codes == (0..<7).map { NestedCodeBlock.Piece.code(id: $0, inDetails: false) } + [.code(id: 7, inDetails: true)])
        #expect(blocks.contains { if case let .callout(.note, _, html) = $0 { html.hasPrefix("<p>In an aside.</p>\n<!--coursebook-code:3-->\n") } else { false } })
    }

    @Test func marksComeApartIntoPieces() {
        let html = "<ol>\n<li>\n<p>A</p>\n" + NestedCodeBlock.mark(id: 12, inDetails: false) + "\n" + NestedCodeBlock.mark(id: 13, inDetails: true) + "\n</li>\n</ol>\n"
        #expect(NestedCodeBlock.pieces(of: html) == [.html("<ol>\n<li>\n<p>A</p>\n"), .code(id: 12, inDetails: false),
                                                      .code(id: 13, inDetails: true), .html("</li>\n</ol>\n")])
        #expect(NestedCodeBlock.pieces(of: "<p>no code</p>\n") == [.html("<p>no code</p>\n")])
        // What a lesson writes as a comment never reaches the page: it cannot pose as a mark.
        let rendered = LessonMarkdown.parse("- <!--coursebook-code:0-->\n", counts: WorkCounts()).renderBlocks(mentionHref: { _ in nil })
        #expect(rendered.allSatisfy { if case let .html(html, _) = $0 { !html.contains("coursebook-code") } else { true } })
    }
}
