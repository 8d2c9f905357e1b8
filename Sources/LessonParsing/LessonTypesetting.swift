import CourseModel

/// Typographic quotes, dashes and dots in a lesson's prose (`Typography.smart`). cmark-gfm's
/// own smart option pairs quotes across a paragraph, so that an apostrophe after a code span
/// (`` `body`'si ``) could open a quote that a later `Linux'ta` closes: coursebook typesets
/// each paragraph, heading and table cell itself (`SmartTypography`), each quote by its
/// neighbours, seeing its text nodes with the code spans, breaks and autolinks between them.
/// One walk; code is never touched.
enum LessonTypesetting {
    static func typeset(_ tree: MarkdownTree) -> MarkdownTree {
        var nodes = tree.nodes
        var texts: [Int] = []
        var pieces: [SmartTypography.Piece] = []
        func flush() {
            guard !texts.isEmpty else { pieces.removeAll(); return }
            for (node, text) in zip(texts, SmartTypography.typeset(pieces)) { nodes[node].literal = text }
            texts.removeAll()
            pieces.removeAll()
        }
        tree.walk(below: MarkdownTree.root) { node, entering in
            switch tree[node].kind {
            case .text:
                texts.append(node)
                pieces.append(.text(tree[node].literal))
            case .code, .footnoteReference:
                if entering { pieces.append(.word) }
            case .softBreak, .lineBreak:
                pieces.append(.space)
            case .htmlInline:
                if tree[node].literal.lowercased().hasPrefix("<br") { pieces.append(.space) }
            case .link where entering && isAutolink(node, in: tree):
                // A web address is shown as written.
                pieces.append(.word)
                return false
            case .emphasis, .strong, .link, .image, .strikethrough, .other:
                break
            default:
                flush()
            }
            return true
        }
        flush()
        return MarkdownTree(nodes: nodes)
    }

    /// A link whose text is its address (`<https://...>`, or a bare `www.` that GitHub links).
    private static func isAutolink(_ link: Int, in tree: MarkdownTree) -> Bool {
        guard case let .link(address, _) = tree[link].kind, let child = tree.firstChild(of: link),
              tree.nextSibling(of: child) == nil, tree[child].kind == .text else { return false }
        let text = tree[child].literal
        return address == text || address == "http://" + text || address == "mailto:" + text
    }
}
