package import CourseModel
import Foundation

/// How the client counts characters in a line (`positionEncoding`, LSP 3.17): UTF-16 code
/// units unless the client offers UTF-8, which the server then takes (its own columns are
/// bytes, as compilers count them).
package enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"

    /// The encoding to use for a client that offers `offered` (`general.positionEncodings`).
    package static func negotiated(_ offered: [String]) -> PositionEncoding {
        offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
    }
}

/// A place as the protocol sends it: a 0-based line and a 0-based character in the
/// negotiated encoding.
package struct Position: Sendable, Equatable, Comparable {
    package var line: Int
    package var character: Int

    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    package var json: JSONValue { ["line": .int(line), "character": .int(character)] }

    package init?(_ json: JSONValue?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }

    package static func < (a: Position, b: Position) -> Bool { (a.line, a.character) < (b.line, b.character) }
}

package struct TextRange: Sendable, Equatable {
    package var start: Position
    package var end: Position

    package init(_ start: Position, _ end: Position) {
        self.start = start
        self.end = end
    }

    package var json: JSONValue { ["start": start.json, "end": end.json] }

    package init?(_ json: JSONValue?) {
        guard let start = Position(json?["start"]), let end = Position(json?["end"]) else { return nil }
        self.init(start, end)
    }

    /// Whether the two ranges share a line at least (a request's range against a block's).
    package func overlapsLines(_ other: TextRange) -> Bool {
        start.line <= other.end.line && other.start.line <= end.line
    }
}

/// A file's text seen through an encoding: coursebook's places (1-based lines, 1-based byte
/// columns) to the protocol's positions and back.
package struct TextPositions: Sendable {
    package var source: SourceText
    package var encoding: PositionEncoding

    package init(_ source: SourceText, encoding: PositionEncoding) {
        self.source = source
        self.encoding = encoding
    }

    /// The position of a 1-based line and a 1-based byte column (clamped to the line).
    package func position(line: Int, column: Int) -> Position {
        let content = source.content(ofLine: line)
        let bytes = max(0, min(column - 1, content.count))
        return Position(line: max(line - 1, 0), character: units(content.prefix(bytes)))
    }

    /// The start of a 1-based line.
    package func start(ofLine line: Int) -> Position { Position(line: max(line - 1, 0), character: 0) }

    /// The end of a 1-based line's content (its line end not included).
    package func end(ofLine line: Int) -> Position {
        Position(line: max(line - 1, 0), character: units(source.content(ofLine: line)))
    }

    /// The 1-based line and byte column of a position; a character past the line's end is
    /// its end.
    package func place(of position: Position) -> (line: Int, column: Int) {
        let line = position.line + 1
        let content = source.content(ofLine: line)
        guard encoding == .utf16 else { return (line, min(position.character, content.count) + 1) }
        var counted = 0
        var offset = 0
        for scalar in String(decoding: content, as: UTF8.self).unicodeScalars {
            guard counted < position.character else { break }
            counted += scalar.utf16.count
            offset += scalar.utf8.count
        }
        return (line, offset + 1)
    }

    /// The position of a byte offset in the file (the end of the file past its last byte).
    package func position(ofOffset offset: Int) -> Position {
        guard offset < source.bytes.count else {
            guard let last = source.lines.last else { return Position(line: 0, character: 0) }
            return last.end.isEmpty ? end(ofLine: source.lines.count) : Position(line: source.lines.count, character: 0)
        }
        // Lines are sorted by their start: the last that starts at or before the offset.
        var low = 0, high = source.lines.count
        while low < high {
            let middle = (low + high) / 2
            if source.lines[middle].content.lowerBound <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return Position(line: 0, character: 0) }
        let line = source.lines[low - 1]
        guard offset <= line.content.upperBound else { return end(ofLine: low) }
        return position(line: low, column: offset - line.content.lowerBound + 1)
    }

    private func units(_ bytes: ArraySlice<UInt8>) -> Int {
        encoding == .utf8 ? bytes.count : String(decoding: bytes, as: UTF8.self).utf16.count
    }
}
