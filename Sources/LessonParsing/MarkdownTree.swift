import CourseModel

/// A lesson's Markdown as cmark-gfm parsed it, copied out into Swift values (`CMarkReader`):
/// immutable, `Sendable`, with no pointer into cmark-gfm, which is freed before the parse
/// returns. The nodes are kept in document order, each knowing where its subtree ends, so that
/// every walk over the tree is a loop, never a recursion: 50,000 nested emphases cost what
/// 50,000 side by side do and never exhaust a thread's stack.
struct MarkdownTree: Sendable {
    /// Every node, in document order (each before its children); `nodes[0]` is the document.
    let nodes: [MarkdownNode]

    static let root = 0

    subscript(index: Int) -> MarkdownNode { nodes[index] }

    /// The children of `index`, in order.
    func children(of index: Int) -> MarkdownChildren { MarkdownChildren(nodes: nodes, parent: index) }

    /// The next node with the same parent, if any.
    func nextSibling(of index: Int) -> Int? {
        let next = nodes[index].end, parent = nodes[index].parent
        return parent >= 0 && next < nodes[parent].end ? next : nil
    }

    /// The first child of `index`, if any.
    func firstChild(of index: Int) -> Int? {
        index + 1 < nodes[index].end ? index + 1 : nil
    }

    /// Visits every node below `index` (not `index` itself), on entering and, for a container,
    /// on leaving, in the order of cmark-gfm's iterator. The visitor answers whether to go into
    /// the node's children (and leave it afterwards). An explicit stack, no recursion.
    func walk(below index: Int, _ visit: (_ node: Int, _ entering: Bool) -> Bool) {
        var open: [Int] = []
        var current = index + 1
        let end = nodes[index].end
        while true {
            while let last = open.last, current >= nodes[last].end {
                open.removeLast()
                _ = visit(last, false)
            }
            guard current < end else { break }
            let descend = visit(current, true)
            if descend, !nodes[current].kind.isLeaf {
                open.append(current)
                current += 1
            } else {
                current = nodes[current].end
            }
        }
    }

    /// The text a reader sees of a node, without markup; line breaks as spaces; editors'
    /// comments left out.
    func plainText(_ index: Int) -> String {
        var bytes: [UInt8] = []
        for node in index + 1..<nodes[index].end {
            switch nodes[node].kind {
            case .htmlInline where AllowedHTML.isComment(nodes[node].literal):
                break  // an editor's note, which the page drops
            case .text, .code, .htmlInline:
                bytes.append(contentsOf: nodes[node].literal.utf8)
            case .softBreak, .lineBreak: bytes.append(UInt8(ascii: " "))
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The children of one node, in order.
struct MarkdownChildren: Sequence {
    let nodes: [MarkdownNode]
    let parent: Int

    func makeIterator() -> AnyIterator<Int> {
        var next = parent + 1
        let end = nodes[parent].end
        return AnyIterator {
            guard next < end else { return nil }
            defer { next = nodes[next].end }
            return next
        }
    }
}

/// One node of a lesson's Markdown.
struct MarkdownNode: Sendable, Equatable {
    var kind: MarkdownKind
    /// The text of a text, code, raw HTML or code block node; empty for the others.
    var literal: String
    /// Where cmark-gfm says the node starts (0 when it does not know, as for autolinks).
    var line: Int
    var column: Int
    /// The parent's index; -1 for the document.
    var parent: Int
    /// The index just past the node's last descendant.
    var end: Int
}

/// What a node is, with what its HTML needs to know. GitHub's extensions included: tables,
/// strikethrough, task items, footnotes (autolinks are links).
enum MarkdownKind: Sendable, Equatable {
    case document, blockQuote, paragraph, thematicBreak, htmlBlock
    case list(ordered: Bool, start: Int, tight: Bool)
    /// A list item; `task` when it opens with `[ ]` or `[x]` (its value: checked).
    case item(task: Bool?)
    case codeBlock(info: String, fence: Fence?)
    case heading(level: Int)
    case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, strikethrough
    case link(url: String, title: String)
    case image(url: String, title: String)
    /// A table and each column's alignment (`l`, `c`, `r` or none).
    case table(alignments: [TableAlignment])
    case tableRow(isHeader: Bool)
    case tableCell
    /// `[^label]`: the label of the definition it names, its number on the page, and which of
    /// the references to that definition it is (1 for the first).
    case footnoteReference(label: String, number: String, index: Int)
    /// `[^label]: ...`, and how many references name it.
    case footnoteDefinition(label: String, references: Int)
    /// A kind coursebook has no use for (custom blocks and inlines of other extensions).
    case other

    /// A node that cmark-gfm's iterator enters but never leaves: it holds no other node.
    var isLeaf: Bool {
        switch self {
        case .text, .softBreak, .lineBreak, .code, .htmlInline, .codeBlock, .htmlBlock, .thematicBreak: true
        default: false
        }
    }

    var isLinkOrImage: Bool {
        switch self {
        case .link, .image: true
        default: false
        }
    }
}

/// How a table's column is aligned.
enum TableAlignment: Sendable, Equatable {
    case none, left, center, right
}
