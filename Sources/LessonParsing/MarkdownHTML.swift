/// HTML from a `MarkdownTree`, written as cmark-gfm's renderer writes it with the options and
/// extensions coursebook parses with (safe mode: raw HTML omitted, dangerous addresses
/// emptied), byte for byte: a test holds the two together over the fixtures. What a page
/// changes in the lesson (`PageEdits`) is applied while writing; the tree stays as parsed.
/// One loop with an explicit stack of open nodes: linear and stack-bounded however deep the
/// lesson nests.
struct MarkdownHTML {
    private let tree: MarkdownTree
    private let edits: PageEdits
    private let mentionHref: (Int) -> String
    private var html: [UInt8] = []
    /// Footnotes opened so far, and up to which one the link back was written.
    private var footnotes = 0, writtenBackLinks = 0
    /// The image whose alternative text is being written: inside it, only text counts.
    private var plainImage: Int?
    /// A table's rows being written: in its header, whether a body was opened.
    private var inTableHeader = false, tableBodyOpen = false

    init(tree: MarkdownTree, edits: PageEdits = PageEdits(), mentionHref: @escaping (Int) -> String = { "#dr\($0)" }) {
        self.tree = tree
        self.edits = edits
        self.mentionHref = mentionHref
    }

    /// The HTML of `nodes` (each with what it holds) written one after the other as one
    /// rendering, as cmark-gfm renders a document that holds them: footnotes are numbered
    /// across them and closed at the end.
    static func html(of nodes: [Int], tree: MarkdownTree, edits: PageEdits = PageEdits(),
                     mentionHref: @escaping (Int) -> String = { "#dr\($0)" }) -> String {
        var renderer = MarkdownHTML(tree: tree, edits: edits, mentionHref: mentionHref)
        for node in nodes { renderer.write(node) }
        if renderer.footnotes > 0 { renderer.put("</ol>\n</section>\n") }
        return String(decoding: renderer.html, as: UTF8.self)
    }

    /// Text as cmark-gfm writes it in an address or an anchor's id (`fn-label`).
    static func hrefEscaped(_ text: String) -> String {
        var renderer = MarkdownHTML(tree: MarkdownTree(nodes: []))
        renderer.escapeHref(text)
        return String(decoding: renderer.html, as: UTF8.self)
    }

    private mutating func write(_ root: Int) {
        var open: [Int] = []
        var current = root
        let end = tree[root].end
        while true {
            while let last = open.last, current >= tree[last].end {
                open.removeLast()
                leave(last)
            }
            guard current < end else { break }
            if edits.removed.contains(current) {
                current = tree[current].end
                continue
            }
            if let replacement = edits.replacements[current] {
                write(replacement)
                current = tree[current].end
                continue
            }
            enter(current)
            if tree[current].kind.isLeaf {
                current = tree[current].end
            } else {
                open.append(current)
                current += 1
            }
        }
    }

