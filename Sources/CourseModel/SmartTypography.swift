/// Smart typography for prose, the same for a lesson's paragraphs and for every title and label
/// the tool writes: straight quotes become typographic ones, `--` and `---` an en and an em
/// dash, `...` an ellipsis.
///
/// Each quote is decided by what stands on either side of it, never by pairing it with another
/// one far away, so that one quote cannot turn another wrong:
/// - `'` after a letter, a digit, a code span or a closing mark (`)`, `”`, `’`, `%` ...) is
///   always ’: an apostrophe before a suffix (`body`’si, Linux’ta, 6’da, SwiftUI’s) or a closing
///   quote, which look the same;
/// - `'` after a space or an opening mark, before a word, opens a quote (‘), except before a
///   number that no quote closes in the same word (’90s);
/// - `"` after a space or an opening mark opens (“); anywhere else it closes (”).
/// Quotes inside quotes (“… ‘…’ …”) follow from the same rules.
package enum SmartTypography {
    /// A piece of a paragraph, in reading order: text the typography may change, or something
    /// between texts that it reads as a neighbour.
    package enum Piece: Equatable, Sendable {
        /// Text that is typeset.
        case text(String)
        /// Something that reads as a word and is never changed: a code span, an autolink, a
        /// footnote's number.
        case word
        /// A line break, or anything else that reads as a space.
        case space
    }

    /// A whole text on its own (a title, a label).
    package static func typeset(_ text: String) -> String {
        typeset([.text(text)]).first ?? text
    }

    /// The pieces' texts typeset, one for each `.text` piece, in order.
    package static func typeset(_ pieces: [Piece]) -> [String] {
        // Every character with its piece, so that a quote sees its neighbours across pieces
        // (`body`'si: the code span stands right before the apostrophe).
        var cells: [Cell] = []
        var pieceOfText: [Int] = []
        for piece in pieces {
            switch piece {
            case .text(let text):
                let index = pieceOfText.count
                pieceOfText.append(index)
                for character in dashesAndDots(text) { cells.append(Cell(character: character, piece: index)) }
            case .word: cells.append(Cell(character: "w", piece: -1, kind: .word))
            case .space: cells.append(Cell(character: " ", piece: -1, kind: .space))
            }
        }
        var texts = Array(repeating: "", count: pieceOfText.count)
        for index in cells.indices {
            let cell = cells[index]
            guard cell.piece >= 0 else { continue }
            var character = cell.character
            if character == "'" || character == "\"" {
                character = quote(character, before: index > 0 ? cells[index - 1].side : .space,
                                  after: index + 1 < cells.count ? cells[index + 1].side : .space,
                                  opensNumber: character == "'" && opensElidedNumber(cells, at: index))
                // What follows sees the typographic quote (an opening one opens, ” closes).
                cells[index].character = character
            }
            texts[cell.piece].append(character)
        }
        return texts
    }

    private struct Cell {
        var character: Character
        var piece: Int
        var kind: Kind = .character

        enum Kind { case character, word, space }

        /// What the cell is to a quote beside it.
        var side: Side {
            switch kind {
            case .word: return .word
            case .space: return .space
            case .character:
                if character.isWhitespace { return .space }
                if Self.opening.contains(character) { return .opening }
                if character.isLetter || character.isNumber { return .word }
                return .closing
            }
        }

        /// Marks after which a quote opens.
        static let opening: Set<Character> = ["(", "[", "{", "“", "‘", "«", "‹", "—", "–", "/", "-"]
    }

    private enum Side { case space, opening, word, closing }

    private static func quote(_ straight: Character, before: Side, after: Side, opensNumber: Bool) -> Character {
        let opens = (before == .space || before == .opening) && after != .space
        if straight == "\"" { return opens ? "“" : "”" }
        if !opens || opensNumber { return "’" }
        return "‘"
    }

    /// `'90s` and `'24'te`: an apostrophe at the start of a word, before a digit, that no
    /// quote closes before the word ends, stands for the digits left out.
    private static func opensElidedNumber(_ cells: [Cell], at index: Int) -> Bool {
        guard index + 1 < cells.count, cells[index + 1].kind == .character, cells[index + 1].character.isNumber else {
            return false
        }
        var next = index + 1
        while next < cells.count, cells[next].side != .space {
            if cells[next].character == "'", cells[next].kind == .character {
                // A quote right after the digits closes `'24'`; a suffix after it (`'24'te`)
                // makes it an apostrophe of the elided number.
                let following = next + 1 < cells.count ? cells[next + 1].side : .space
                return following == .word
            }
            next += 1
        }
        return true
    }

    /// `---` an em dash, `--` an en dash (a longer run as cmark-gfm splits it: em dashes while
    /// they divide it evenly, else en dashes, else both), `...` an ellipsis.
    static func dashesAndDots(_ text: String) -> String {
        guard text.contains("--") || text.contains("...") else { return text }
        var result = ""
        var hyphens = 0, dots = 0
        func flush() {
            if hyphens == 1 { result.append("-") } else if hyphens > 1 {
                let (em, en): (Int, Int)
                if hyphens % 3 == 0 { (em, en) = (hyphens / 3, 0) }
                else if hyphens % 2 == 0 { (em, en) = (0, hyphens / 2) }
                else if hyphens % 3 == 2 { (em, en) = ((hyphens - 2) / 3, 1) }
                else { (em, en) = ((hyphens - 4) / 3, 2) }
                result += String(repeating: "—", count: em) + String(repeating: "–", count: en)
            }
            result += String(repeating: "…", count: dots / 3) + String(repeating: ".", count: dots % 3)
            hyphens = 0
            dots = 0
        }
        for character in text {
            if character == "-", dots == 0 { hyphens += 1; continue }
            if character == ".", hyphens == 0 { dots += 1; continue }
            flush()
            if character == "-" { hyphens = 1 } else if character == "." { dots = 1 } else { result.append(character) }
        }
        flush()
        return result
    }
}
