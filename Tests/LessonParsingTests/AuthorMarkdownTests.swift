import CourseModel
@testable import LessonParsing
import Testing

/// What authors write on GitHub: footnotes, callouts, typographic quotes.
struct AuthorMarkdownTests {
    func parse(_ text: String, typography: Typography = .plain) -> LessonDocument {
        LessonMarkdown.parse(text, typography: typography, counts: WorkCounts())
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
        #expect(blocks[0] == .callout(.warning, html: "<p>Mind <em>this</em>.</p>\n"))
        #expect(blocks[1] == .html("<blockquote>\n<p>[!NOPE]\nNot a callout.</p>\n</blockquote>\n", block: 1))
        #expect(blocks[2] == .html("<blockquote>\n<p>[!TIP] text on the line</p>\n</blockquote>\n", block: 2))
    }

    @Test func smartTypographyTouchesProseOnly() {
        let text = "\"Quoted\" -- and --- and... `\"code\" --`\n\n```swift\nlet s = \"a\" // --\n```\n"
        let smart = parse(text, typography: .smart)
        #expect(smart.elements.contains(.paragraph(text: "“Quoted” – and — and… \"code\" --", line: 1, block: 0)))
        let code = smart.elements.compactMap { if case .code(let block) = $0 { block.literal } else { nil } }
        #expect(code == ["let s = \"a\" // --\n"])
        #expect(parse(text).elements.contains(.paragraph(text: "\"Quoted\" -- and --- and... \"code\" --", line: 1, block: 0)))
    }
}
