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

    /// A marker as the one pass looks for it: the byte it is found by (its first quote or
    /// `<`), the bytes before that byte and those from it on, and the part it belongs to.
    struct Marker {
        let anchor: UInt8
        let before: [UInt8]
        let rest: [UInt8]
        let part: Int
    }

    static let anchorBytes: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "<")]
    static let markers: [Marker] = parts.indices.flatMap { index in
        parts[index].markers.map { text in
            let bytes = Array(text.utf8)
            guard let at = bytes.firstIndex(where: anchorBytes.contains) else {
                preconditionFailure("a part sheet's marker holds a quote or a '<': \(text)")
            }
            return Marker(anchor: bytes[at], before: Array(bytes[..<at]), rest: Array(bytes[at...]), part: index)
        }
    }
    /// For each byte value, the markers found by it.
    static let markersByAnchor: [[Marker]] = (0...255).map { byte in markers.filter { $0.anchor == byte } }

    /// The indices of the parts whose markers `bytes` holds, in order: one pass over the bytes
    /// (on the UTF-8 bytes: Foundation's `contains` on a String goes through NSString, UTF-16
    /// and locale-aware, and took 7 s of a 100-lesson build's 9 s of CPU; and a scan per marker
    /// read each page thirteen times, an eighth of a 1000-lesson build's CPU). Every marker
    /// holds its anchor byte, so wherever it stands the pass stops on that byte and sees it.
    static func parts(in bytes: [UInt8]) -> [Int] {
        var found = [Bool](repeating: false, count: parts.count)
        var left = parts.count
        let byAnchor = markersByAnchor
        bytes.withUnsafeBufferPointer { hay in
            var position = 0
            while position < hay.count, left > 0 {
                let candidates = byAnchor[Int(hay[position])]
                if !candidates.isEmpty {
                    for marker in candidates where !found[marker.part]
                        && position >= marker.before.count && hay.count - position >= marker.rest.count
                        && marker.before.indices.allSatisfy({ hay[position - marker.before.count + $0] == marker.before[$0] })
                        && marker.rest.indices.allSatisfy({ hay[position + $0] == marker.rest[$0] }) {
                        found[marker.part] = true
                        left -= 1
                    }
                }
                position += 1
            }
        }
        return found.indices.filter { found[$0] }
    }

    /// The sheets for a page that holds what each of `contents` holds (the whole course).
    package init(contents: [String]) {
        var needed = Set<Int>()
        for content in contents where needed.count < Self.parts.count { needed.formUnion(Self.parts(in: Array(content.utf8))) }
        files = Self.parts.indices.filter(needed.contains).map { Self.parts[$0].file }
    }
}
