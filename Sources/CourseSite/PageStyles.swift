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
        // On the UTF-8 bytes: Foundation's `contains` on a String goes through NSString (UTF-16,
        // locale-aware) and took three quarters of a 100-lesson build's CPU (7 s of 9) on the
        // markers of every page.
        let bytes = Array(html.utf8)
        let found = Self.parts.filter { part in part.markers.contains { Self.bytes(bytes, contain: $0) } }
        files = found.map(\.file)
    }

    /// Whether `haystack` holds the UTF-8 bytes of `needle` (a scan for its first byte, then a
    /// comparison of the rest).
    static func bytes(_ haystack: [UInt8], contain needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard let first = needle.first, haystack.count >= needle.count else { return needle.isEmpty }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { wanted in
                var index = 0
                let last = hay.count - wanted.count
                while index <= last {
                    if hay[index] == first {
                        var matched = 1
                        while matched < wanted.count && hay[index + matched] == wanted[matched] { matched += 1 }
                        if matched == wanted.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    /// The sheets for a page that holds what each of `contents` holds (the whole course).
    package init(contents: [String]) {
        let needed = Set(contents.flatMap { PageStyles(content: $0).files })
        files = Self.parts.map(\.file).filter(needed.contains)
    }
}
