/// Hidden lines of a scenario (listings.md, section 5): a line whose first characters after its
/// indentation are `# ` (a hash and a space), or that is only `#` after its indentation, is
/// compiled without that mark (its indentation kept) and never shown. Swift has no such line:
/// a compiler directive has no space after `#`.
package enum HiddenLines {
    /// How many bytes the mark takes on `line` (2 for `# `, 1 for a lone `#`), or nil when the
    /// line is not hidden. `line` has no line end.
    package static func markWidth(_ line: Substring) -> Int? {
        let body = line.drop { $0 == " " || $0 == "\t" }
        var rest = body
        if rest.last == "\r" { rest = rest.dropLast() }
        if rest == "#" { return 1 }
        return body.hasPrefix("# ") ? 2 : nil
    }

    package static func isHidden(_ line: Substring) -> Bool { markWidth(line) != nil }

    /// Whether the code has a hidden line at all.
    package static func appear(in code: String) -> Bool {
        mayAppear(in: code) && lines(code).contains { isHidden($0) }
    }

    /// Whether some line of `code`, after its spaces and tabs, has a `#` followed by a space,
    /// a line end or the end of the code, as bytes: true of every code with a hidden line, and
    /// false, without a string of its own, of nearly every other (`#if`, `#available`).
    /// (Lines as bytes: every line `lines` gives starts after a newline byte, or at the start.)
    package static func mayAppear(in code: String) -> Bool {
        enum Place { case indentation, afterMark, afterMarkAndReturn, rest }
        var place = Place.indentation
        for byte in code.utf8 {
            if byte == UInt8(ascii: "\n") {
                if place == .afterMark || place == .afterMarkAndReturn { return true }
                place = .indentation
                continue
            }
            switch place {
            case .indentation:
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
                place = byte == UInt8(ascii: "#") ? .afterMark : .rest
            case .afterMark:
                if byte == UInt8(ascii: " ") { return true }
                place = byte == UInt8(ascii: "\r") ? .afterMarkAndReturn : .rest
            case .afterMarkAndReturn, .rest:
                place = .rest
            }
        }
        return place == .afterMark || place == .afterMarkAndReturn
    }

    /// The code as the compiler gets it: every hidden line without its mark, its indentation
    /// kept; the same number of lines.
    package static func compiled(_ code: String) -> String {
        guard appear(in: code) else { return code }
        return lines(code).map { line -> String in
            guard let width = markWidth(line) else { return String(line) }
            let indentation = line.prefix { $0 == " " || $0 == "\t" }
            return String(indentation) + String(line.dropFirst(indentation.count + width))
        }.joined(separator: "\n")
    }

    /// The code as a reader sees it: the hidden lines left out.
    package static func visible(_ code: String) -> String {
        guard appear(in: code) else { return code }
        var kept = lines(code).filter { !isHidden($0) }.map(String.init)
        // `lines` keeps the empty piece after a final newline; keep the final newline too.
        if code.hasSuffix("\n"), kept.last != "" { kept.append("") }
        return kept.joined(separator: "\n")
    }

    /// The 1-based numbers of the hidden lines.
    package static func hiddenLineNumbers(_ code: String) -> Set<Int> {
        guard appear(in: code) else { return [] }
        var found: Set<Int> = []
        for (index, line) in lines(code).enumerated() where isHidden(line) { found.insert(index + 1) }
        return found
    }

    /// The bytes before the code on each line once compiled: a hidden line's mark is one more
    /// thing before it (see `CodeBlock.columnOffsets`).
    package static func compiledColumnOffsets(_ code: String, _ offsets: [Int]) -> [Int] {
        guard appear(in: code) else { return offsets }
        var result = offsets
        for (index, line) in lines(code).enumerated() where index < result.count {
            if let width = markWidth(line) { result[index] += width }
        }
        return result
    }

    /// The lines of `code` as `Character`s split them: at each `\n` that is not part of a
    /// `\r\n`. Without a `\r` every newline byte is such a line end, and the bytes are split
    /// instead of the characters (a split by `Character` walks grapheme breaks, most of a
    /// warm check's time on the Swift book).
    private static func lines(_ code: String) -> [Substring] {
        guard !code.utf8.contains(UInt8(ascii: "\r")) else { return code.split(separator: "\n", omittingEmptySubsequences: false) }
        return code.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { code[$0.startIndex..<$0.endIndex] }
    }
}
