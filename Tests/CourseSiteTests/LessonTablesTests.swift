@testable import CourseSite
import LessonParsing
import Testing

/// Tables read back from cmark-gfm's HTML and shown the way they fit, and the glossary made
/// from a lesson's two-column table.
struct LessonTablesTests {
    static let narrow = "<table>\n<thead>\n<tr>\n<th>key</th>\n<th align=\"right\">n</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td><code>a</code></td>\n<td align=\"right\">1</td>\n</tr>\n</tbody>\n</table>\n"
    static let wide = "<table>\n<thead>\n<tr>\n<th>Değer nerede yaşar</th>\n<th>Nasıl okunur</th>\n<th>Tetik</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Sahibin <code>@State</code>’i, çocuğa <code>let</code> (2. ders)</td>\n<td>çocuğun saklı girdisi</td>\n<td><code>ebeveyn</code></td>\n</tr>\n</tbody>\n</table>\n"

    @Test func aNarrowTableStaysATableInAFrameThatScrolls() throws {
        let table = try #require(RenderedTable(html: Self.narrow))
        #expect(table.header == [.init(attributes: "", html: "key"), .init(attributes: " align=\"right\"", html: "n")])
        #expect(table.rows == [[.init(attributes: "", html: "<code>a</code>"), .init(attributes: " align=\"right\"", html: "1")]])
        #expect(table.naturalWidth < RenderedTable.phoneColumn)
        #expect(table.html() == "<div class=\"table-wrap\" tabindex=\"0\">\n" + Self.narrow + "</div>\n")
        #expect(RenderedTable(html: "<p>not a table</p>\n") == nil)
    }

    @Test func aWideTableBecomesCardsWithItsHeaderAsLabels() throws {
        let table = try #require(RenderedTable(html: Self.wide))
        #expect(table.naturalWidth > RenderedTable.phoneColumn)
        let html = table.html()
        #expect(html.hasPrefix("<div class=\"table-wrap table-wide table-cards\" tabindex=\"0\">\n<table>\n"))
        #expect(html.contains("<td data-label=\"Değer nerede yaşar\">Sahibin <code>@State</code>’i, çocuğa <code>let</code> (2. ders)</td>"))
        #expect(html.contains("<td data-label=\"Tetik\"><code>ebeveyn</code></td>"))
    }

    static let glossaryTable = "<table>\n<thead>\n<tr>\n<th>Kursun terimi</th>\n<th>İngilizce</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>ata</td>\n<td>ancestor</td>\n</tr>\n<tr>\n<td>girdi, saklı girdi</td>\n<td>input</td>\n</tr>\n<tr>\n<td>anahtar (ortam anahtarı)</td>\n<td>environment key</td>\n</tr>\n<tr>\n<td>Işık</td>\n<td>light</td>\n</tr>\n<tr>\n<td>yeniden hesaplama</td>\n<td>recomputation</td>\n</tr>\n</tbody>\n</table>\n"

    func glossary() -> Glossary {
        Glossary(blocks: [.html("<p>Intro.</p>\n", block: 1), .html(Self.glossaryTable, block: 2)], page: "08-sozluk.html",
                 language: "tr", reserved: ["main"])
    }

    @Test func theGlossaryIsADefinitionListWithAnAnchorPerTerm() throws {
        let glossary = glossary()
        #expect(glossary.entries.map(\.anchor) == ["ata", "girdi-sakli-girdi", "anahtar-ortam-anahtari", "isik", "yeniden-hesaplama"])
        #expect(glossary.entries.map { $0.forms.map { String($0) } } == [["ata"], ["girdi", "saklı girdi"], ["anahtar"], ["ışık"], ["yeniden hesaplama"]])
        let list = try #require(glossary.definitionList(Self.glossaryTable))
        #expect(list.contains("<dl>\n<dt id=\"ata\">ata</dt>\n<dd>ancestor</dd>\n"))
        #expect(list.contains("<dt id=\"anahtar-ortam-anahtari\">anahtar (ortam anahtarı)</dt>\n<dd>environment key</dd>"))
        #expect(list.contains("<span>Kursun terimi</span> <span>İngilizce</span>"))
        #expect(glossary.definitionList(LessonTablesTests.wide) == nil)
    }

    /// The first use of a term on a page is linked, whole words only (a suffix after an
    /// apostrophe may follow), in the language's lower case; code, links and later uses are not.
    @Test func aLessonLinksTheFirstUseOfEachTerm() {
        let glossary = glossary()
        var linked: Set<String> = []
        let first = glossary.linkingTerms(in: "<p>Atama <code>ata</code> değil; <a href=\"x\">ata</a>. ISIK ve Işık’ı, bir ata ve ata.</p>\n", linked: &linked)
        #expect(first == "<p>Atama <code>ata</code> değil; <a href=\"x\">ata</a>. ISIK ve <a class=\"term\" href=\"08-sozluk.html#isik\">Işık</a>’ı, bir <a class=\"term\" href=\"08-sozluk.html#ata\">ata</a> ve ata.</p>\n")
        let second = glossary.linkingTerms(in: "<li>Bir ata, saklı girdi ve Yeniden hesaplama.</li>", linked: &linked)
        #expect(second == "<li>Bir ata, <a class=\"term\" href=\"08-sozluk.html#girdi-sakli-girdi\">saklı girdi</a> ve <a class=\"term\" href=\"08-sozluk.html#yeniden-hesaplama\">Yeniden hesaplama</a>.</li>")
        #expect(linked == ["ata", "isik", "girdi-sakli-girdi", "yeniden-hesaplama"])
    }
}
