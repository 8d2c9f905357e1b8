import BackgroundWork
import CourseModel
@testable import LessonParsing
import Testing

/// What authors write on GitHub: footnotes, callouts, typographic quotes.
struct AuthorMarkdownTests {
    func parse(_ text: String, typography: Typography = .plain, lessonPages: [String: String] = [:]) -> LessonDocument {
        LessonMarkdown.parse(text, typography: typography, lessonPages: lessonPages, counts: WorkCounts())
    }

    @Test func footnotesAreCollectedLastInTheOrderTheyAreCited() throws {
        let document = parse("A[^b] and B[^a].\n\n[^a]: First defined.\n\n[^b]: Cited first.\n\nAfter.\n")
        let blocks = document.renderBlocks { _ in nil }
        guard case let .footnotes(html, labels) = try #require(blocks.last) else {
            Issue.record("no footnotes at the end: \(blocks)"); return
        }
        #expect(labels == ["b", "a"])
        #expect(html.hasPrefix("<section class=\"footnotes\" data-footnotes>\n<ol>\n<li id=\"fn-b\">"))
        #expect(blocks.contains(.html("<p>After.</p>\n", block: 1)))
        // Rendered again for another page, the footnotes are the same.
        #expect(document.renderBlocks { _ in nil } == blocks)
    }

    @Test func aReferenceWithoutDefinitionIsAnElementAtItsColumn() {
        let elements = parse("Text [^missing] here.\n").elements
        #expect(elements.contains(.undefinedFootnote(label: "missing", line: 1, column: 6)))
    }

    @Test func calloutsLoseTheirMarkerAndKeepTheirKind() {
        let document = parse("> [!Warning]\n> Mind *this*.\n\n> [!NOPE]\n> Not a callout.\n\n> [!TIP] text on the line\n")
        #expect(document.elements.contains(.unknownCallout(kind: "NOPE", line: 4)))
        let blocks = document.renderBlocks { _ in nil }
        #expect(blocks[0] == .callout(.warning, title: nil, html: "<p>Mind <em>this</em>.</p>\n"))
        #expect(blocks[1] == .html("<blockquote>\n<p>[!NOPE]\nNot a callout.</p>\n</blockquote>\n", block: 1))
        #expect(blocks[2] == .html("<blockquote>\n<p>[!TIP] text on the line</p>\n</blockquote>\n", block: 2))
    }

    @Test func editorsCommentsLeaveNoTraceOnThePage() {
        let document = parse("""
            # T

            <!-- TODO: a better example
            ```swift scenario
            print("hidden")
            ```
            -->

            Intro <!-- inline note --> text.

            <!-- one --> <!-- two -->

            <!-- not only a comment --> <b>x</b>

            """)
        // No warning for comments, and the fence inside one is no code block.
        #expect(document.elements.filter { if case .rawHTML = $0 { true } else { false } }
                == [.rawHTML(line: 13, column: 1)])
        #expect(!document.elements.contains { if case .code = $0 { true } else { false } })
        #expect(document.elements.contains(.paragraph(text: "Intro  text.", line: 9, block: 2)))
        let blocks = document.renderBlocks { _ in nil }
        #expect(blocks.count == 3)
        #expect(blocks[1] == .html("<p>Intro  text.</p>\n", block: 2))
        guard case .html(let shown, block: -1) = blocks[2] else { Issue.record("\(blocks[2])"); return }
        #expect(shown.contains("&lt;!-- not only a comment --&gt;"))
    }

    @Test func commentsAreToldFromOtherHTML() {
        #expect(AllowedHTML.isComment("<!-- a -->"))
        #expect(AllowedHTML.isComment("<!-- a -->\n  <!--b-->\n"))
        #expect(AllowedHTML.isComment("<!---->"))
        #expect(!AllowedHTML.isComment("<!-- a --> b"))
        #expect(!AllowedHTML.isComment("<!-- open"))
        #expect(!AllowedHTML.isComment(""))
        #expect(!AllowedHTML.isComment("<b>"))
    }

    @Test func linksAreElementsAtTheirPlace() {
        let document = parse("""
            See [two](02-b.md#x), ![plan](img/p.png "Plan") and <doc:Intro>.

            > [ref][r]

            [r]: https://swift.org
            """, lessonPages: ["02-b.md": "02-b.html"])
        let links = document.elements.compactMap { if case .link(let link) = $0 { link } else { nil } }
        #expect(links == [
            LessonLink(destination: "02-b.md#x", isImage: false, line: 1, column: 5),
            LessonLink(destination: "img/p.png", isImage: true, line: 1, column: 23),
            LessonLink(destination: "doc:Intro", isImage: false, line: 1, column: 53),
            LessonLink(destination: "https://swift.org", isImage: false, line: 3, column: 3),
        ])
    }

    @Test func aLinkToALessonFileGoesToItsPage() {
        let document = parse("[a](02-b.md#x) [b](./sub/../02-b.md) [c](03-c.md) [d](02-b.md?q)\n",
                             lessonPages: ["02-b.md": "02-b.html"])
        #expect(document.renderBlocks { _ in nil } == [.html(
            "<p><a href=\"02-b.html#x\">a</a> <a href=\"02-b.html\">b</a> <a href=\"03-c.md\">c</a> <a href=\"02-b.html\">d</a></p>\n",
            block: 0)])
    }

    @Test func smartTypographyTouchesProseOnly() {
        let text = "\"Quoted\" -- and --- and... `\"code\" --`\n\n```swift\nlet s = \"a\" // --\n```\n"
        let smart = parse(text, typography: .smart)
        #expect(smart.elements.contains(.paragraph(text: "“Quoted” – and — and… \"code\" --", line: 1, block: 0)))
        let code = smart.elements.compactMap { if case .code(let block) = $0 { block.literal } else { nil } }
        #expect(code == ["let s = \"a\" // --\n"])
        #expect(parse(text).elements.contains(.paragraph(text: "\"Quoted\" -- and --- and... \"code\" --", line: 1, block: 0)))
    }

    /// An apostrophe right after a code span is ’, also when a later apostrophe in the same
    /// paragraph could close a quote it opened (cmark-gfm's own option paired them: ‘si … ’ta).
    @Test func smartTypographyPutsAnApostropheAfterACodeSpan() {
        let text = "Önce `body`'si, sonra **Linux**'ta 6'da; \"`@State`\" ve [SwiftUI](https://swift.org)'nin <https://a.b/c'd>.\n\n## `View`'ın Kimliği\n\n| `x`'in | Linux'ta |\n|---|---|\n| 'a' | \"b\" |\n"
        let document = parse(text, typography: .smart)
        let blocks = document.renderBlocks { _ in nil }
        #expect(blocks.first == .html("<p>Önce <code>body</code>’si, sonra <strong>Linux</strong>’ta 6’da; “<code>@State</code>” ve <a href=\"https://swift.org\">SwiftUI</a>’nin <a href=\"https://a.b/c&#x27;d\">https://a.b/c'd</a>.</p>\n", block: 0))
        #expect(blocks.dropFirst().first == .heading(level: 2, text: "View’ın Kimliği", innerHTML: "<code>View</code>’ın Kimliği"))
        guard case .html(let table, _)? = blocks.dropFirst(2).first else { Issue.record("no table"); return }
        #expect(table.contains("<th><code>x</code>’in</th>") && table.contains("<th>Linux’ta</th>"), "\(table)")
        #expect(table.contains("<td>‘a’</td>") && table.contains("<td>“b”</td>"), "\(table)")
    }
}
