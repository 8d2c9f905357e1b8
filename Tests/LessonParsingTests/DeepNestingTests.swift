import BackgroundWork
@testable import LessonParsing
import CourseModel
import TestSupport
import Testing

/// Nesting as deep as a hostile lesson makes it: read and rendered in one pass each, on a
/// test thread's small stack, and flattened past `NestingLimit.depth` for the page and its
/// search index (the text kept, the tags left out). (How fast is the bench's question:
/// `make bench` compares the time with cmark-gfm's own parse of the same file.)
struct DeepNestingTests {
    static let depth = 50_000

    /// Emphasis inside emphasis, each level with prose, a `DRn` mention, raw HTML and an
    /// autolink: everything the walk reads and the page changes, 50,000 levels down.
    @Test func fiftyThousandNestedEmphasesAreReadAndRendered() throws {
        let level = "*x DR1 <b> https://a.example "
        let text = "# Deep\n\n" + String(repeating: level, count: Self.depth) + "y"
            + String(repeating: " z*", count: Self.depth) + "\n\nDR1. The note.\n"
        let document = LessonMarkdown.parse(text, counts: WorkCounts())
        let elements = document.elements
        #expect(elements.count { if case .mention = $0 { true } else { false } } == Self.depth + 1)  // and the note's own label
        #expect(elements.count { if case .rawHTML = $0 { true } else { false } } == Self.depth)
        let links = elements.compactMap { if case .link(let link) = $0 { link } else { nil } }
        #expect(links.count == Self.depth)
        // An autolink takes the place of the emphasis around it.
        #expect(links.first?.line == 3 && links.first?.column == 1)
        #expect(links.last?.line == 3 && links.last?.column == 1 + (Self.depth - 1) * level.utf8.count)
        let paragraph = elements.first { if case .paragraph = $0 { true } else { false } }
        if case let .paragraph(plain, _, _)? = paragraph {
            #expect(plain.hasPrefix("x DR1 <b> https://a.example x DR1"))
            #expect(plain.utf8.count == Self.depth * (level.utf8.count - 1) + 1 + Self.depth * " z".utf8.count)
        }

        let blocks = document.renderBlocks { "#dr\($0)" }
        guard case let .html(html, _)? = blocks.dropFirst().first else {
            Issue.record("no paragraph rendered: \(blocks.prefix(2))")
            return
        }
        // Past the nesting limit the page keeps the text and leaves the tags out: the paragraph
        // and 31 emphases, each with its mention linked and its autolink, then text alone.
        let kept = NestingLimit.depth - 1
        #expect(html.ranges(of: "<em>").count == kept)
        #expect(html.ranges(of: "</em>").count == kept)
        // A link is one level deeper than the emphasis it stands in.
        #expect(html.ranges(of: "<a href=\"#dr1\">DR1</a>").count == kept - 1)
        #expect(html.ranges(of: "DR1").count == Self.depth)
        #expect(html.ranges(of: "https://a.example").count == Self.depth + kept - 1)
        #expect(html.ranges(of: "&lt;b&gt;").count == Self.depth)
        #expect(html.ranges(of: " z").count == Self.depth)
        #expect(html.hasSuffix(" z</em></p>\n"))
        #expect(html.hasPrefix("<p><em>x <a href=\"#dr1\">DR1</a> &lt;b&gt; <a href=\"https://a.example\">https://a.example</a> <em>x "))
        #expect(blocks.last == .limitNote(number: 1, innerHTML: "The note."))
    }

    /// 10,000 lists, each the only item of the one around it.
    @Test func tenThousandNestedListItemsAreReadAndRendered() throws {
        let count = 10_000
        let text = "# Lists\n\n" + String(repeating: "- ", count: count) + "DR1 <kbd>K</kbd> last\n\nDR1. Note.\n"
        let document = LessonMarkdown.parse(text, counts: WorkCounts())
        #expect(document.elements.contains(.mention(number: 1, line: 3)))
        let blocks = document.renderBlocks { "#dr\($0)" }
        guard case let .html(html, _)? = blocks.dropFirst().first else {
            Issue.record("no list rendered")
            return
        }
        // A list and its item are two elements: 16 of each are kept, the rest is text.
        #expect(html.ranges(of: "<ul>").count == NestingLimit.depth / 2)
        #expect(html.ranges(of: "<li>").count == NestingLimit.depth / 2)
        #expect(html.ranges(of: "</li>").count == NestingLimit.depth / 2)
        #expect(html.contains("DR1 K last"))
    }

    /// 20,000 block quotes, each the only child of the one around it, and a paragraph of
    /// 20,000 links nested in one another's text: read and rendered like any other.
    @Test func twentyThousandNestedQuotesAndLinksAreReadAndRendered() throws {
        let count = 20_000
        let quotes = LessonMarkdown.parse("# Quotes\n\n" + String(repeating: "> ", count: count) + "DR1 deep\n\nDR1. Note.\n",
                                          counts: WorkCounts())
        #expect(quotes.elements.contains(.mention(number: 1, line: 3)))
        guard case let .html(html, _)? = quotes.renderBlocks { "#dr\($0)" }.dropFirst().first else {
            Issue.record("no quote rendered")
            return
        }
        #expect(html.ranges(of: "<blockquote>").count == NestingLimit.depth)
        #expect(html.ranges(of: "</blockquote>").count == NestingLimit.depth)
        #expect(html.contains("DR1 deep"))

        let links = LessonMarkdown.parse("# Links\n\n" + String(repeating: "[a ", count: count) + "x" + String(repeating: "](u)", count: count) + "\n",
                                         counts: WorkCounts())
        guard case let .html(linked, _)? = links.renderBlocks { "#dr\($0)" }.dropFirst().first else {
            Issue.record("no paragraph rendered")
            return
        }
        #expect(linked.hasPrefix("<p>") && linked.contains("<a href=\"u\">"))
    }

    /// Taking a paragraph apart to link its mentions, and putting it back, keeps every node
    /// where it was: siblings, nested containers, comments and allowed tags around them.
    @Test func aParagraphTakenApartComesBackInOrder() {
        let text = "A *b DR1 **c <!-- gone --> DR1** <b>d</b> _e DR1_* <kbd>f</kbd> [g](h) DR1 i.\n\nDR1. Note.\n"
        let blocks = LessonMarkdown.parse(text, counts: WorkCounts()).renderBlocks { "#dr\($0)" }
        let link = "<a href=\"#dr1\">DR1</a>"
        #expect(blocks.first == .html(
            "<p>A <em>b \(link) <strong>c  \(link)</strong> &lt;b&gt;d&lt;/b&gt; <em>e \(link)</em></em> <kbd>f</kbd> <a href=\"h\">g</a> \(link) i.</p>\n",
            block: 0))
        // Containers side by side at the start of another: each first in its parent once.
        let adjacent = LessonMarkdown.parse("*_a DR1_**b**[c](d)* DR1\n", counts: WorkCounts()).renderBlocks { "#dr\($0)" }
        #expect(adjacent.first == .html(
            "<p><em><em>a \(link)</em><strong>b</strong><a href=\"d\">c</a></em> \(link)</p>\n", block: 0))
    }
}
