/// Markup nested past a depth no reader needs is flattened: a lesson of 50,000 emphases one
/// inside the other (or lists, block quotes, links) is read and rendered in linear time, but a
/// browser lays such a page out slowly and a search indexer reads it for minutes. Past
/// `NestingLimit.depth` elements open at once in a block, the tags of the deeper elements are
/// left out and their text kept, so the page and its index hold every word the author wrote.
package enum NestingLimit {
    /// How many elements may be open at once in one rendered block: far more than any
    /// lesson's prose, a list in a list in a quote, needs.
    package static let depth = 32

    /// Elements that hold no content (no closing tag follows them).
    private static let voidElements: Set<String> = ["br", "hr", "img", "input", "wbr", "col", "source"]
    /// Elements that stand as blocks: one left out becomes a space, so that words of separate
    /// blocks do not run together.
    private static let blockElements: Set<String> = [
        "p", "li", "ul", "ol", "blockquote", "div", "pre", "table", "thead", "tbody", "tr", "td", "th",
        "h1", "h2", "h3", "h4", "h5", "h6", "section", "details", "summary", "dl", "dt", "dd",
    ]

    /// `html` (as cmark-gfm renders a block: text escaped, tags balanced) with the tags of
    /// every element deeper than `depth` left out. Linear in the text; `html` itself when
    /// nothing nests that deep.
    package static func flattened(_ html: String, depth: Int = NestingLimit.depth) -> String {
        let bytes = Array(html.utf8)
        // Cheap test first: a block with fewer tags than the limit cannot pass it.
        var tags = 0
        for byte in bytes where byte == UInt8(ascii: "<") { tags += 1 }
        guard tags > depth else { return html }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var open: [(name: ArraySlice<UInt8>, kept: Bool)] = []
        var index = 0
        var changed = false
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            let tag = bytes[index...end]
            let closing = tag.dropFirst().first == UInt8(ascii: "/")
            let nameStart = tag.startIndex + (closing ? 2 : 1)
            var nameEnd = nameStart
            while nameEnd < end, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let name = bytes[nameStart..<nameEnd]
            let nameText = String(decoding: name, as: UTF8.self).lowercased()
            var keep = true
            if name.isEmpty || tag.dropFirst().first == UInt8(ascii: "!") {
                // A comment or something that is no element: as it is.
            } else if closing {
                if let last = open.last, last.name.elementsEqual(name) {
                    open.removeLast()
                    keep = last.kept
                }
            } else if !(voidElements.contains(nameText) || bytes[end - 1] == UInt8(ascii: "/")) {
                keep = open.count < depth
                open.append((name, keep))
            } else {
                keep = open.count < depth || nameText == "br" || nameText == "img"
            }
            if keep {
                output.append(contentsOf: tag)
            } else {
                changed = true
                if blockElements.contains(nameText) { output.append(UInt8(ascii: " ")) }
            }
            index = end + 1
        }
        return changed ? String(decoding: output, as: UTF8.self) : html
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }
}
