@testable import CourseSite
import Foundation
import Testing

/// Which stylesheets a page links: the base one always, a part only for what the page holds.
struct PageStylesTests {
    @Test func aPageLinksOnlyThePartsOfWhatItHolds() {
        #expect(PageStyles(content: "<article class=\"lesson\"><p>Text.</p></article>").files == [])
        #expect(PageStyles(content: "<div class=\"callout callout-note\" role=\"note\">").files == ["style-callouts.css"])
        #expect(PageStyles(content: "<span class=\"tok-placeholder\">name</span><div class=\"refusal\">").files
                == ["style-refusals.css", "style-placeholders.css"])
        #expect(PageStyles(content: "<p class=\"trap\">").files == ["style-refusals.css"])
        #expect(PageStyles(content: "<div class=\"diagrams\" data-pagefind-ignore>").files == ["style-diagrams.css"])
        #expect(PageStyles(content: "<header class=\"hero\">").files == ["style-index.css"])
        #expect(PageStyles(content: "<div class=\"limitations\">").files == ["style-limitations.css"])
        #expect(PageStyles(content: "<div class=\"table-wrap\" tabindex=\"0\"><table>").files == ["style-tables.css"])
        #expect(PageStyles(content: "<div class=\"glossary\">").files == ["style-tables.css"])
        #expect(PageStyles(content: "<p>A <code>&lt;table&gt;</code> in words.</p>").files == [])
        // Words in a lesson's text are escaped: they never ask for a sheet.
        #expect(PageStyles(content: "<code>class=&quot;callout&quot;</code>").files == [])
        // Markers are found among any text (they are looked for in the UTF-8 bytes), at the
        // very end too, and a marker cut short is none.
        #expect(PageStyles(content: "<p>Türkçe — “ölçüm”…</p><div class=\"callout").files == ["style-callouts.css"])
        #expect(PageStyles(content: "<p>ğüşiöç</p><div class=\"callou").files == [])
        #expect(PageStyles(content: "").files == [])
        // The whole course holds what each of its parts holds, in the one link order.
        #expect(PageStyles(contents: ["<div class=\"callout\">", "<header class=\"hero print-hero\">", "<p class=\"trap\">"]).files
                == ["style-index.css", "style-refusals.css", "style-callouts.css"])
    }

    /// A page is read once for all the markers: each is found wherever it stands among many
    /// other class attributes (before, after, between others, two in one page), the first
    /// bytes of the page included; a `class="` with nothing after it, a quote with no
    /// `class=` before it, or a `<tabl` cut short, is no marker.
    @Test func everyMarkerIsFoundInOnePass() {
        let filler = String(repeating: "<span class=\"tok-keyword\">let</span> ", count: 200)
        for part in PageStyles.parts {
            for marker in part.markers {
                #expect(PageStyles(content: filler + "<div " + marker + "\">" + filler).files == [part.file], "\(marker)")
                #expect(PageStyles(content: marker).files == [part.file], "\(marker)")
            }
        }
        #expect(PageStyles(content: filler + "<p class=\"trap\">" + filler + "<div class=\"diagrams\">").files
                == ["style-refusals.css", "style-diagrams.css"])
        #expect(PageStyles(content: "<p class=\"").files == [])
        #expect(PageStyles(content: "<p data-x=\"callout\" class=\"x\">").files == [])
        // A marker found by its '<' (a table has no class) is found as those found by a quote.
        #expect(PageStyles(content: filler + "<div class=\"callout\"><table>").files == ["style-callouts.css", "style-tables.css"])
        #expect(PageStyles(content: "<p>table</p><tabl").files == [])
    }

    /// Every part sheet is a built-in template, so a site always has what a page links.
    @Test func everyPartIsABuiltInSheet() throws {
        let templates = try TemplateSet.builtIn()
        for part in PageStyles.parts { #expect(templates.assets[part.file] != nil, "\(part.file)") }
        #expect(templates.assets[PageStyles.base] != nil)
    }

    /// On the built pages: the base sheet first, then the parts; a page without a refusal does
    /// not link the refusals' sheet, the page with one does, and the whole course links them all.
    @Test func builtPagesLinkTheirSheets() throws {
        let (_, files) = try renderedFixture("must-fail")
        let sheets = { (page: String) in linked(files.text(page)) }
        let traps = sheets("05-traps.html")
        #expect(traps.count == 2 && traps[0].hasPrefix("assets/style.") && traps[1].hasPrefix("assets/style-refusals."), "\(traps)")
        let index = sheets("index.html")
        #expect(index.count == 2 && index[1].hasPrefix("assets/style-index."), "\(index)")
        #expect(sheets("search.html").count == 1, "\(sheets("search.html"))")
        #expect(sheets("print.html").contains { $0.hasPrefix("assets/style-refusals.") } && sheets("print.html").contains { $0.hasPrefix("assets/style-index.") })
        for page in files where page.path.hasSuffix(".html") {
            for sheet in linked(files.text(page.path)) { #expect(files.contains { $0.path == sheet }, "\(page.path): \(sheet)") }
        }
    }

    private func linked(_ html: String) -> [String] {
        html.components(separatedBy: "<link rel=\"stylesheet\" href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
