import BackgroundWork
import CourseModel
@testable import LessonParsing
import Testing

/// The handful of HTML a lesson may use passes, written exactly; everything else is text.
struct AllowedHTMLTests {
    @Test(arguments: [
        ("<kbd>", false, "<kbd>"),
        ("</kbd>", false, "</kbd>"),
        ("<br>", false, "<br>"),
        ("<br/>", false, "<br>"),
        ("<br />", false, "<br>"),
        ("<abbr title=\"Application Programming Interface\">", false, "<abbr title=\"Application Programming Interface\">"),
        ("<abbr title=\"a & b\">", false, "<abbr title=\"a &amp; b\">"),
        ("<details>\n<summary>Çıktıyı <kbd>göster</kbd></summary>\n", true, "<details><summary>Çıktıyı <kbd>göster</kbd></summary>"),
        ("<details open>\n", true, "<details open>"),
        ("</details>\n", true, "</details>"),
    ])
    func allowed(literal: String, isBlock: Bool, html: String) throws {
        let pieces = try #require(AllowedHTML.pieces(literal, isBlock: isBlock))
        #expect(AllowedHTML.html(pieces) == html)
    }

    @Test(arguments: [
        ("<KBD>", false), ("< kbd>", false), ("<kbd >", false), ("<kbd class=\"x\">", false),
        ("<b>", false), ("<script>", false), ("<img src=x onerror=alert(1)>", false),
        ("<abbr title=\"x\" onclick=\"y\">", false), ("<abbr title='x'>", false), ("<abbr>", true),
        ("<details onclick=\"x()\">\n", true), ("<details open=\"open\">\n", true),
        ("<a href=\"javascript:alert(1)\">", false), ("<a href=\"data:text/html,x\">", false),
        ("<details>\n<summary>x\n", true), ("<details>\ntext outside a summary\n", true),
        ("<div>\n", true), ("<kbd>\n", true), ("<summary><b>x</b></summary>\n", true),
        ("<details>\n<summary><kbd>x</summary></kbd>\n", true), ("</br>", false), ("<kbd><kbd>", false),
    ])
    func notAllowed(literal: String, isBlock: Bool) {
        #expect(AllowedHTML.pieces(literal, isBlock: isBlock) == nil)
    }

    func rendered(_ text: String) -> (html: String, warnings: Int) {
        let document = LessonMarkdown.parse(text, counts: WorkCounts())
        let warnings = document.elements.filter { if case .rawHTML = $0 { true } else { false } }.count
        let html = document.renderBlocks { _ in nil }.map { block -> String in
            switch block {
            case .html(let html, _): return html
            case .code(let id, let inDetails): return "[code \(id)\(inDetails ? " hidden" : "")]\n"
            case .heading(_, let text, _): return "[heading \(text)]\n"
            case .limitNote(let number, _): return "[DR\(number)]\n"
            case .callout(let kind, _, _): return "[callout \(kind)]\n"
            case .footnotes: return "[footnotes]\n"
            }
        }.joined()
        return (html, warnings)
    }

    @Test func anExerciseHidesItsOutputAndStillHasItsBlocks() {
        let (html, warnings) = rendered("""
            Predict:

            ```swift scenario
            print(1)
            ```

            <details>
            <summary>Show the output</summary>

            ```output
            1
            ```

            Press <kbd>Ctrl</kbd>.

            </details>

            """)
        #expect(warnings == 0)
        #expect(html == "<p>Predict:</p>\n[code 0]\n<details><summary>Show the output</summary>\n[code 1 hidden]\n<p>Press <kbd>Ctrl</kbd>.</p>\n</details>\n")
    }

    @Test(arguments: [
        // Unclosed, closed twice, hiding a section, nested in a list, a summary on its own.
        "<details>\n<summary>x</summary>\n\ntext\n",
        "<details>\n<summary>x</summary>\n\n</details>\n\n</details>\n",
        "<details>\n<summary>x</summary>\n\n## A section\n\n</details>\n",
        "- <details>\n  <summary>x</summary>\n\n  </details>\n",
        "<summary>x</summary>\n",
    ])
    func detailsThatBreakARuleAllStayText(text: String) {
        let (html, warnings) = rendered(text)
        #expect(warnings > 0)
        #expect(!html.contains("<details"))
        #expect(!html.contains("<summary"))
    }

    /// A paragraph whose tags do not pair up shows all of them as text.
    @Test func inlineTagsMustCloseInTheirParagraph() {
        let (html, warnings) = rendered("a <kbd>b</kbd> c <sub>d\n\ne</sub> <mark>f</sup>\n\n<sub>2</sub> and <sup>3</sup>\n")
        #expect(warnings == 6)
        #expect(html == "<p>a &lt;kbd&gt;b&lt;/kbd&gt; c &lt;sub&gt;d</p>\n<p>e&lt;/sub&gt; &lt;mark&gt;f&lt;/sup&gt;</p>\n<p><sub>2</sub> and <sup>3</sup></p>\n")
    }
}
