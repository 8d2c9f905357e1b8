import CourseModel

/// `--update`: new content for fenced blocks of one lesson file, spliced into its bytes. Every
/// byte outside the rewritten blocks stays as it was (BOM, CRLF, trailing spaces, other
/// fences); the new lines take the line end and the indent of the block's own fence.
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
        var splices: [(range: Range<Int>, bytes: [UInt8], edit: Edit, lineInNew: (Int) -> Int)] = []
        for edit in edits {
            switch edit.kind {
            case .replaceCode(let block):
                // A block that already says it keeps its bytes as they are (its indent, its
                // spaces, its line ends): rewriting with the same outputs changes nothing.
                if sameBytes(Substring(block.code), Substring(edit.code)) { continue }
                guard let fence = block.fence else {
                    throw Unplaceable(line: block.line, reason: "only fenced code blocks can be rewritten")
                }
                let lineEnd = lineEnd(ofLine: block.line, in: source)
                let first = block.line + 1
                let closing = first + block.codeLineCount
                let needed = fenceLength(for: edit.code, fence: fence)
                var bytes = codeLines(edit.code, indent: fence.indent, lineEnd: lineEnd)
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
                splices.append((range, bytes, edit, { $0 }))

            case .insertOutput(let scenario):
                guard let fence = scenario.fence else {
                    throw Unplaceable(line: scenario.line, reason: "only fenced scenarios can get an output block")
                }
                let closing = scenario.line + 1 + scenario.codeLineCount
                guard closing <= source.lineCount else {
                    throw Unplaceable(line: scenario.line, reason: "the scenario's code block is not closed")
                }
                let lineEnd = lineEnd(ofLine: scenario.line, in: source)
                let after = source.lines[closing - 1]
                let indent = [UInt8](repeating: UInt8(ascii: " "), count: fence.indent)
                let length = fenceLength(for: edit.code, fence: Fence(character: UInt8(ascii: "`"), length: 3, indent: fence.indent))
                let marks = [UInt8](repeating: UInt8(ascii: "`"), count: length)
                var bytes = after.end.isEmpty ? lineEnd : []
                bytes += lineEnd + indent + marks + Array("output".utf8) + lineEnd
                bytes += codeLines(edit.code, indent: fence.indent, lineEnd: lineEnd)
                bytes += indent + marks + lineEnd
                // The new block opens two lines below the scenario's closing fence.
                splices.append((after.whole.upperBound..<after.whole.upperBound, bytes, edit, { _ in closing + 2 }))
            }
        }

        splices.sort { $0.range.lowerBound < $1.range.lowerBound }
        var result: [UInt8] = []
        var placed: [Placed] = []
        var cursor = 0
        var lineDelta = 0
        for splice in splices {
            guard splice.range.lowerBound >= cursor else {
                throw Unplaceable(line: 0, reason: "two rewrites overlap")
            }
            result += source.bytes[cursor..<splice.range.lowerBound]
            let line: Int
            switch splice.edit.kind {
            case .replaceCode(let block): line = block.line + lineDelta
            case .insertOutput: line = splice.lineInNew(0) + lineDelta
            }
            placed.append(Placed(edit: splice.edit, line: line))
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

    /// The code as lines, each with the fence's indent and the given line end.
    private static func codeLines(_ code: String, indent: Int, lineEnd: [UInt8]) -> [UInt8] {
        let prefix = [UInt8](repeating: UInt8(ascii: " "), count: indent)
        var bytes: [UInt8] = []
        for line in LineDiff.lines(code) {
            bytes += (line.isEmpty ? [] : prefix) + Array(line.utf8) + lineEnd
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
