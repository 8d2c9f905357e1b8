/// An `output` block read as the lines it stands for (listings.md, section 6): a line that is
/// exactly `...` stands for any number of lines (none included); a line that ends with
/// ` (glob)` stands for a line where `*` is any run of characters and `?` one character (`\*`,
/// `\?` and `\\` for the characters themselves); every other line for itself, byte for byte.
/// ` ```output unordered ` compares the lines as a multiset. The check matches a pattern with
/// what a program printed (`PatternMatch`); the site shows it as written, each kind of line
/// set apart. A value read from the block's text, nothing more.
package struct OutputPattern: Sendable, Equatable {
    /// One line of the block.
    package struct Line: Sendable, Equatable {
        package enum Kind: Sendable, Equatable {
            /// Compared byte for byte.
            case literal
            /// `...`: any number of lines, none included.
            case anyLines
            /// A line ending with ` (glob)`: the pieces of the text before the mark.
            case glob([GlobPiece])
        }

        /// The line as the block holds it (its ` (glob)` mark included).
        package var text: String
        package var kind: Kind

        package init(reading text: String) {
            self.text = text
            if text == OutputPattern.anyLinesMark {
                kind = .anyLines
            } else if text.hasSuffix(OutputPattern.globMark) {
                kind = .glob(OutputPattern.globPieces(String(text.dropLast(OutputPattern.globMark.count))))
            } else {
                kind = .literal
            }
        }

        package var isAnyLines: Bool { kind == .anyLines }
    }

    /// A piece of a glob line.
    package enum GlobPiece: Sendable, Equatable {
        /// Characters compared byte for byte (an escape already read: `\*` is `*` here).
        case text(String)
        /// `*`: any run of characters, none included.
        case anyRun
        /// `?`: one character.
        case oneCharacter
    }

    package static let anyLinesMark = "..."
    package static let globMark = " (glob)"
    /// The attribute of an `output` block whose lines are compared in any order.
    package static let unorderedAttribute = "unordered"

    package var lines: [Line]
    package var unordered: Bool

    /// The block's text read line by line (a final newline ends the last line; it is not a
    /// line of its own).
    package init(reading text: String, unordered: Bool = false) {
        lines = Self.splitLines(text).map(Line.init(reading:))
        self.unordered = unordered
    }

    /// Whether any line stands for more than itself, or the order does not count: when not,
    /// the block is compared byte for byte, as it always was.
    package var hasPatterns: Bool {
        unordered || lines.contains { $0.kind != .literal }
    }

    /// Whether the text holds a line that is a pattern (cheap: no block of plain output is read
    /// line by line for this).
    package static func holdsPatterns(_ text: String) -> Bool {
        guard text.contains(anyLinesMark) || text.contains(globMark) else { return false }
        return OutputPattern(reading: text).hasPatterns
    }

    /// The lines of a text as blocks and outputs have them: split at LF, a final LF ending the
    /// last line.
    package static func splitLines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The line an `output` block holds to stand for exactly `line` of output: the line itself,
    /// unless read so it would be a pattern (`...`, or a line that ends with ` (glob)`); then a
    /// glob of it with no wildcard (`*`, `?` and `\` escaped), which matches only itself.
    package static func literalLine(_ line: String) -> String {
        guard line == anyLinesMark || line.hasSuffix(globMark) else { return line }
        var escaped = ""
        for character in line {
            if character == "*" || character == "?" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + globMark
    }

    /// The pieces of a glob's text: `*` and `?` are wildcards, a backslash makes the `*`, `?`
    /// or `\` after it a character (before any other character it is a character itself).
    static func globPieces(_ text: String) -> [GlobPiece] {
        var pieces: [GlobPiece] = []
        var run = ""
        func flush() {
            if !run.isEmpty { pieces.append(.text(run)); run = "" }
        }
        var characters = text.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            switch character {
            case "*":
                flush()
                // `**` is `*`: one run of any characters.
                if pieces.last != .anyRun { pieces.append(.anyRun) }
            case "?":
                flush()
                pieces.append(.oneCharacter)
            case "\\":
                if let next = pending, next == "*" || next == "?" || next == "\\" {
                    run.append(next)
                    pending = characters.next()
                } else {
                    run.append(character)
                }
            default:
                run.append(character)
            }
        }
        flush()
        return pieces
    }
}

extension CodeBlock {
    /// Whether this is an ` ```output unordered ` block: its lines compared as a multiset.
    package var isUnordered: Bool {
        role == .output && attributes.contains(OutputPattern.unorderedAttribute)
    }

    /// The block read as an output pattern.
    package var outputPattern: OutputPattern {
        OutputPattern(reading: code, unordered: isUnordered)
    }
}
