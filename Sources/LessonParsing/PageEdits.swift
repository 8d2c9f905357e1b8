import CourseModel

/// What a page changes in a lesson's tree, by node: left out, replaced, its text or address
/// changed, its `DRn` mentions made links. The tree stays as parsed; `MarkdownHTML` applies
/// the edits while it writes.
struct PageEdits: Sendable {
    /// What a node gives way to.
    enum Replacement: Sendable, Equatable {
        /// HTML as it is: an allowed tag, a DocC image's picture, a nested code block's mark.
        case html(String, isBlock: Bool)
        /// Text, escaped: raw inline HTML shown as written, a `doc:` link that names nothing.
        case text(String)
        /// A code block without a language: a raw HTML block shown as written.
        case codeBlock(String)
    }

    /// A stretch of a text node whose mentions are links.
    enum TextPiece: Sendable, Equatable {
        case text(String)
        case mention(label: String, number: Int)
    }

    /// Nodes left out, with everything they hold.
    var removed: Set<Int> = []
    var replacements: [Int: Replacement] = [:]
    /// Text nodes' new text.
    var literals: [Int: String] = [:]
    /// Links' and images' new addresses.
    var urls: [Int: String] = [:]
    /// Text nodes split at their linked mentions.
    var mentions: [Int: [TextPiece]] = [:]

    /// A node's text as the page has it.
    func literal(_ node: Int, in tree: MarkdownTree) -> String {
        if let pieces = mentions[node] {
            return pieces.map { piece in
                switch piece {
                case let .text(text): text
                case let .mention(label, _): label
                }
            }.joined()
        }
        return literals[node] ?? tree[node].literal
    }

    /// The first child the page keeps.
    func firstChild(of node: Int, in tree: MarkdownTree) -> Int? {
        var child = tree.firstChild(of: node)
        while let current = child, removed.contains(current) { child = tree.nextSibling(of: current) }
        return child
    }

    /// The next sibling the page keeps.
    func nextSibling(of node: Int, in tree: MarkdownTree) -> Int? {
        var next = tree.nextSibling(of: node)
        while let current = next, removed.contains(current) { next = tree.nextSibling(of: current) }
        return next
    }

    /// What a node is on the page: raw inline HTML shown as text is text, an allowed tag
    /// is none of the kinds a reader of the tree looks for.
    func kind(of node: Int, in tree: MarkdownTree) -> MarkdownKind {
        switch replacements[node] {
        case .text?: .text
        case .html?, .codeBlock?: .other
        case nil: tree[node].kind
        }
    }

    /// The text a reader sees of a node on the page, without markup; line breaks as spaces.
    func plainText(_ node: Int, in tree: MarkdownTree) -> String {
        var text = ""
        tree.walk(below: node) { current, entering in
            guard entering, !removed.contains(current) else { return false }
            if let replacement = replacements[current] {
                if case let .text(literal) = replacement { text += literal }
                return false
            }
            switch tree[current].kind {
            case .htmlInline where AllowedHTML.isComment(tree[current].literal): break
            case .text: text += literal(current, in: tree)
            case .code, .htmlInline: text += tree[current].literal
            case .softBreak, .lineBreak: text += " "
            default: break
            }
            return true
        }
        return text
    }
}

/// The marks that make a quote a callout: GitHub's `[!KIND]` line and DocC's `Kind:` tag,
/// read from the quote as a page has it (`edits`; none when the lesson is read).
struct CalloutMarks {
    let tree: MarkdownTree
    var edits = PageEdits()

    /// The `[!KIND]` that opens a quote on a line of its own, with its text node.
    func marker(_ quote: Int) -> (kind: String, text: Int)? {
        guard let (_, text) = openingText(quote) else { return nil }
        if let next = edits.nextSibling(of: text, in: tree) {
            let kind = edits.kind(of: next, in: tree)
            guard kind == .softBreak || kind == .lineBreak else { return nil }
        }
        var marker = Substring(edits.literal(text, in: tree))
        while let last = marker.last, last == " " || last == "\t" { marker = marker.dropLast() }
        guard marker.hasPrefix("[!"), marker.hasSuffix("]"), marker.count > 3 else { return nil }
        let kind = marker.dropFirst(2).dropLast()
        guard kind.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return (String(kind), text)
    }

    /// DocC's aside tag: the text before the first `:` of the quote's first paragraph, when that
    /// paragraph starts with text (`> Note: ...`, `> Grammar of a type:`). `isAlone`: nothing
    /// follows the colon on its line.
    func asideTag(_ quote: Int) -> (tag: String, isAlone: Bool)? {
        guard let (_, text) = openingText(quote) else { return nil }
        let content = edits.literal(text, in: tree)
        guard let colon = content.firstIndex(of: ":") else { return nil }
        var tag = content[..<colon]
        while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
        guard !tag.isEmpty, tag.first != " ", tag.first != "\t" else { return nil }
        let rest = content[content.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        let next = edits.nextSibling(of: text, in: tree).map { edits.kind(of: $0, in: tree) }
        return (String(tag), rest.isEmpty && (next == nil || next == .softBreak || next == .lineBreak))
    }

    /// The quote's first paragraph and its first node, when that is text.
    func openingText(_ quote: Int) -> (paragraph: Int, text: Int)? {
        guard let paragraph = edits.firstChild(of: quote, in: tree), edits.kind(of: paragraph, in: tree) == .paragraph,
              let text = edits.firstChild(of: paragraph, in: tree), edits.kind(of: text, in: tree) == .text else { return nil }
        return (paragraph, text)
    }
}
