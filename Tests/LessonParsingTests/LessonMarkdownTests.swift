import BackgroundWork
@testable import LessonParsing
import CourseModel
import TestSupport
import Testing

struct LessonMarkdownTests {
    static let sample = """
        # Title *here*

        Opening with `code` and
        a soft break.

        ## Section

        ```swift scenario
        print(1)
        ```

        ~~~~output
        1
        ~~~~

          ```swift
          let x = 1
          ```

        - item
          ```swift scenario
          print(2)
          ```

        > <b>quoted</b> DR4 here

            indented code

        DR1. A note, see DR2.

        """

    @Test func elementsInDocumentOrder() {
        let elements = LessonMarkdown.parse(Self.sample, counts: WorkCounts()).elements
        // Everything but the code blocks, in the order the lesson has it.
        #expect(elements.filter { if case .code = $0 { false } else { true } } == [
            .heading(level: 1, text: "Title here", line: 1),
            .paragraph(text: "Opening with code and a soft break.", line: 3, block: 1),
            .heading(level: 2, text: "Section", line: 6),
            .rawHTML(line: 25, column: 3),
            .rawHTML(line: 25, column: 12),
            .mention(number: 4, line: 25),
            .paragraph(text: "DR1. A note, see DR2.", line: 29, block: 9),
            .mention(number: 1, line: 29),
            .mention(number: 2, line: 29),
        ])

        let blocks = elements.compactMap { if case .code(let block) = $0 { block } else { nil } }
        #expect(blocks.map(\.info) == ["swift scenario", "output", "swift", "swift scenario", ""])
        #expect(blocks.map(\.line) == [8, 12, 16, 21, 27])
        #expect(blocks.map(\.id) == [0, 1, 2, 3, 4])
        #expect(blocks.map(\.isNested) == [false, false, false, true, false])
        #expect(blocks[0].literal == "print(1)\n")
        #expect(blocks[1].fence == Fence(character: UInt8(ascii: "~"), length: 4, indent: 0))
        #expect(blocks[2].fence?.indent == 2)
        #expect(blocks[2].literal == "let x = 1\n")
        #expect(blocks[4].fence == nil)
    }

    @Test func crlfLessonsGiveTheSameLines() {
        let crlf = Self.sample.replacingOccurrences(of: "\n", with: "\r\n")
        let lines = { (text: String) in
            LessonMarkdown.parse(text, counts: WorkCounts()).elements.compactMap { if case .code(let b) = $0 { b.line } else { nil } }
        }
        #expect(lines(crlf) == lines(Self.sample))
    }

    @Test func renderedHeadingsAndNotes() {
        let blocks = render(Self.sample) { $0 == 2 ? "02.html#dr2" : nil }
        #expect(blocks.first == .heading(level: 1, text: "Title here", innerHTML: "Title <em>here</em>"))
        #expect(blocks.contains(.limitNote(number: 1, innerHTML: "A note, see <a href=\"02.html#dr2\">DR2</a>.")))
    }

    /// The site finds the check's code blocks by identity: the top-level ones, in order, the
    /// nested one by its mark in its list's HTML, where cmark-gfm's rendering of it is not.
    @Test func codeBlocksKeepTheirIdentity() {
        let blocks = render(Self.sample) { _ in nil }
        let ids = blocks.compactMap { if case .code(let id, _) = $0 { id } else { nil } }
        #expect(ids == [0, 1, 2, 4])
        let list = blocks.compactMap { block -> String? in
            if case .html(let html, _) = block, html.hasPrefix("<ul>") { html } else { nil }
        }.first ?? ""
        #expect(!list.contains("print(2)"))
        #expect(NestedCodeBlock.pieces(of: list) == [.html("<ul>\n<li>item\n"), .code(id: 3, inDetails: false), .html("</li>\n</ul>\n")])
    }

    /// One parse serves every page: rendered again with other links, the same document gives
    /// the same blocks with the new targets.
    @Test func oneDocumentRendersForSeveralPages() {
        let document = LessonMarkdown.parse("DR1. See DR2.\n\nDR2. Here.\n\nText about DR2 and DR9.\n", counts: WorkCounts())
        let onLesson = document.renderBlocks { $0 == 9 ? nil : "#dr\($0)" }
        #expect(onLesson[0] == .limitNote(number: 1, innerHTML: "See <a href=\"#dr2\">DR2</a>."))
        #expect(onLesson[2] == .html("<p>Text about <a href=\"#dr2\">DR2</a> and DR9.</p>\n", block: 2))
        let notes = document.renderNotes { $0 == 9 ? nil : "limits.html#dr\($0)" }
        #expect(notes == [1: "See <a href=\"limits.html#dr2\">DR2</a>.", 2: "Here."])
        #expect(document.renderBlocks { $0 == 9 ? nil : "#dr\($0)" } == onLesson)
    }

    func render(_ text: String, _ href: (Int) -> String?) -> [RenderedBlock] {
        LessonMarkdown.parse(text, counts: WorkCounts()).renderBlocks(mentionHref: href)
    }

    @Test func rawHTMLIsShownAsTextNeverPassed() {
        let blocks = render("<script>alert(1)</script>\n\nHi <b onclick=\"x()\">there</b>\n") { _ in nil }
        let html = blocks.compactMap { if case .html(let text, _) = $0 { text } else { nil } }.joined()
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b "))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("Hi &lt;b onclick=&quot;x()&quot;&gt;there&lt;/b&gt;"))
    }

    @Test func dangerousLinksAreDropped() {
        let blocks = render("[x](javascript:alert(1))\n") { _ in nil }
        #expect(blocks == [.html("<p><a href=\"\">x</a></p>\n", block: 0)])
    }

    @Test func githubExtensions() {
        let text = """
            | a | b |
            |---|---|
            | 1 | 2 |

            ~~gone~~ and https://example.org

            - [x] done
            - [ ] open

            """
        let html = render(text) { _ in nil }
            .compactMap { if case .html(let text, _) = $0 { text } else { nil } }.joined()
        #expect(html.contains("<table>"))
        #expect(html.contains("<del>gone</del>"))
        #expect(html.contains("<a href=\"https://example.org\">https://example.org</a>"))
        #expect(html.contains("type=\"checkbox\""))
    }

    @Test func noteLabelsInsideEmphasisAreDropped() {
        let blocks = render("**DR3.** Bold label.\n\nDR4.\nOn the next line.\n") { _ in nil }
        #expect(blocks == [
            .limitNote(number: 3, innerHTML: "Bold label."),
            .limitNote(number: 4, innerHTML: "On the next line."),
        ])
    }

    @Test func mentionsInsideLinksAndCodeAreLeftAlone() {
        let blocks = render("See [DR1](x.html), `DR1` and DR1'de.\n") { "n.html#dr\($0)" }
        #expect(blocks == [.html("<p>See <a href=\"x.html\">DR1</a>, <code>DR1</code> and <a href=\"n.html#dr1\">DR1</a>'de.</p>\n", block: 0)])
    }

    @Test func mentionFinder() {
        let text = "DR1, (DR22) DR3'te XDR4 DR5a DR DR6."
        #expect(LimitNoteMention.find(in: text).map(\.number) == [1, 22, 3, 6])
    }

    /// cmark-gfm's parser edits process-wide tables for its extensions: without the parse lock,
    /// parses on two threads corrupt each other (`~~struck~~` comes out as text). A race shows
    /// only when two parses overlap, so this cannot prove the lock is there; it makes overlaps
    /// as likely as it can (480 long parses on every core): with the lock taken out, about 12
    /// of them came out wrong on each of 5 runs out of 5.
    @Test func parsingFromManyThreadsAgrees() async {
        let text = String(repeating: "~~struck~~ and | a |\n|---|\n| b |\n\nword ~~more~~ https://x.example\n\n", count: 40)
        let expected = render(text) { _ in nil }
        let agreeing = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<60).count { _ in LessonMarkdown.parse(text, counts: WorkCounts()).renderBlocks { _ in nil } == expected }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(agreeing == 8 * 60)
    }
}
