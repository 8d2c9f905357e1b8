import CourseModel
import Foundation
import HTMLText
import LessonParsing

/// A table as cmark-gfm renders it (`<table>`, a `<thead>` row, `<tbody>` rows, one cell a
/// line), read back into cells so that the page can show it the way it fits: a table that is
/// too wide for a phone becomes a stack of cards there (one card a row, the header as the
/// labels), may use the column's whole width on a wide screen, and scrolls (with a shadow and
/// its first column kept in view) where it still does not fit.
struct RenderedTable: Equatable {
    struct Cell: Equatable {
        /// What stands in the tag after its name (` align="left"`), empty for nothing.
        var attributes: String
        /// The cell's inline HTML.
        var html: String
    }

    var header: [Cell]
    var rows: [[Cell]]

    /// Reads cmark-gfm's HTML of one table; nil for anything else.
    init?(html: String) {
        guard html.hasPrefix("<table>\n"), html.hasSuffix("</table>\n") else { return nil }
        var header: [Cell] = [], rows: [[Cell]] = []
        var inBody = false
        for line in html.split(separator: "\n") {
            switch line {
            case "<table>", "</table>", "<thead>", "</thead>", "</tr>": continue
            case "<tbody>": inBody = true
            case "</tbody>": inBody = false
            case "<tr>": if inBody { rows.append([]) }
            default:
                let tag = inBody ? "td" : "th"
                guard line.hasPrefix("<\(tag)"), line.hasSuffix("</\(tag)>"),
                      let close = line.firstIndex(of: ">") else { return nil }
                let attributes = String(line[line.index(line.startIndex, offsetBy: tag.count + 1)..<close])
                let cell = Cell(attributes: attributes, html: String(line[line.index(after: close)...].dropLast(tag.count + 3)))
                if inBody {
                    guard !rows.isEmpty else { return nil }
                    rows[rows.count - 1].append(cell)
                } else {
                    header.append(cell)
                }
            }
        }
        guard !header.isEmpty else { return nil }
        self.header = header
        self.rows = rows
    }

    /// About how wide the table wants to be, in CSS pixels: each column as wide as its longest
    /// cell, up to a line of prose that would wrap anyway.
    var naturalWidth: Double {
        header.indices.map { column in
            let longest = ([header[column]] + rows.compactMap { column < $0.count ? $0[column] : nil })
                .map { plainText(ofHTML: $0.html).count }.max() ?? 0
            return Double(min(longest, 28)) * 8 + 24
        }.reduce(0, +)
    }

    /// A table wider than this does not fit a 360 px phone's column (328 px).
    static let phoneColumn = 328.0

    /// The table, in a frame that scrolls (and the keyboard can reach): as cards on a phone
    /// when it is too wide for one (each cell labelled with its column's header), using the
    /// column's whole width on a wide screen.
    func html() -> String {
        let wide = naturalWidth > Self.phoneColumn
        var html = "<div class=\"table-wrap\(wide ? " table-wide table-cards" : "")\" tabindex=\"0\">\n<table>\n<thead>\n<tr>\n"
        for cell in header { html += "<th\(cell.attributes)>\(cell.html)</th>\n" }
        html += "</tr>\n</thead>\n"
        if !rows.isEmpty {
            html += "<tbody>\n"
            for row in rows {
                html += "<tr>\n"
                for (column, cell) in row.enumerated() {
                    let label = wide && column < header.count ? " data-label=\"\(escapeHTML(plainText(ofHTML: header[column].html)))\"" : ""
                    html += "<td\(cell.attributes)\(label)>\(cell.html)</td>\n"
                }
                html += "</tr>\n"
            }
            html += "</tbody>\n"
        }
        return html + "</table>\n</div>\n"
    }
}

/// The course's glossary (`course.json`'s `"glossary"`): the terms of its lesson's two-column
/// tables, each with an anchor of its own on the glossary's page. On that page the tables are
/// definition lists; in every other lesson the first use of each term links to it.
struct Glossary: Sendable {
    struct Entry: Sendable, Equatable {
        /// The term as the table writes it (plain text).
        var term: String
        /// The forms a lesson may use: the term's comma-separated parts without what stands
        /// in brackets (`girdi, saklı girdi` is `girdi` and `saklı girdi`), lower-cased.
        var forms: [[Character]]
        var anchor: String
        /// The definition's inline HTML.
        var definition: String
    }

    var entries: [Entry]
    /// The glossary lesson's page (`08-sozluk.html`).
    var page: String
    var language: String