    private mutating func enter(_ index: Int) {
        let node = tree[index]
        if plainImage != nil {
            writePlain(node, index)
            return
        }
        switch node.kind {
        case .document, .other: break
        case .blockQuote: cr(); put("<blockquote>\n")
        case let .list(ordered, start, _):
            cr()
            put(!ordered ? "<ul>\n" : start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n")
        case let .item(task):
            cr()
            put("<li>")
            if let checked = task {
                put(checked ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> " : "<input type=\"checkbox\" disabled=\"\" /> ")
            }
        case let .heading(level): cr(); put("<h\(level)>")
        case let .codeBlock(info, _): writeCodeBlock(info: info, literal: node.literal)
        case .htmlBlock: cr(); put("<!-- raw HTML omitted -->"); cr()
        case .thematicBreak: cr(); put("<hr />\n")
        case .paragraph: if !isTight(index) { cr(); put("<p>") }
        case .text: writeText(index)
        case .softBreak: put("\n")
        case .lineBreak: put("<br />\n")
        case .code: put("<code>"); escapeHTML(node.literal); put("</code>")
        case .htmlInline: put("<!-- raw HTML omitted -->")
        case .emphasis: put("<em>")
        case .strong: put("<strong>")
        case .strikethrough: put("<del>")
        case let .link(url, title):
            put("<a href=\"")
            escapeURL(edits.urls[index] ?? url)
            if !title.isEmpty { put("\" title=\""); escapeHTML(title) }
            put("\">")
        case let .image(url, _):
            put("<img src=\"")
            escapeURL(edits.urls[index] ?? url)
            put("\" alt=\"")
            plainImage = index
        case .table: cr(); put("<table>"); tableBodyOpen = false
        case let .tableRow(isHeader): enterRow(isHeader: isHeader)
        case .tableCell: enterCell(index)
        case let .footnoteReference(label, number, referenceIndex):
            put("<sup class=\"footnote-ref\"><a href=\"#fn-")
            escapeHref(label)
            put("\" id=\"fnref-")
            escapeHref(label)
            if referenceIndex > 1 { put("-\(referenceIndex)") }
            put("\" data-footnote-ref>")
            escapeHref(number)
            put("</a></sup>")
        case let .footnoteDefinition(label, _):
            if footnotes == 0 { put("<section class=\"footnotes\" data-footnotes>\n<ol>\n") }
            footnotes += 1
            put("<li id=\"fn-")
            escapeHref(label)
            put("\">\n")
        }
    }

    private mutating func leave(_ index: Int) {
        let node = tree[index]
        if let image = plainImage {
            guard image == index else { return }
            plainImage = nil
        }
        switch node.kind {
        case .blockQuote: cr(); put("</blockquote>\n")
        case let .list(ordered, _, _): put(ordered ? "</ol>\n" : "</ul>\n")
        case .item: put("</li>\n")
        case let .heading(level): put("</h\(level)>\n")
        case .paragraph:
            guard !isTight(index) else { break }
            let parent = node.parent
            if parent >= 0, case .footnoteDefinition = tree[parent].kind, nextSibling(of: index) == nil {
                put(" ")
                writeBackLinks(parent)
            }
            put("</p>\n")
        case .emphasis: put("</em>")
        case .strong: put("</strong>")
        case .strikethrough: put("</del>")
        case .link: put("</a>")
        case let .image(_, title):
            if !title.isEmpty { put("\" title=\""); escapeHTML(title) }
            put("\" />")
        case .table:
            if tableBodyOpen { cr(); put("</tbody>"); cr() }
            tableBodyOpen = false
            cr(); put("</table>"); cr()
        case let .tableRow(isHeader):
            cr(); put("</tr>")
            if isHeader { cr(); put("</thead>"); inTableHeader = false }
        case .tableCell: put(inTableHeader ? "</th>" : "</td>")
        case .footnoteDefinition:
            if writeBackLinks(index) { put("\n") }
            put("</li>\n")
        default: break
        }
    }

    /// Inside an image's alternative text: text, code and raw HTML as escaped text, breaks as
    /// spaces, nothing else.
    private mutating func writePlain(_ node: MarkdownNode, _ index: Int) {
        switch node.kind {
        case .text: writeText(index)
        case .code, .htmlInline: escapeHTML(node.literal)
        case .softBreak, .lineBreak: put(" ")
        default: break
        }
    }

    private mutating func write(_ replacement: PageEdits.Replacement) {
        switch replacement {
        case let .html(text, isBlock):
            guard plainImage == nil else { return }
            if isBlock { cr() }
            put(text)
            if isBlock { cr() }
        case let .text(text):
            escapeHTML(text)
        case let .codeBlock(literal):
            guard plainImage == nil else { return }
            writeCodeBlock(info: "", literal: literal)
        }
    }

    /// A text node: as the page changed it, split at its linked mentions.
    private mutating func writeText(_ index: Int) {
        guard let pieces = edits.mentions[index] else {
            escapeHTML(edits.literals[index] ?? tree[index].literal)
            return
        }
        for piece in pieces {
            switch piece {
            case let .text(text): escapeHTML(text)
            case let .mention(label, _) where plainImage != nil: escapeHTML(label)
            case let .mention(label, number):
                put("<a href=\"")
                escapeURL(mentionHref(number))
                put("\">")
                escapeHTML(label)
                put("</a>")
            }
        }
    }

    private mutating func writeCodeBlock(info: String, literal: String) {
        cr()
        if info.isEmpty {
            put("<pre><code>")
        } else {
            // The info string's first word names the language.
            let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
            put("<pre><code class=\"language-")
            escapeHTML(String(decoding: info.utf8.prefix { !spaces.contains($0) }, as: UTF8.self))
            put("\">")
        }
        escapeHTML(literal)
        put("</code></pre>\n")
    }

    private mutating func enterRow(isHeader: Bool) {
        cr()
        if isHeader {
            inTableHeader = true
            put("<thead>")
            cr()
        } else if !tableBodyOpen {
            put("<tbody>")
            cr()
            tableBodyOpen = true
        }
        put("<tr>")
    }

    private mutating func enterCell(_ index: Int) {
        cr()
        put(inTableHeader ? "<th" : "<td")
        let row = tree[index].parent, table = tree[row].parent
        if case let .table(alignments) = tree[table].kind,
           let column = tree.children(of: row).enumerated().first(where: { $0.element == index })?.offset, alignments.indices.contains(column) {
            switch alignments[column] {
            case .left: put(" align=\"left\"")
            case .center: put(" align=\"center\"")
            case .right: put(" align=\"right\"")
            case .none: break
            }
        }
        put(">")
    }

    /// The links from a footnote back to its references, once per footnote: in its last
    /// paragraph, or else after what it holds.
    @discardableResult
    private mutating func writeBackLinks(_ definition: Int) -> Bool {
        guard writtenBackLinks < footnotes, case let .footnoteDefinition(label, references) = tree[definition].kind else {
            return false
        }
        writtenBackLinks = footnotes
        put("<a href=\"#fnref-")
        escapeHref(label)
        put("\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩</a>")
        if references > 1 {
            for number in 2...references {
                put(" <a href=\"#fnref-")
                escapeHref(label)
                put("-\(number)\" class=\"footnote-backref\" data-footnote-backref aria-label=\"Back to content\">↩<sup class=\"footnote-ref\">\(number)</sup></a>")
            }
        }
        return true
    }

    /// A paragraph in a tight list shows no `<p>`.
    private func isTight(_ paragraph: Int) -> Bool {
        let parent = tree[paragraph].parent
        guard parent >= 0 else { return false }
        let grandparent = tree[parent].parent
        guard grandparent >= 0, case let .list(_, _, tight) = tree[grandparent].kind else { return false }
        return tight
    }

    /// The next sibling the page keeps.
    private func nextSibling(of index: Int) -> Int? {
        var next = tree.nextSibling(of: index)
        while let current = next, edits.removed.contains(current) { next = tree.nextSibling(of: current) }
        return next
    }

    // MARK: Bytes

    private mutating func put(_ text: String) { html.append(contentsOf: text.utf8) }

    private mutating func cr() {
        if let last = html.last, last != UInt8(ascii: "\n") { html.append(UInt8(ascii: "\n")) }
    }

    private mutating func escapeHTML(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): put("&quot;")
            case UInt8(ascii: "&"): put("&amp;")
            case UInt8(ascii: "<"): put("&lt;")
            case UInt8(ascii: ">"): put("&gt;")
            default: html.append(byte)
            }
        }
    }

    /// An address, or nothing for one a browser would run (`javascript:` and the like).
    private mutating func escapeURL(_ url: String) {
        if !MarkdownAddress.isDangerous(url) { escapeHref(url) }
    }

    private mutating func escapeHref(_ text: String) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if MarkdownAddress.isSafe(byte) {
                html.append(byte)
            } else if byte == UInt8(ascii: "&") {
                put("&amp;")
            } else if byte == UInt8(ascii: "'") {
                put("&#x27;")
            } else {
                html.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
    }
}

/// What cmark-gfm's renderer does with a link's address.
enum MarkdownAddress {
    /// Bytes written as they are in an address: letters, digits and `-_.+!*(),%#@?=;:/$~`;
    /// `&` and `'` become entities, everything else `%XX`.
    static func isSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-_.+!*(),%#@?=;:/$~".utf8.contains(byte)
        }
    }

    /// `javascript:`, `vbscript:`, `file:` and `data:` (but for PNG, GIF, JPEG and WebP
    /// images), in any case: safe mode writes no address for them.
    static func isDangerous(_ url: String) -> Bool {
        let start = String(decoding: url.utf8.prefix(16), as: UTF8.self).lowercased()
        for image in ["png", "gif", "jpeg", "webp"] where start.hasPrefix("data:image/" + image) { return false }
        return ["javascript:", "vbscript:", "file:", "data:"].contains { start.hasPrefix($0) }
    }
}
