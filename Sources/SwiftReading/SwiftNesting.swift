/// How deep a Swift block nests its brackets, from its bytes alone and in one pass: what keeps
/// coursebook from handing the toolchain's parser a block it cannot read in reasonable time.
///
/// Measured on Swift 6.3.1's SwiftParser: each `[` that opens inside another (an array or
/// dictionary literal, an array type, a subscript) doubles the time of the parse, because the
/// parser looks ahead to see whether it is a type (`[3 of Int]`, `[Int]()`) and tries two ways
/// at every level (24 levels, 74 bytes: 25 s; 3,000: its stack overflows). Parentheses, braces
/// and generic brackets cost far less per level, but the parser's lookahead and its recovery
/// recurse without a limit and some of its walks grow with the square of the depth (500
/// nested `if` blocks: seconds). A block nested past `SwiftNesting.levels` brackets, or past
/// `SwiftNesting.squareLevels` square brackets, is therefore reported and not parsed.
///
/// Comments and string literals are skipped (an interpolation's code is not); the count errs
/// towards deeper where it cannot tell, which costs a block its reading, never a hang. Whatever
/// it does not foresee is caught by reading every block in a process of its own under a time
/// limit (see `SwiftBlockReader`).
package enum SwiftNesting {
    /// Brackets of any kind (`(`, `[`, `{`, and a string interpolation's `\(`) inside one
    /// another: a lesson's SwiftUI nests a dozen or two; 64 is far from a slow parse.
    package static let levels = 64
    /// Square brackets inside one another: `[[[[Int]]]]` is four; each more doubles the parse.
    package static let squareLevels = 5

    /// Where a block first nests deeper than the limits.
    package struct TooDeep: Sendable, Equatable {
        /// 1-based line and column (in UTF-8 bytes) inside the block's code.
        package var line: Int
        package var column: Int
        /// Whether it is the square brackets that nest too deep (else brackets of any kind).
        package var square: Bool
        /// How deep that kind nests there, counted to the end of the deepest run.
        package var depth: Int

        /// The finding's words.
        package var message: String {
            square
                ? "square brackets nested \(depth) deep; coursebook reads Swift with square brackets nested up to \(SwiftNesting.squareLevels) deep (each level doubles the parser's time)"
                : "nested \(depth) levels deep; coursebook reads Swift up to \(SwiftNesting.levels) levels"
        }
    }

    /// Nil when `code` stays within the limits.
    package static func tooDeep(_ code: String) -> TooDeep? {
        var code = code
        return code.withUTF8 { scan($0) }
    }

    /// What is open at a point of the scan, innermost last.
    private enum Open: Equatable {
        case parenthesis, square, brace
        /// A string interpolation's `\(`: code inside a string.
        case interpolation
        /// A string literal, with the `#`s of its delimiter.
        case string(hashes: Int, multiline: Bool)
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> TooDeep? {
        var scanner = Scanner(bytes: bytes)
        while scanner.index < bytes.count {
            if case .string(let hashes, let multiline)? = scanner.open.last {
                scanner.readString(hashes: hashes, multiline: multiline)
            } else {
                scanner.readCode()
            }
        }
        return scanner.found
    }

    /// The scan's state: what is open, the place, and the first place past a limit with the
    /// deepest count reached after it. Beside `open`, where each kind stands in it (innermost
    /// last), so that every step costs the same however deep the block is.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var line = 1
        var lineStart = 0
        var open: [Open] = []
        var parentheses: [Int] = []
        var squares: [Int] = []
        var braces: [Int] = []
        var oneLineStrings: [Int] = []
        var multilineStrings: [Int] = []
        var found: TooDeep?

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func byte(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

        var brackets: Int { open.count - oneLineStrings.count - multilineStrings.count }

        mutating func push(_ opener: Open) {
            let position = open.count
            open.append(opener)
            switch opener {
            case .parenthesis: parentheses.append(position)
            case .square: squares.append(position)
            case .brace: braces.append(position)
            case .interpolation: break
            case .string(_, let multiline):
                if multiline { multilineStrings.append(position) } else { oneLineStrings.append(position) }
                return
            }
            let square = squares.count > SwiftNesting.squareLevels
            guard square || brackets > SwiftNesting.levels else { return }
            let depth = square ? squares.count : brackets
            if found == nil {
                found = TooDeep(line: line, column: index - lineStart + 1, square: square, depth: depth)
            } else if found!.square == square {
                found!.depth = max(found!.depth, depth)
            }
        }

        /// Closes everything from `position` up.
        mutating func close(from position: Int) {
            for stack in [\Scanner.parentheses, \.squares, \.braces, \.oneLineStrings, \.multilineStrings] {
                while let last = self[keyPath: stack].last, last >= position { self[keyPath: stack].removeLast() }
            }
            open.removeSubrange(position...)
        }

        /// Where the innermost string opened, -1 outside every string.
        var innermostString: Int { max(oneLineStrings.last ?? -1, multilineStrings.last ?? -1) }

        /// A closing bracket closes the innermost opener of its kind in the same stretch of
        /// code (and whatever is still open inside it); one that closes nothing is left.
        mutating func close(_ stack: KeyPath<Scanner, [Int]>) {
            guard let position = self[keyPath: stack].last, position > innermostString else { return }
            close(from: position)
        }

        /// A line end ends every one-line string still open above the last multiline one, and
        /// what is open inside them (as Swift's lexer does).
        mutating func lineEnd() {
            line += 1
            lineStart = index + 1
            let multiline = multilineStrings.last ?? -1
            var lowest: Int?
            for position in oneLineStrings.reversed() {
                guard position > multiline else { break }
                lowest = position
            }
            if let lowest { close(from: lowest) }
        }

        mutating func readCode() {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                lineEnd()
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                return
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
                skipBlockComment()
                return
            case UInt8(ascii: "#"):
                // A raw string (`#"`, `##"` ...), or a `#` of something else.
                var hashes = 0
                while byte(hashes) == UInt8(ascii: "#") { hashes += 1 }
                index += hashes
                if byte() == UInt8(ascii: "\"") { openString(hashes: hashes) }
                return
            case UInt8(ascii: "\""):
                openString(hashes: 0)
                return
            case UInt8(ascii: "("): push(.parenthesis)
            case UInt8(ascii: "["): push(.square)
            case UInt8(ascii: "{"): push(.brace)
            case UInt8(ascii: ")"):
                if open.last == .interpolation {
                    close(from: open.count - 1)
                } else {
                    close(\.parentheses)
                }
            case UInt8(ascii: "]"): close(\.squares)
            case UInt8(ascii: "}"): close(\.braces)
            default: break
            }
            index += 1
        }

        /// At a `"`: a string literal opens (`"""` for a multiline one).
        mutating func openString(hashes: Int) {
            let multiline = byte(1) == UInt8(ascii: "\"") && byte(2) == UInt8(ascii: "\"")
            index += multiline ? 3 : 1
            push(.string(hashes: hashes, multiline: multiline))
        }

        mutating func readString(hashes: Int, multiline: Bool) {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                lineEnd()
                index += 1
            case UInt8(ascii: "\\"):
                var pounds = 0
                while byte(1 + pounds) == UInt8(ascii: "#") { pounds += 1 }
                guard pounds == hashes else {
                    index += 1
                    return
                }
                if byte(1 + pounds) == UInt8(ascii: "(") {
                    index += 1 + pounds
                    push(.interpolation)
                    index += 1
                } else {
                    // An escaped character: the one after the backslash is not a delimiter.
                    index += 2 + pounds
                }
            case UInt8(ascii: "\""):
                let quotes = multiline ? 3 : 1
                var closing = (0..<quotes).allSatisfy { byte($0) == UInt8(ascii: "\"") }
                for pound in 0..<hashes where closing { closing = byte(quotes + pound) == UInt8(ascii: "#") }
                if closing {
                    index += quotes + hashes
                    close(from: open.count - 1)
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }

        /// `/* ... */`, nested as Swift nests them.
        mutating func skipBlockComment() {
            var depth = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "/"), byte(1) == UInt8(ascii: "*") {
                    depth += 1
                    index += 2
                } else if bytes[index] == UInt8(ascii: "*"), byte(1) == UInt8(ascii: "/") {
                    depth -= 1
                    index += 2
                    if depth == 0 { return }
                } else {
                    if bytes[index] == UInt8(ascii: "\n") {
                        line += 1
                        lineStart = index + 1
                    }
                    index += 1
                }
            }
        }
    }
}
