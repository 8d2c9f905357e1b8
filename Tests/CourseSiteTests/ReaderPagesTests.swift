import ChangeDiagrams
@testable import CourseSite
import CourseModel
import Foundation
import LessonParsing
import Testing

/// The pure parts of the pages made for readers: a lesson's one-sentence summary, the whole
/// course on one page, the assets named by their content, outputs split into lines.
struct FirstSentenceTests {
    @Test(arguments: [
        ("<p>One sentence. Two sentences.</p>\n", "<p>One sentence.</p>\n"),
        ("<p>Ask it? Then answer.</p>\n", "<p>Ask it?</p>\n"),
        ("<p>Only one sentence here.</p>\n", "<p>Only one sentence here.</p>\n"),
        // Inside code a full stop ends nothing; tags opened before the end are closed.
        ("<p>Call <code>a. B</code> and <em>stop. Now</em> go.</p>\n", "<p>Call <code>a. B</code> and <em>stop.</em></p>\n"),
        // An ordinal (`6. ders`) and a lower-case word after the stop go on.
        ("<p>Bu 6. derste bir şey. Sonra öteki.</p>\n", "<p>Bu 6. derste bir şey.</p>\n"),
        ("<p>Etc. and so on. Next.</p>\n", "<p>Etc. and so on.</p>\n"),
        ("<p>Bkz. 6. Ders ve sonrası. Sonra.</p>\n", "<p>Bkz. 6. Ders ve sonrası.</p>\n"),
        // Closing quotes belong to the sentence.
        ("<p>He said “stop.” Then left.</p>\n", "<p>He said “stop.”</p>\n"),
        ("<p>He said &quot;stop.&quot; Then left.</p>\n", "<p>He said &quot;stop.&quot;</p>\n"),
        // A line break inside the paragraph is a space.
        ("<p>First line ends.\nSecond.</p>\n", "<p>First line ends.</p>\n"),
        ("<p>A link <a href=\"x.html\">ends here.</a> Then.</p>\n", "<p>A link <a href=\"x.html\">ends here.</a></p>\n"),
    ])
    func theFirstSentence(_ html: String, _ expected: String) {
        #expect(firstSentence(ofHTML: html) == expected)
    }
}

/// What a page's meta description says of its lead: the reader's text, on one line.
struct PlainTextTests {
    @Test func theTextOfALead() {
        #expect(plainText(ofHTML: "<p>The <code>x</code> counts &amp; &lt;b&gt;\n“causes”<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1\" data-footnote-ref>1</a></sup>.</p>\n")
                == "The x counts & <b> “causes”.")
    }
}

struct WholeCourseTests {
    let pages: Set<String> = ["01-a.html", "02-b.html"]

    @Test func anchorsOfALessonBecomeItsOwnOnThePage() {
        let html = """
            <div class="heading"><h2 id="ozet">Özet</h2><a class="anchor" href="#ozet" aria-label="x">#</a></div>
            <aside class="limit" id="dr3" role="note" aria-labelledby="dr3-label">
            <p class="limit-label" id="dr3-label"><a href="#dr3">DR3</a> <a class="limit-kind" href="limitations.html#about-notes">kind</a></p>
            <p>See <a href="02-b.html#dr9">DR9</a>, <a href="02-b.html#giris">there</a>, <a href="02-b.html">lesson 2</a> and <a href="https://example.org/#x">out</a>.<sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1</a></sup></p>
            </aside>
            <h3 id="alt">Alt</h3>
            """
        let relinked = WholeCourse.relinked(html, lesson: "01-a", lessonPages: pages)
        #expect(relinked.contains("<h3 id=\"01-a--ozet\">Özet</h3><a class=\"anchor\" href=\"#01-a--ozet\""))
        #expect(relinked.contains("<aside class=\"limit\" id=\"dr3\" role=\"note\" aria-labelledby=\"dr3-label\">"))
        #expect(relinked.contains("<a href=\"#dr3\">DR3</a> <a class=\"limit-kind\" href=\"limitations.html#about-notes\">"))
        #expect(relinked.contains("<a href=\"#dr9\">DR9</a>, <a href=\"#02-b--giris\">there</a>, <a href=\"#02-b\">lesson 2</a>"))
        #expect(relinked.contains("<a href=\"https://example.org/#x\">out</a>"))
        #expect(relinked.contains("<a href=\"#01-a--fn-1\" id=\"01-a--fnref-1\">"))
        #expect(relinked.contains("<h4 id=\"01-a--alt\">Alt</h4>"))
    }
}

