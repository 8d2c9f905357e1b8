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
        // The bytes first: Foundation's `contains` compares characters (and took a tenth of a
        // build's CPU over every block); without the byte there is no such character.
        code.containsBytes("#") && code.contains("#") && lines(code).contains { isHidden($0) }
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

    private static func lines(_ code: String) -> [Substring] {
        code.split(separator: "\n", omittingEmptySubsequences: false)
    }
}
