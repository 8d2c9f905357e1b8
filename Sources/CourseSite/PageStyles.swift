#if canImport(Glibc)
import Glibc
#endif

/// Which stylesheets a page links: `style.css`, which every page links (the layout, prose,
/// code, outputs, notes, search), and after it each part sheet whose styles the page holds
/// something for. A lesson without a refusal, a diagram or an aside does not download their
/// styles. The choice is a pure function of the page's kind and its content's HTML.
package struct PageStyles: Equatable, Sendable {
    /// A sheet that only some pages need: its file in the templates folder, and the class
    /// attributes (as they begin in the page's HTML) of what it styles.
    package struct Part: Equatable, Sendable {
        package let file: String
        package let markers: [String]
    }

    /// Every page's sheet.
    package static let base = "style.css"

    /// The part sheets, in the order a page links them.
    package static let parts: [Part] = [
        Part(file: "style-index.css", markers: ["class=\"hero"]),
        Part(file: "style-limitations.css", markers: ["class=\"limitations", "class=\"about-notes", "class=\"limit-list", "class=\"notes-index"]),
        Part(file: "style-refusals.css", markers: ["class=\"refusal", "class=\"trap", "class=\"line error-line"]),
        Part(file: "style-diagrams.css", markers: ["class=\"diagrams"]),
        Part(file: "style-callouts.css", markers: ["class=\"callout"]),
        Part(file: "style-placeholders.css", markers: ["class=\"tok-placeholder"]),
        // A table's element itself (a table of a lesson has no class), and the glossary's list.
        Part(file: "style-tables.css", markers: ["<table", "class=\"glossary"]),
    ]

    /// The part sheets (their files in the templates folder) the page needs, in link order.
    package let files: [String]

    /// The sheets for a page whose content (what the layout's `{{content}}` holds) is `html`.
    package init(content html: some StringProtocol) {
        files = Self.parts(in: Array(html.utf8)).map { Self.parts[$0].file }
    }

    /// Most markers begin with this: the page is read once for them all, from one `class="`
    /// to the next.
    static let markerStart = Array("class=\"".utf8)
    /// Each such marker without `markerStart`, with the part it belongs to.
    static let markerRests: [(rest: [UInt8], part: Int)] = parts.indices.flatMap { index in
        parts[index].markers.filter { $0.utf8.starts(with: markerStart) }.map { marker in
            (Array(marker.utf8.dropFirst(markerStart.count)), index)
        }
    }
    /// The other markers (a table's element), each looked for on its own.
    static let otherMarkers: [(marker: String, part: Int)] = parts.indices.flatMap { index in
        parts[index].markers.filter { !$0.utf8.starts(with: markerStart) }.map { ($0, index) }
    }

    /// The indices of the parts whose markers `bytes` holds, in order: one pass over the bytes
    /// for the class attributes and one per other marker, each a `memchr` or `memmem` (on the
    /// UTF-8 bytes: Foundation's `contains` on a String goes through NSString, UTF-16 and
    /// locale-aware, and took 7 s of a 100-lesson build's 9 s of CPU; a Swift scan per marker
    /// read each page thirteen times, an eighth of a 1000-lesson build's CPU; and a Swift loop
    /// over every byte, a tenth).
    static func parts(in bytes: [UInt8]) -> [Int] {
        var found = [Bool](repeating: false, count: parts.count)
        bytes.withUnsafeBufferPointer { hay in
            guard let base = hay.baseAddress else { return }
            for (marker, part) in otherMarkers where !found[part] {
                found[part] = Self.bytes(hay, contain: Array(marker.utf8))
            }
            var left = Set(markerRests.map(\.part).filter { !found[$0] }).count
            let start = markerStart, quote = UInt8(ascii: "\"")
            // `class="` ends in the only quote of the marker's start: from quote to quote.
            var position = start.count - 1
            while position < hay.count, left > 0,
                  let hit = memchr(base + position, Int32(quote), hay.count - position) {
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                position = at + 1
                guard (0..<(start.count - 1)).allSatisfy({ hay[at - (start.count - 1) + $0] == start[$0] }) else { continue }
                for (rest, part) in markerRests where !found[part] && hay.count - position >= rest.count
                    && rest.indices.allSatisfy({ hay[position + $0] == rest[$0] }) {
                    found[part] = true
                    left -= 1
                }
            }
        }
        return found.indices.filter { found[$0] }
    }

    /// Whether `hay` holds `needle`: `memchr` for its first byte, then `memcmp`.
    static func bytes(_ hay: UnsafeBufferPointer<UInt8>, contain needle: [UInt8]) -> Bool {
        guard let base = hay.baseAddress, let first = needle.first, hay.count >= needle.count else { return needle.isEmpty }
        var index = 0
        let last = hay.count - needle.count
        while index <= last, let hit = memchr(base + index, Int32(first), last - index + 1) {
            index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + index, needle, needle.count) == 0 { return true }
            index += 1
        }
        return false
    }

    /// The sheets for a page that holds what each of `contents` holds (the whole course).
    package init(contents: [String]) {
        var needed = Set<Int>()
        for content in contents where needed.count < Self.parts.count { needed.formUnion(Self.parts(in: Array(content.utf8))) }
        files = Self.parts.indices.filter(needed.contains).map { Self.parts[$0].file }
    }
}