struct SiteAssetsTests {
    @Test func assetsAreNamedByTheirContentAndTheStylesheetFollowsItsImages() {
        let assets = SiteAssets(["style.css": Array("body { background: url(logo.svg); }".utf8),
                                 "logo.svg": Array("<svg/>".utf8), "LICENSE": Array("text".utf8)])
        let logo = assets.href("logo.svg") ?? ""
        #expect(logo.range(of: #"^assets/logo\.[0-9a-f]{10}\.svg$"#, options: .regularExpression) != nil, "\(logo)")
        #expect(assets.href("LICENSE")?.range(of: #"^assets/LICENSE\.[0-9a-f]{10}$"#, options: .regularExpression) != nil)
        let css = assets.files.first { $0.path == assets.href("style.css") }.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(css == "body{background:url(\(logo.dropFirst("assets/".count)));}")
        // Another content is another name.
        let changed = SiteAssets(["style.css": Array("body { color: red }".utf8)])
        #expect(changed.href("style.css") != SiteAssets(["style.css": Array("body { color: blue }".utf8)]).href("style.css"))
        #expect(assets.files.map(\.path) == assets.files.map(\.path).sorted())
    }

    /// The stylesheet is sent without its comments and spare spaces; strings stay as written.
    @Test func theStylesheetIsSentWithoutCommentsOrSpareSpaces() {
        let css = """
            /* The page. */
            body {
              font: 1rem/1.5 "Noto /* Sans */", sans-serif;   /* a comment */
              content: 'a  b';
            }
            .a > .b,  .c :is(h2, h3) { margin: 0 auto; }
            @container (34rem <= width < 600px) { .d { --cell: var(--outline); } }
            a/b
            """
        #expect(SiteAssets.minified(css: css) == "body{font:1rem/1.5 \"Noto /* Sans */\",sans-serif;content:'a  b';}.a>.b,.c :is(h2,h3){margin:0 auto;}@container (34rem <= width < 600px){.d{--cell:var(--outline);}}a/b")
    }
}

struct OutputLinesTests {
    @Test func eachLineIsAnElementAndTheTextStaysAsPrinted() {
        let html = LessonBody.outputLines("a: x | atlanan A,B\n  indented <b>\nlast")
        #expect(html == "<span class=\"line\">a: x | atlanan A,<wbr>B\n</span><span class=\"line\" style=\"--lead:2\">  indented &lt;b&gt;\n</span><span class=\"line\">last</span>")
    }
}

struct CodeLinesTests {
    /// A highlighting span that runs over a line end is closed and opened again, so that each
    /// line is an element of its own; leading spaces set the hanging indent.
    @Test func aSpanOverALineEndIsSplit() {
        let html = LessonBody.lines("<span class=\"tok-comment\">/* one\n   two */</span>\n    x\n")
        #expect(html == "<span class=\"line\"><span class=\"tok-comment\">/* one</span>\n</span>"
                + "<span class=\"line\" style=\"--lead:3\"><span class=\"tok-comment\">   two */</span>\n</span>"
                + "<span class=\"line\" style=\"--lead:4\">    x</span>")
    }

    /// An output keeps a blank last line the program printed.
    @Test func anOutputKeepsItsBlankLines() {
        #expect(LessonBody.outputLines("a\n") == "<span class=\"line\">a\n</span><span class=\"line\"></span>")
    }
}

/// Every title and label the tool writes is set as the lessons' prose is: no straight quote
/// among the built-in words, and course.json's title and description typeset with the lessons.
struct TypesetWordsTests {
    /// Every text of a value: its strings, the strings its closures make, and those of the
    /// values it holds.
    func texts(of value: Any) -> [String] {
        Mirror(reflecting: value).children.flatMap { child -> [String] in
            switch child.value {
            case let text as String: return [text]
            case let titles as [CalloutKind: String]: return Array(titles.values)
            case let words as [String: String]: return Array(words.values)
            case let diagram as DiagramWords: return texts(of: diagram)
            case _ where "\(type(of: child.value))".contains("->"):
                return []  // the closures are read below, by name
            default:
                Issue.record("\(child.label ?? "?"): a kind of word this test does not read: \(type(of: child.value))")
                return []
            }
        }
    }

    @Test(arguments: ["tr", "en"])
    func theToolsWordsHaveNoStraightQuotes(language: String) throws {
        let words = try #require(SiteWords.forLanguage(language))
        let all = texts(of: words) + [words.sectionLink("Özet"), words.verifiedWith("6.3"), words.footer("6.3")]
            + [1, 2].flatMap { [words.scenarioCount($0), words.noteCount($0)] }
        #expect(all.count > 60)
        let straight = all.filter { $0.contains("'") || $0.contains("\"") }
        #expect(straight == [], "straight quotes in the \(language) words")
    }

    @Test func theCourseTitleIsTypesetWithTheLessons() {
        let config = CourseConfig(title: "SwiftUI'de \"Yeniden\" Hesaplama", language: "tr", core: [], description: "Linux'ta `x`... -- ok",
                                  typography: .smart)
        let course = Course(folder: "c", folderPath: "/c", config: config, coreFiles: [], lessons: [])
        let typeset = SitePages.typeset(course)
        #expect(typeset.config.title == "SwiftUI’de “Yeniden” Hesaplama")
        #expect(typeset.config.description == "Linux’ta `x`… – ok")
        var plain = course
        plain.config.typography = .plain
        #expect(SitePages.typeset(plain).config.title == "SwiftUI'de \"Yeniden\" Hesaplama")
    }
}