    /// The entries of the glossary lesson's rendered blocks; `reserved` are anchors the page
    /// has already (notes, footnotes).
    init(blocks: [RenderedBlock], page: String, language: String, reserved: Set<String>) {
        var anchors = AnchorNamer(reserved: reserved)
        var entries: [Entry] = []
        for case let .html(fragment, _) in blocks {
            guard let table = RenderedTable(html: fragment), table.header.count == 2 else { continue }
            for row in table.rows where row.count == 2 {
                let term = plainText(ofHTML: row[0].html)
                guard !term.isEmpty else { continue }
                entries.append(Entry(term: term, forms: Self.forms(of: term, language: language),
                                     anchor: anchors.anchor(for: term), definition: row[1].html))
            }
        }
        self.entries = entries
        self.page = page
        self.language = language
    }

    /// The anchors of the terms: a heading of the glossary's page never takes one.
    var anchors: Set<String> { Set(entries.map(\.anchor)) }

    static func forms(of term: String, language: String) -> [[Character]] {
        var outside = ""
        var depth = 0
        for character in term {
            if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) } else if depth == 0 { outside.append(character) }
        }
        return outside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { lowered(Array($0), language: language) }
    }

    /// Each character in lower case as the language writes it (Turkish `I` is `ı`), one for one.
    static func lowered(_ characters: [Character], language: String) -> [Character] {
        let locale = Locale(identifier: language)
        return characters.map { character in
            let lower = String(character).lowercased(with: locale)
            return lower.count == 1 ? lower.first! : character
        }
    }

    /// A glossary lesson's two-column table as a definition list: a `<dt>` with its anchor for
    /// each term, its definition in the `<dd>`; the columns' headings above it. Nil for a
    /// table of another shape.
    func definitionList(_ fragment: String) -> String? {
        guard let table = RenderedTable(html: fragment), table.header.count == 2 else { return nil }
        var byTerm: [String: [Entry]] = [:]
        for entry in entries { byTerm[entry.term, default: []].append(entry) }
        var html = "<div class=\"glossary\">\n<p class=\"glossary-columns\" aria-hidden=\"true\"><span>\(table.header[0].html)</span> <span>\(table.header[1].html)</span></p>\n<dl>\n"
        for row in table.rows where row.count == 2 {
            let term = plainText(ofHTML: row[0].html)
            guard var found = byTerm[term], !found.isEmpty else { continue }
            let entry = found.removeFirst()
            byTerm[term] = found
            html += "<dt id=\"\(entry.anchor)\">\(row[0].html)</dt>\n<dd>\(row[1].html)</dd>\n"
        }
        return html + "</dl>\n</div>\n"
    }

    /// `html` (a lesson's rendered block) with the first use of each term in this lesson linked
    /// to its entry; `linked` holds the anchors already linked on the page. Text inside links,
    /// code and headings stays as it is; a term is a whole word or words (a suffix after an
    /// apostrophe may follow: `tetik’i`).
    func linkingTerms(in html: String, linked: inout Set<String>) -> String {
        let candidates = entries.filter { !linked.contains($0.anchor) }
        guard !candidates.isEmpty else { return html }
        var result = ""
        var skipDepth = 0
        var index = html.startIndex
        while index < html.endIndex {
            if html[index] == "<" {
                let end = html[index...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
                let tag = html[index..<end]
                let name = tag.dropFirst(tag.hasPrefix("</") ? 2 : 1).prefix { $0.isLetter || $0.isNumber }.lowercased()
                if ["a", "code", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "sup", "kbd", "samp", "svg"].contains(name) {
                    skipDepth += tag.hasPrefix("</") ? -1 : 1
                    skipDepth = max(0, skipDepth)
                }
                result += tag
                index = end
                continue
            }
            let end = html[index...].firstIndex(of: "<") ?? html.endIndex
            let text = String(html[index..<end])
            result += skipDepth > 0 ? text : link(text, candidates: candidates, linked: &linked)
            index = end
        }
        return result
    }

    private func link(_ text: String, candidates: [Entry], linked: inout Set<String>) -> String {
        let characters = Array(text)
        let lower = Self.lowered(characters, language: language)
        func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber }
        var result = ""
        var position = 0, copied = 0
        while position < characters.count {
            guard position == 0 || !isWord(characters[position - 1]), isWord(characters[position]) else {
                position += 1
                continue
            }
            var found: (entry: Entry, length: Int)?
            for entry in candidates where !linked.contains(entry.anchor) {
                for form in entry.forms where form.count > (found?.length ?? 0) {
                    let end = position + form.count
                    guard end <= characters.count, Array(lower[position..<end]) == form,
                          end == characters.count || !isWord(characters[end]) else { continue }
                    found = (entry, form.count)
                }
            }
            guard let (entry, length) = found else { position += 1; continue }
            result += String(characters[copied..<position])
            // The text is the page's escaped HTML already; a term's letters need no escaping.
            let word = String(characters[position..<(position + length)])
            result += "<a class=\"term\" href=\"\(page)#\(entry.anchor)\">\(word)</a>"
            linked.insert(entry.anchor)
            position += length
            copied = position
        }
        return result + String(characters[copied...])
    }
}
