/// What cmark-gfm knows of a footnote but does not say through its interface: the label of a
/// definition (`[^label]:`), which definition a reference names and which of its references
/// it is. cmark-gfm numbers the definitions by their first reference, moves them, so numbered,
/// to the end of the document and writes the number as the reference's text; the label is
/// read back from the definition's line of the source, and references are counted in the
/// order they stand in the source, as cmark-gfm counts them.
enum FootnoteNumbers {
    static func resolve(_ nodes: [MarkdownNode], source: String) -> [MarkdownNode] {
        let definitions = nodes.indices.filter {
            if case .footnoteDefinition = nodes[$0].kind { true } else { false }
        }
        guard !definitions.isEmpty else { return nodes }
        var nodes = nodes
        let lines = SourceLines(source)
        let labels = definitions.map { label(onLine: lines[nodes[$0].line]) }
        let references = nodes.indices.filter {
            if case .footnoteReference = nodes[$0].kind { true } else { false }
        }.sorted { (nodes[$0].line, nodes[$0].column) < (nodes[$1].line, nodes[$1].column) }
        var counts = [Int](repeating: 0, count: definitions.count)
        for reference in references {
            let number = nodes[reference].literal
            guard let place = Int(number).map({ $0 - 1 }), labels.indices.contains(place) else { continue }
            counts[place] += 1
            nodes[reference].kind = .footnoteReference(label: labels[place], number: number, index: counts[place])
        }
        for (place, definition) in definitions.enumerated() {
            nodes[definition].kind = .footnoteDefinition(label: labels[place], references: counts[place])
        }
        return nodes
    }

    /// The label of the first `[^label]:` on the line (a label holds no space, tab or `]`).
    static func label(onLine line: Substring.UTF8View) -> String {
        let bytes = Array(line)
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "^") else { continue }
            var end = index + 2
            while end < bytes.count, ![UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\t")].contains(bytes[end]) {
                end += 1
            }
            guard end > index + 2, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "]"),
                  bytes[end + 1] == UInt8(ascii: ":") else { continue }
            return String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        }
        return ""
    }
}

/// The lines of a source as cmark-gfm counts them (from 1; ended by `\n`, `\r\n` or `\r`).
struct SourceLines {
    private let text: Substring.UTF8View
    private var starts: [String.Index] = []

    init(_ source: String) {
        text = Substring(source).utf8
        var index = text.startIndex
        starts.append(index)
        while index < text.endIndex {
            let byte = text[index]
            index = text.index(after: index)
            if byte == UInt8(ascii: "\r"), index < text.endIndex, text[index] == UInt8(ascii: "\n") {
                index = text.index(after: index)
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { starts.append(index) }
        }
    }

    /// Line `number` without its line end; empty past the last line.
    subscript(number: Int) -> Substring.UTF8View {
        guard number >= 1, number <= starts.count else { return Substring("").utf8 }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] : text.endIndex
        while end > start, [UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(text[text.index(before: end)]) {
            end = text.index(before: end)
        }
        return text[start..<end]
    }
}
