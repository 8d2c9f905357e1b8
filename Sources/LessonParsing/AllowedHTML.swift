import CourseModel
import HTMLText

/// The handful of HTML a lesson may use: `<kbd>`, `<sub>`, `<sup>`, `<br>`, `<mark>`, `<abbr>`
/// (with `title` only), and `<details>` (with `open` only) with its `<summary>`, which is how
/// a lesson hides an exercise's answer without script. A node of raw HTML passes only when it
/// is nothing but such tags, written exactly (lower case, no other attribute, no stray space);
/// the page then shows the tags as this file writes them, never the author's bytes. Anything
/// else is shown as text, with a warning.
package enum AllowedHTML {
    /// Whether raw HTML is nothing but comments (`<!-- editor's note -->`) and white space.
    package static func isComment(_ html: String) -> Bool {
        var rest = Substring(html)
        var found = false
        while true {
            rest = rest.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            if rest.isEmpty { return found }
            guard rest.hasPrefix("<!--"), let end = rest.dropFirst(4).firstRange(of: "-->") else { return false }
            rest = rest[end.upperBound...]
            found = true
        }
    }

    /// A part of an HTML node.
    package enum Piece: Equatable, Sendable {
        case open(String, attribute: Attribute?)
        case close(String)
        /// Text, only inside `<summary>` in an HTML block.
        case text(String)
    }

    package enum Attribute: Equatable, Sendable {
        /// `<abbr title="...">`
        case title(String)
        /// `<details open>`
        case open
    }

    /// Tags that may stand in a paragraph (one tag per inline HTML node).
    static let inlineNames: Set<String> = ["kbd", "sub", "sup", "br", "mark", "abbr"]
    /// Tags without a closing tag.
    static let voidNames: Set<String> = ["br"]

    /// The pieces of one node of raw HTML when every part of it is allowed: an inline node is
    /// exactly one inline tag; a block holds `<details>`, `</details>` and a `<summary>` with
    /// its text, separated by line ends.
    package static func pieces(_ literal: String, isBlock: Bool) -> [Piece]? {
        var scanner = Scanner(literal)
        var pieces: [Piece] = []
        var inSummary = false
        /// Inline tags open inside a summary.
        var openInline: [String] = []
        while !scanner.isAtEnd {
            if scanner.peek == UInt8(ascii: "<") {
                guard let tag = scanner.tag() else { return nil }
                switch tag {
                case .open(let name, _), .close(let name):
                    let isOpen = if case .open = tag { true } else { false }
                    if isBlock {
                        if name == "summary" {
                            guard inSummary != isOpen, openInline.isEmpty else { return nil }
                            inSummary = isOpen
                        } else if inSummary, inlineNames.contains(name) {
                            if voidNames.contains(name) {
                                // <br> stands alone.
                            } else if isOpen {
                                openInline.append(name)
                            } else {
                                guard openInline.popLast() == name else { return nil }
                            }
                        } else if name != "details" || inSummary {
                            return nil
                        }
                    } else {
                        guard inlineNames.contains(name) else { return nil }
                    }
                case .text:
                    return nil
                }
                pieces.append(tag)
            } else {
                let text = scanner.text()
                if isBlock, !inSummary {
                    guard text.allSatisfy({ $0 == "\n" || $0 == " " || $0 == "\t" || $0 == "\r" }) else { return nil }
                } else if !isBlock {
                    return nil
                } else {
                    pieces.append(.text(text))
                }
            }
        }
        guard !inSummary, !pieces.isEmpty else { return nil }
        if !isBlock, pieces.count != 1 { return nil }
        return pieces
    }

    /// The pieces as the page shows them: tags as this file writes them, text escaped.
    package static func html(_ pieces: [Piece]) -> String {
        pieces.map { piece in
            switch piece {
            case .open("br", _): return "<br>"
            case .open(let name, .title(let title)?): return "<\(name) title=\"\(escapeHTML(title))\">"
            case .open(let name, .open?): return "<\(name) open>"
            case .open(let name, nil): return "<\(name)>"
            case .close(let name): return "</\(name)>"
            case .text(let text): return escapeHTML(text)
            }
        }.joined()
    }

    /// Reads tags and text from the bytes of a node.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var isAtEnd: Bool { index >= bytes.count }
        var peek: UInt8 { bytes[index] }

        mutating func text() -> String {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// One tag at the scanner, written exactly: `<name>`, `<name attribute>`, `</name>`,
        /// `<br/>` or `<br />`. Anything else (upper case, spaces, other attributes) is not one.
        mutating func tag() -> Piece? {
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            let inner = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            index = end + 1
            if inner.hasPrefix("/") {
                let name = String(inner.dropFirst())
                guard isName(name), !AllowedHTML.voidNames.contains(name) else { return nil }
                return .close(name)
            }
            if inner == "br/" || inner == "br /" { return .open("br", attribute: nil) }
            guard let space = inner.firstIndex(of: " ") else {
                return isName(inner) ? .open(inner, attribute: nil) : nil
            }
            let name = String(inner[..<space])
            let attribute = inner[inner.index(after: space)...]
            switch name {
            case "details" where attribute == "open" || attribute == "open=\"\"":
                return .open(name, attribute: .open)
            case "abbr" where attribute.hasPrefix("title=\"") && attribute.hasSuffix("\"") && attribute.count >= 8:
                let value = attribute.dropFirst(7).dropLast()
                guard !value.contains("\""), !value.contains("<"), !value.contains("\n") else { return nil }
                return .open(name, attribute: .title(String(value)))
            default:
                return nil
            }
        }

        private func isName(_ text: String) -> Bool {
            (AllowedHTML.inlineNames.contains(text) || text == "details" || text == "summary")
        }
    }
}
