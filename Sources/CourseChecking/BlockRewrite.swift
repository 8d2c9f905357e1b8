import CourseModel

/// `--update`: new content for fenced blocks of one lesson file, spliced into its bytes. Every
/// byte outside the rewritten blocks stays as it was (BOM, CRLF, trailing spaces, other
/// fences); the new lines take the line end and the indent of the block's own fence, and
/// inside a list item or a quote the marks its own lines have (`> `, the item's indent).
package enum BlockRewrite {
    package struct Edit: Sendable, Equatable {
        package enum Kind: Sendable, Equatable {
            /// Replace the code of a block (an `output` block, a `swift core` listing).
            case replaceCode(CodeBlock)
            /// Insert an `output` block after a scenario that has none.
            case insertOutput(after: CodeBlock)
        }

        package var kind: Kind
        package var code: String
        /// What the edit does, in the words `--update` reports it with.
        package var summary: String

        package init(_ kind: Kind, code: String, summary: String) {
            self.kind = kind
            self.code = code
            self.summary = summary
        }
    }

    /// Where an edit put its block in the new file.
    package struct Placed: Sendable, Equatable {
        package var edit: Edit
        /// The line of the block's opening fence in the rewritten file.
        package var line: Int
    }

    package struct Unplaceable: Error, Equatable {
        package var line: Int
        package var reason: String
    }

    /// The file's bytes with every edit made, and where each block ended up.
    package static func apply(_ edits: [Edit], to source: SourceText) throws(Unplaceable) -> ([UInt8], [Placed]) {
        var splices: [Splice] = []
        for edit in edits {
            switch edit.kind {
            case .replaceCode(let block):
                // A block that already says it keeps its bytes as they are (its indent, its
                // spaces, its line ends): rewriting with the same outputs changes nothing.
                if sameBytes(Substring(block.code), Substring(edit.code)) { continue }
                splices.append(try replacement(of: block, by: edit, in: source))
            case .insertOutput(let scenario):
                splices.append(try outputBlock(after: scenario, by: edit, in: source))
            }
        }
        return try spliced(splices, into: source)
    }

    /// Bytes that take the place of `range` of the file, for `edit`; the block they hold opens
    /// at `line` as the file's lines are numbered before any edit.
    private struct Splice {
        var range: Range<Int>
        var bytes: [UInt8]
        var edit: Edit
        var line: Int
    }

    /// The new code of `block`, between its fences (both lengthened when the new code holds a
    /// line that would close them).
    private static func replacement(of block: CodeBlock, by edit: Edit, in source: SourceText) throws(Unplaceable) -> Splice {
        guard let fence = block.fence else {
            throw Unplaceable(line: block.line, reason: "only fenced code blocks can be rewritten")
        }
        let lineEnd = lineEnd(ofLine: block.line, in: source)
        let first = block.line + 1
        let closing = first + block.codeLineCount
        let needed = fenceLength(for: edit.code, fence: fence)
        var bytes = codeLines(edit.code, prefix: try linePrefix(of: block, fence: fence, in: source), lineEnd: lineEnd)
        var range = source.startOffset(ofLine: first)..<source.startOffset(ofLine: closing)
        if needed > fence.length {
            // The new code holds a line that would close the fence: lengthen both fences.
            let opening = source.lines[block.line - 1]
            let openingBytes = refenced(Array(source.bytes[opening.whole]), length: needed, fence: fence)
            var closingBytes: [UInt8] = []
            var end = range.upperBound
            if closing <= source.lineCount {
                closingBytes = refenced(Array(source.bytes[source.lines[closing - 1].whole]), length: needed, fence: fence)
                end = source.lines[closing - 1].whole.upperBound
            }
            range = opening.whole.lowerBound..<end
            bytes = openingBytes + bytes + closingBytes
        }
        return Splice(range: range, bytes: bytes, edit: edit, line: block.line)
    }

    /// A new `output` block holding `edit`'s code, inserted after the closing fence of
    /// `scenario`, in its indent and its container's marks.
    private static func outputBlock(after scenario: CodeBlock, by edit: Edit, in source: SourceText) throws(Unplaceable) -> Splice {
        guard let fence = scenario.fence else {
            throw Unplaceable(line: scenario.line, reason: "only fenced scenarios can get an output block")
        }
        let closing = scenario.line + 1 + scenario.codeLineCount
        guard closing <= source.lineCount else {
            throw Unplaceable(line: scenario.line, reason: "the scenario's code block is not closed")
        }
        let lineEnd = lineEnd(ofLine: scenario.line, in: source)
        let after = source.lines[closing - 1]
        let prefix = try linePrefix(of: scenario, fence: fence, in: source)
        let length = fenceLength(for: edit.code, fence: Fence(character: UInt8(ascii: "`"), length: 3, indent: fence.indent))
        let marks = [UInt8](repeating: UInt8(ascii: "`"), count: length)
        var bytes = after.end.isEmpty ? lineEnd : []
        // A blank line before the new block, but in a list item: there it would make a
        // tight list loose (its items' paragraphs shown apart), so the block follows at once.
        let blankLine = scenario.container == nil || !prefix.blank.isEmpty
        if blankLine { bytes += prefix.blank + lineEnd }
        bytes += prefix.line + marks + Array("output".utf8) + lineEnd
        bytes += codeLines(edit.code, prefix: prefix, lineEnd: lineEnd)
        bytes += prefix.line + marks + lineEnd
        // The new block opens one or two lines below the scenario's closing fence.
        return Splice(range: after.whole.upperBound..<after.whole.upperBound, bytes: bytes, edit: edit,
                      line: closing + (blankLine ? 2 : 1))
    }

    /// The file with `splices` made, in position order, and where each block landed (its line
    /// moved by the lines the splices above it added or took away).
    private static func spliced(_ splices: [Splice], into source: SourceText) throws(Unplaceable) -> ([UInt8], [Placed]) {
        var result: [UInt8] = []
        var placed: [Placed] = []
        var cursor = 0
        var lineDelta = 0
        for splice in splices.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            guard splice.range.lowerBound >= cursor else {
                throw Unplaceable(line: 0, reason: "two rewrites overlap")
            }
            result += source.bytes[cursor..<splice.range.lowerBound]
            placed.append(Placed(edit: splice.edit, line: splice.line + lineDelta))
            result += splice.bytes
            lineDelta += SourceText(splice.bytes).lineCount - SourceText(Array(source.bytes[splice.range])).lineCount
            cursor = splice.range.upperBound
        }
        result += source.bytes[cursor...]
        return (result, placed)
    }

    /// The line end of a line (the file's usual one when the line has none).
    private static func lineEnd(ofLine number: Int, in source: SourceText) -> [UInt8] {
        let end = source.lines[number - 1].end
        return end.isEmpty ? source.preferredLineEnd : Array(source.bytes[end])
    }

    /// What stands before each line written into a block: `line` before a line of code, `blank`
    /// alone on an empty one.
    struct LinePrefix: Equatable {
        var line: [UInt8]
        var blank: [UInt8]
    }

    /// The prefix of the lines of `block`: the fence's indent at the top level. Inside a list item
    /// or a quote, what its opening fence has before it, a list item's marker made spaces
    /// (`> ` for a quote, `   ` for `1. `, `>    ` for `> 1. `): the container's marks and the
    /// fence's indent, which every line of code needs to stay in the block as written. An empty
    /// line keeps what holds it in its container (`>`). Tabs among the marks, which cmark-gfm
    /// reads as spaces to the next tab stop, cannot be written back as they were read.
    static func linePrefix(of block: CodeBlock, fence: Fence, in source: SourceText) throws(Unplaceable) -> LinePrefix {
        guard block.container != nil else {
            return LinePrefix(line: [UInt8](repeating: UInt8(ascii: " "), count: fence.indent), blank: [])
        }
        let opening = source.content(ofLine: block.line)
        guard let start = opening.firstIndex(of: fence.character) else {
            throw Unplaceable(line: block.line, reason: "the block's opening fence is not where it was read")
        }
        let marks = opening[..<start]
        if marks.contains(UInt8(ascii: "\t")) {
            throw Unplaceable(line: block.line, reason: "a tab stands before the fence of the block at line \(block.line) inside a list or a quote; indent with spaces, or write the block by hand")
        }
        let line = marks.map { $0 == UInt8(ascii: ">") ? $0 : UInt8(ascii: " ") }
        var blank = line[...]
        while blank.last == UInt8(ascii: " ") { blank = blank.dropLast() }
        return LinePrefix(line: line, blank: Array(blank))
    }

    /// The code as lines, each after the prefix and with the given line end.
    private static func codeLines(_ code: String, prefix: LinePrefix, lineEnd: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in LineDiff.lines(code) {
            bytes += (line.isEmpty ? prefix.blank : prefix.line) + Array(line.utf8) + lineEnd
        }
        return bytes
    }

    /// How long the fence must be so that no line of `code` closes it.
    static func fenceLength(for code: String, fence: Fence) -> Int {
        var length = fence.length
        for line in LineDiff.lines(code) {
            let bytes = Array(line.utf8)
            var index = 0
            while index < bytes.count, index < 3, bytes[index] == UInt8(ascii: " ") { index += 1 }
            var run = 0
            while index + run < bytes.count, bytes[index + run] == fence.character { run += 1 }
            let rest = bytes[(index + run)...]
            if run >= length, rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
                length = run + 1
            }
        }
        return length
    }

    /// A fence line with its run of fence characters made `length` long.
    private static func refenced(_ line: [UInt8], length: Int, fence: Fence) -> [UInt8] {
        guard let start = line.firstIndex(of: fence.character) else { return line }
        var end = start
        while end < line.count, line[end] == fence.character { end += 1 }
        return Array(line[..<start]) + [UInt8](repeating: fence.character, count: length) + Array(line[end...])
    }
}
