import CCmarkGFM
import CourseModel
import CourseFiles

/// The one place that talks to cmark-gfm, the way swift-markdown does: parse, walk the tree
/// once with cmark's iterator, copy every string and position out into a `MarkdownTree`, and
/// free the parser, the iterator and the tree before returning. No cmark type or pointer
/// leaves this file.
enum CMarkReader {
    /// The lesson's tree. GitHub's extensions and footnotes are always read.
    static func tree(of source: String) -> MarkdownTree {
        withDocument(source) { document, _ in
            MarkdownTree(nodes: FootnoteNumbers.resolve(copy(document), source: source))
        }
    }

    /// cmark-gfm's own HTML of `source`, parsed and rendered as coursebook parses it: what the
    /// Swift renderer (`MarkdownHTML`) must write for a lesson that none of coursebook's own
    /// nodes touch. For the tests that hold the two together.
    static func referenceHTML(of source: String) -> String {
        withDocument(source) { document, parser in
            guard let html = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else { return "" }
            defer { cmark_get_default_mem_allocator()!.pointee.free(html) }
            return String(cString: html)
        }
    }

    /// Parses `source` and hands the document (and its parser) to `body`; both are freed when
    /// it returns, so nothing of cmark-gfm outlives the call.
    private static func withDocument<Value>(_ source: String, _ body: (OpaquePointer, OpaquePointer) -> Value) -> Value {
        let names = extensionNames
        return parseLock.withLock { _ in
            let parser = cmark_parser_new(options)!
            defer { cmark_parser_free(parser) }
            for name in names {
                if let syntax = cmark_find_syntax_extension(name) {
                    cmark_parser_attach_syntax_extension(parser, syntax)
                }
            }
            var text = source
            text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    cmark_parser_feed(parser, chars.baseAddress, chars.count)
                }
            }
            let document = cmark_parser_finish(parser)!
            defer { cmark_node_free(document) }
            return body(document, parser)
        }
    }

    /// cmark-gfm's own smart option pairs quotes across a paragraph, so that an apostrophe
    /// after a code span (`` `body`'si ``) could open a quote that a later `Linux'ta` closes:
    /// coursebook typesets the prose itself (`LessonTypesetting`), each quote by its neighbours.
    private static let options = CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES

    /// Every node below `document`, in the iterator's order, with its parent and the end of
    /// its subtree.
    private static func copy(_ document: OpaquePointer) -> [MarkdownNode] {
        var nodes: [MarkdownNode] = []
        var open: [Int] = []
        let iterator = cmark_iter_new(document)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_EXIT {
                if let last = open.popLast() { nodes[last].end = nodes.count }
                continue
            }
            let kind = kind(of: node)
            let literal = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            nodes.append(MarkdownNode(kind: kind, literal: literal,
                                      line: Int(cmark_node_get_start_line(node)),
                                      column: Int(cmark_node_get_start_column(node)),
                                      parent: open.last ?? -1, end: nodes.count + 1))
            if !kind.isLeaf { open.append(nodes.count - 1) }
        }
        return nodes
    }

    /// What a node is. Core kinds come from the node's type number; the extensions' kinds have
    /// no exported numbers and are told by name.
    private static func kind(of node: OpaquePointer) -> MarkdownKind {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST:
            return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                         start: Int(cmark_node_get_list_start(node)), tight: cmark_node_get_list_tight(node) != 0)
        case CMARK_NODE_ITEM:
            let isTask = String(cString: cmark_node_get_type_string(node)) == "tasklist"
            return .item(task: isTask ? cmark_gfm_extensions_get_tasklist_item_checked(node) : nil)
        case CMARK_NODE_CODE_BLOCK:
            var length: Int32 = 0, offset: Int32 = 0
            var character: CChar = 0
            let isFenced = cmark_node_get_fenced(node, &length, &offset, &character) != 0
            return .codeBlock(info: cmark_node_get_fence_info(node).map { String(cString: $0) } ?? "",
                              fence: isFenced ? Fence(character: UInt8(bitPattern: character),
                                                      length: Int(length), indent: Int(offset)) : nil)
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)))
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        case CMARK_NODE_IMAGE: return .image(url: string(cmark_node_get_url(node)), title: string(cmark_node_get_title(node)))
        // The label and the numbers are filled in once the whole tree is known.
        case CMARK_NODE_FOOTNOTE_REFERENCE: return .footnoteReference(label: "", number: "", index: 0)
        case CMARK_NODE_FOOTNOTE_DEFINITION: return .footnoteDefinition(label: "", references: 0)
        default:
            switch String(cString: cmark_node_get_type_string(node)) {
            case "table": return .table(alignments: alignments(of: node))
            // The header row is named apart.
            case "table_row", "table_header":
                return .tableRow(isHeader: cmark_gfm_extensions_get_table_row_is_header(node) != 0)
            case "table_cell": return .tableCell
            case "strikethrough": return .strikethrough
            default: return .other
            }
        }
    }

    private static func alignments(of table: OpaquePointer) -> [TableAlignment] {
        let columns = Int(cmark_gfm_extensions_get_table_columns(table))
        guard let alignments = cmark_gfm_extensions_get_table_alignments(table) else { return [] }
        return (0..<columns).map { column in
            switch alignments[column] {
            case UInt8(ascii: "l"): .left
            case UInt8(ascii: "c"): .center
            case UInt8(ascii: "r"): .right
            default: .none
            }
        }
    }

    private static func string(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }

    /// cmark-gfm keeps process-wide tables that `cmark_parser_finish` edits for the
    /// extensions: two parses at once corrupt each other, so parsing takes this lock.
    private static let parseLock = Locked<Void>(())

    /// The extensions of GitHub Flavored Markdown; registering them is not thread-safe either,
    /// so it happens once, here.
    private static let extensionNames: [String] = {
        cmark_gfm_core_extensions_ensure_registered()
        return ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
    }()
}
