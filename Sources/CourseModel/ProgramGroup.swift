/// A block of a group (listings.md, section 4) as the runner compiles it: one part of the
/// group's `main.swift`, where its lines are in the lesson.
package struct ScenarioPart: Sendable, Equatable {
    /// The code as compiled (hidden lines without their mark).
    package var code: String
    /// The lesson line of its first line of code.
    package var firstLine: Int
    /// Bytes before the code on each of its lesson lines (see `CodeBlock.columnOffsets`).
    package var columnOffsets: [Int]

    package init(code: String, firstLine: Int, columnOffsets: [Int]) {
        self.code = code
        self.firstLine = firstLine
        self.columnOffsets = columnOffsets
    }

    /// Its code with a final newline, as it stands in the concatenation.
    package var terminatedCode: String { code.isEmpty || code.hasSuffix("\n") ? code : code + "\n" }

    /// How many lines it takes in the concatenation.
    package var lineCount: Int { terminatedCode.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 } }
}

/// The program of a group: its blocks' code concatenated in the lesson's order, exactly the
/// `main.swift` a learner would compile with plain `swiftc -module-name main`.
package enum ProgramGroup {
    /// The concatenation.
    package static func concatenation(_ parts: [ScenarioPart]) -> String {
        parts.map(\.terminatedCode).joined()
    }

    /// The line of the concatenation on which each part starts (1-based).
    package static func startLines(_ parts: [ScenarioPart]) -> [Int] {
        var line = 1
        return parts.map { part in
            defer { line += part.lineCount }
            return line
        }
    }

    /// The part that holds line `line` of the concatenation, and the 1-based line inside it;
    /// a line past the end belongs to the last part (where the end of the code is).
    package static func place(ofLine line: Int, in parts: [ScenarioPart]) -> (part: Int, line: Int)? {
        guard !parts.isEmpty, line >= 1 else { return nil }
        let starts = startLines(parts)
        let index = starts.lastIndex { $0 <= line } ?? 0
        return (index, line - starts[index] + 1)
    }
}

/// The output of a group's program split at its blocks: what each block printed, in order,
/// up to the block it stopped in (a program that crashed in its third block has three).
///
/// While it runs, the program writes a marker after each block: a record separator, a token
/// that only this run knows (it reads it from standard input before any block runs), the
/// block's number and a record separator. Output that holds the same text without this run's
/// token splits nothing. What the runner keeps (and caches) is the split, in `encoded` form,
/// where no printed byte can pass for a boundary.
package enum GroupOutput {
    /// What the program writes after block `block`.
    package static func marker(token: String, block: Int) -> String {
        "\u{1E}\(token) \(block)\u{1E}"
    }

    /// The raw output cut at this run's markers, in order; every marker must name the next
    /// block, else it is printed text.
    package static func split(_ raw: String, token: String) -> [String] {
        var segments: [String] = []
        var rest = Substring(raw)
        var current = ""
        while true {
            let marker = self.marker(token: token, block: segments.count)
            guard let found = rest.range(of: marker) else { break }
            current += rest[..<found.lowerBound]
            segments.append(current)
            current = ""
            rest = rest[found.upperBound...]
        }
        segments.append(current + rest)
        return segments
    }

    /// The segments as one string that decodes to them again, whatever bytes they hold:
    /// each segment's length in UTF-8 bytes, a colon, the segment.
    package static func encoded(_ segments: [String]) -> String {
        segments.map { "\($0.utf8.count):\($0)" }.joined()
    }

    /// The segments of an `encoded` string; nil when it is not one.
    package static func decoded(_ text: String) -> [String]? {
        var segments: [String] = []
        var bytes = Substring(text).utf8[...]
        while !bytes.isEmpty {
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
                  let length = Int(String(decoding: bytes[..<colon], as: UTF8.self)), length >= 0 else { return nil }
            let start = bytes.index(after: colon)
            guard bytes.distance(from: start, to: bytes.endIndex) >= length else { return nil }
            let end = bytes.index(start, offsetBy: length)
            segments.append(String(decoding: bytes[start..<end], as: UTF8.self))
            bytes = bytes[end...]
        }
        return segments.isEmpty ? [""] : segments
    }
}
