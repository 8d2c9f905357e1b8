/// A code block inside a list item or a quote, in the HTML of the block that holds it: cmark-gfm
/// would render it as plain code (hidden lines, labels and results unknown to it), so the page
/// gets a mark in its place, an HTML comment that no lesson can write (the page drops the
/// lesson's own comments and shows any other raw HTML as text), and the site puts the block
/// there as it renders one at the top level.
package enum NestedCodeBlock {
    /// A stretch of a rendered block: its own HTML, or the place of a code block in it.
    package enum Piece: Sendable, Equatable {
        case html(String)
        /// `CodeBlock.id`; `inDetails`: it stands inside a `<details>` of the lesson.
        case code(id: Int, inDetails: Bool)
    }

    private static let opening = "<!--coursebook-code:"
    private static let closing = "-->"
    private static let detailsMark = ":details"

    /// The mark of the code block `id`.
    static func mark(id: Int, inDetails: Bool) -> String {
        opening + String(id) + (inDetails ? detailsMark : "") + closing
    }

    /// The pieces of a rendered block, in order; one `.html` piece when it holds no code block.
    /// The line end cmark-gfm writes after a mark goes with it (the site's block ends in one).
    package static func pieces(of html: String) -> [Piece] {
        // The bytes first (see `HiddenLines.appear`).
        guard html.containsBytes(opening), html.contains(opening) else { return [.html(html)] }
        var pieces: [Piece] = []
        var rest = Substring(html)
        while let start = rest.range(of: opening) {
            let after = rest[start.upperBound...]
            guard let end = after.range(of: closing) else { break }
            var body = after[..<end.lowerBound]
            let inDetails = body.hasSuffix(detailsMark)
            if inDetails { body = body.dropLast(detailsMark.count) }
            guard let id = Int(body) else { break }
            if start.lowerBound > rest.startIndex { pieces.append(.html(String(rest[..<start.lowerBound]))) }
            pieces.append(.code(id: id, inDetails: inDetails))
            rest = after[end.upperBound...]
            if rest.first == "\n" { rest = rest.dropFirst() }
        }
        if !rest.isEmpty { pieces.append(.html(String(rest))) }
        return pieces
    }
}
