import CourseModel

/// How a line of an `errors` block is held against the compiler's: byte for byte (two
/// spellings of "é" that Unicode calls equal are two messages). Output and trap blocks take
/// patterns besides (`OutputPattern`, `PatternMatch`).
package enum TextMatch {
    package static func line(_ expected: Substring, matches actual: Substring) -> Bool {
        expected.utf8.elementsEqual(actual.utf8)
    }
}

/// An `output` block against what the program printed: byte for byte (a difference in the
/// final newline aside) when it holds no pattern; else line by line as its patterns say
/// (`...`, ` (glob)`, `output unordered`: `PatternMatch`).
package enum OutputExpectation {
    package static func compare(_ expected: String, _ actual: String, unordered: Bool = false) -> PatternMatch.Verdict {
        if !unordered, sameIgnoringFinalNewline(expected, actual) { return .matches }
        guard unordered || OutputPattern.holdsPatterns(expected) else { return .differs }
        return PatternMatch.compare(OutputPattern(reading: expected, unordered: unordered), lines(actual))
    }

    package static func matches(_ expected: String, _ actual: String, unordered: Bool = false) -> Bool {
        compare(expected, actual, unordered: unordered) == .matches
    }

    /// The text `--update` writes in place of `expected` so that it stands for `actual`: the
    /// output itself for a block without patterns; else the block with every pattern line
    /// that still matches kept (`PatternMatch.rewritten`).
    package static func rewritten(_ expected: String, toStandFor actual: String, unordered: Bool = false) -> String {
        guard unordered || OutputPattern.holdsPatterns(expected) else { return actual }
        let written = PatternMatch.rewritten(OutputPattern(reading: expected, unordered: unordered), toStandFor: lines(actual))
        return written.map { $0 + "\n" }.joined()
    }

    static func lines(_ text: String) -> [Substring] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}

/// An `errors` block: one error of the compiler a line, `LINE:COLUMN: error: MESSAGE` or
/// `LINE: error: MESSAGE` (the column is then not compared). LINE counts the scenario's lines
/// (1 after its opening fence); one past the last is the end of its code, where the compiler
/// reports what is left open. Blank lines are not errors.
package enum ErrorsExpectation {
    /// One line of the block, read.
    package struct Line: Sendable, Equatable {
        /// The line of the block that says it (1 for the first).
        package var blockLine: Int
        package var line: Int
        package var column: Int?
        package var message: String
    }

    /// A line of the block that states no error the scenario could have.
    package struct Problem: Sendable, Equatable {
        package var blockLine: Int
        package var id: DiagnosticID
        package var message: String
    }

    /// The block's errors, and its lines that are not errors of the scenario's code.
    package static func read(_ text: String, codeLines: Int) -> (errors: [Line], problems: [Problem]) {
        var errors: [Line] = []
        var problems: [Problem] = []
        for (index, raw) in LineDiff.lines(text).enumerated() {
            let text = raw.trimmingTrailingBlanks
            guard !text.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            guard let parsed = parse(text) else {
                let kind = ["warning", "note", "remark"].first { text.contains(": \($0): ") }
                problems.append(Problem(
                    blockLine: index + 1, id: .errorsLineMalformed,
                    message: kind.map { "an 'errors' block lists errors only; a \($0) is not compared: remove this line" }
                        ?? "an 'errors' line is 'LINE:COLUMN: error: MESSAGE' or 'LINE: error: MESSAGE' (LINE counted in the scenario)"))
                continue
            }
            guard parsed.line >= 1, parsed.line <= codeLines + 1 else {
                problems.append(Problem(
                    blockLine: index + 1, id: .errorsLineOutside,
                    message: "the scenario has \(codeLines) line\(codeLines == 1 ? "" : "s"), so it has no line \(parsed.line) for an error to stand at"))
                continue
            }
            errors.append(Line(blockLine: index + 1, line: parsed.line, column: parsed.column, message: parsed.message))
        }
        return (errors, problems)
    }

    /// `12:5: error: message` or `12: error: message`.
    static func parse(_ text: Substring) -> (line: Int, column: Int?, message: String)? {
        guard let marker = text.range(of: ": error: ") else { return nil }
        let place = text[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
        let message = String(text[marker.upperBound...])
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count < 10, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        guard !message.isEmpty, (1...2).contains(place.count), let line = number(place[0]) else { return nil }
        if place.count == 2 {
            guard let column = number(place[1]) else { return nil }
            return (line, column, message)
        }
        return (line, nil, message)
    }

    /// Whether the block's errors are the compiler's, in order (a column only where given).
    package static func matches(_ expected: [Line], _ actual: [CompilerError]) -> Bool {
        expected.count == actual.count && zip(expected, actual).allSatisfy { line, error in
            line.line == error.line && (line.column.map { $0 == error.column } ?? true)
                && TextMatch.line(line.message[...], matches: error.message[...])
        }
    }

    /// The block `--update` writes for the compiler's errors: each as `LINE:COLUMN: error:
    /// MESSAGE`, but without its column where the block has a column-less line with the same
    /// line and message (each such line used once, in order).
    package static func rewritten(_ actual: [CompilerError], keeping expected: [Line]) -> String {
        var columnless = expected.filter { $0.column == nil }
        var text = ""
        for error in actual {
            if let index = columnless.firstIndex(where: { $0.line == error.line && $0.message.utf8.elementsEqual(error.message.utf8) }) {
                columnless.remove(at: index)
                text += "\(error.line): error: \(error.message)\n"
            } else {
                text += error.blockLine + "\n"
            }
        }
        return text
    }
}

/// A `trap` block: the runtime's message as the program traps, on its one line (or nothing,
/// for a trap the runtime says nothing of).
package enum TrapExpectation {
    /// The block's message, and the line of the block that makes it more than one line (an
    /// error at that line), if any.
    package static func read(_ text: String) -> (message: Substring, extraLine: Int?) {
        let lines = LineDiff.lines(text)
        let filled = lines.indices.filter { !lines[$0].allSatisfy { $0 == " " || $0 == "\t" } }
        guard let first = filled.first else { return ("", nil) }
        return (lines[first].trimmingTrailingBlanks, filled.count > 1 ? filled[1] + 1 : nil)
    }

    /// Whether the block's line stands for the runtime's message: byte for byte, or as a glob
    /// (`Simultaneous accesses to 0x*, but ... (glob)`); `...` stands for any message.
    package static func matches(_ expected: Substring, _ actual: String) -> Bool {
        OutputExpectation.matches(String(expected), actual)
    }
}

extension StringProtocol {
    /// The line without the spaces and tabs at its end (an editor may leave them; the compiler
    /// and the runtime write none).
    var trimmingTrailingBlanks: Substring {
        var text = self[...]
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return Substring(text)
    }
}
