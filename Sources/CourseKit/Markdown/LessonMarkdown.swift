import CCmarkGFM
import Synchronization

/// The one place that talks to cmark-gfm. It reads a lesson into `LessonElement`s for checking,
/// and renders its top-level blocks to HTML for the site. Every string is copied out and every
/// parser, iterator, list and tree freed before a function returns; no cmark type leaves here.
package enum LessonMarkdown {
    /// The lesson's headings, paragraphs, code blocks and raw HTML, in document order.
    package static func elements(of source: String) -> [LessonElement] {
        withDocument(source) { document in
            var elements: [LessonElement] = []
            forEachTopLevelNode(document) { node in
                collectElements(node, isTopLevel: true, into: &elements)
                forEachNode(node) { inner in
                    guard type(inner) == "text", !isInsideLink(inner) else { return }
                    for mention in LimitNoteMention.find(in: literal(inner)) {
                        elements.append(.mention(number: mention.number,
                                                 line: Int(cmark_node_get_start_line(inner))))
                    }
                }
            }
            return elements
        }
    }

    /// The lesson's top-level blocks rendered to HTML, in document order. Raw HTML becomes
    /// text; `DRn` in prose becomes a link wherever `mentionHref` knows the note.
    package static func render(
        _ source: String, mentionHref: (Int) -> String?
    ) -> [RenderedBlock] {
        withDocument(source) { document in
            // Notes lose their `DRn.` label first, so that the label is not taken for a mention.
            var noteNumbers: [OpaquePointer: Int] = [:]
            forEachTopLevelNode(document) { node in
                if type(node) == "paragraph",
                   case let .note(number, _) = LimitNoteLabel.parse(plainText(node)) {
                    noteNumbers[node] = number
                    dropLimitNoteLabel(from: node)
                }
            }
            neutralizeRawHTML(in: document)
            linkMentions(in: document, href: mentionHref)
            var blocks: [RenderedBlock] = []
            forEachTopLevelNode(document) { node in
                blocks.append(renderedBlock(node, noteNumber: noteNumbers[node]))
            }
            return blocks
        }
    }

    // MARK: Parsing

    /// cmark-gfm keeps process-wide tables that `cmark_parser_finish` edits for the
    /// extensions: two parses at once corrupt each other, so parsing takes this lock.
    private static let parseLock = Mutex<Void>(())

    /// The extensions of GitHub Flavored Markdown; registering them is not thread-safe either,
    /// so it happens once, here.
    private static let extensionNames: [String] = {
        cmark_gfm_core_extensions_ensure_registered()
        return ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
    }()

    private static func withDocument<Result>(
        _ source: String, _ body: (OpaquePointer) -> Result
    ) -> Result {
        let names = extensionNames
        let document: OpaquePointer = parseLock.withLock { _ in
            let parser = cmark_parser_new(CMARK_OPT_DEFAULT)!
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
            return cmark_parser_finish(parser)!
        }
        defer { cmark_node_free(document) }
        return body(document)
    }

    private static func type(_ node: OpaquePointer) -> String {
        String(cString: cmark_node_get_type_string(node))
    }

    private static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    private static func collectElements(
        _ node: OpaquePointer, isTopLevel: Bool, into elements: inout [LessonElement]
    ) {
        let line = Int(cmark_node_get_start_line(node))
        switch type(node) {
        case "heading" where isTopLevel:
            elements.append(.heading(level: Int(cmark_node_get_heading_level(node)),
                                     text: plainText(node), line: line))
            collectInside(node, into: &elements)
        case "paragraph" where isTopLevel:
            elements.append(.paragraph(text: plainText(node), line: line))
            collectInside(node, into: &elements)
        case "code_block":
            var length: Int32 = 0, offset: Int32 = 0
            var character: CChar = 0
            let isFenced = cmark_node_get_fenced(node, &length, &offset, &character) != 0
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            elements.append(.code(CodeBlockElement(
                info: info, literal: literal(node), line: line,
                column: Int(cmark_node_get_start_column(node)),
                fence: isFenced ? Fence(character: UInt8(bitPattern: character),
                                        length: Int(length), indent: Int(offset)) : nil,
                isNested: !isTopLevel)))
        case "html_block":
            elements.append(.rawHTML(line: line, column: Int(cmark_node_get_start_column(node))))
        default:
            // Containers (lists, quotes, tables): look inside for code blocks and raw HTML.
            collectInside(node, into: &elements, includingBlocks: true)
        }
    }

    /// What lies inside a block: its inline raw HTML and, for a container (a list, a quote),
    /// the code blocks and HTML blocks nested in it.
    private static func collectInside(
        _ node: OpaquePointer, into elements: inout [LessonElement], includingBlocks: Bool = false
    ) {
        var child = cmark_node_first_child(node)
        while let current = child {
            switch type(current) {
            case "html_inline":
                elements.append(.rawHTML(line: Int(cmark_node_get_start_line(current)),
                                         column: Int(cmark_node_get_start_column(current))))
            case "code_block", "html_block":
                if includingBlocks { collectElements(current, isTopLevel: false, into: &elements) }
            default:
                collectInside(current, into: &elements, includingBlocks: includingBlocks)
            }
            child = cmark_node_next(current)
        }
    }

    /// The text a reader sees, without markup; line breaks inside a paragraph as spaces.
    private static func plainText(_ node: OpaquePointer) -> String {
        var text = ""
        var child = cmark_node_first_child(node)
        while let current = child {
            switch type(current) {
            case "text", "code", "html_inline": text += literal(current)
            case "softbreak", "linebreak": text += " "
            default: text += plainText(current)
            }
            child = cmark_node_next(current)
        }
        return text
    }

    // MARK: Rendering

    /// Raw HTML is never passed to the page: inline HTML becomes text, an HTML block becomes
    /// a code block, so the reader sees what the author wrote and no script can run.
    private static func neutralizeRawHTML(in document: OpaquePointer) {
        var found: [OpaquePointer] = []
        forEachNode(document) { node in
            let kind = type(node)
            if kind == "html_inline" || kind == "html_block" { found.append(node) }
        }
        for node in found {
            let isBlock = type(node) == "html_block"
            let replacement = cmark_node_new(isBlock ? CMARK_NODE_CODE_BLOCK : CMARK_NODE_TEXT)!
            cmark_node_set_literal(replacement, cmark_node_get_literal(node))
            cmark_node_insert_before(node, replacement)
            cmark_node_free(node)
        }
    }

    /// `DRn` in text outside links becomes a link to note n, where `href` knows it.
    private static func linkMentions(in document: OpaquePointer, href: (Int) -> String?) {
        var textNodes: [OpaquePointer] = []
        forEachNode(document) { node in
            if type(node) == "text", !isInsideLink(node) { textNodes.append(node) }
        }
        for node in textNodes {
            let text = literal(node)
            let mentions = LimitNoteMention.find(in: text)
            guard mentions.contains(where: { href($0.number) != nil }) else { continue }
            var cursor = text.startIndex
            for mention in mentions {
                guard let url = href(mention.number) else { continue }
                insertText(String(text[cursor..<mention.range.lowerBound]), before: node)
                let link = cmark_node_new(CMARK_NODE_LINK)!
                cmark_node_set_url(link, url)
                let label = cmark_node_new(CMARK_NODE_TEXT)!
                cmark_node_set_literal(label, String(text[mention.range]))
                cmark_node_append_child(link, label)
                cmark_node_insert_before(node, link)
                cursor = mention.range.upperBound
            }
            insertText(String(text[cursor...]), before: node)
            cmark_node_free(node)
        }
    }

    private static func insertText(_ text: String, before node: OpaquePointer) {
        guard !text.isEmpty else { return }
        let textNode = cmark_node_new(CMARK_NODE_TEXT)!
        cmark_node_set_literal(textNode, text)
        cmark_node_insert_before(node, textNode)
    }

    private static func isInsideLink(_ node: OpaquePointer) -> Bool {
        var parent = cmark_node_parent(node)
        while let current = parent {
            let kind = type(current)
            if kind == "link" || kind == "image" { return true }
            parent = cmark_node_parent(current)
        }
        return false
    }

    /// Visits every node below `root`, parents before children. The visitor must not change
    /// the tree; collect nodes and change them afterwards.
    private static func forEachNode(_ root: OpaquePointer, _ visit: (OpaquePointer) -> Void) {
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            if event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) { visit(node) }
        }
    }

    private static func forEachTopLevelNode(
        _ document: OpaquePointer, _ visit: (OpaquePointer) -> Void
    ) {
        var node = cmark_node_first_child(document)
        while let current = node {
            // The next node is read first, so that the visitor may free the current one.
            node = cmark_node_next(current)
            visit(current)
        }
    }

    private static func renderedBlock(_ node: OpaquePointer, noteNumber: Int?) -> RenderedBlock {
        let line = Int(cmark_node_get_start_line(node))
        switch type(node) {
        case "heading":
            let level = Int(cmark_node_get_heading_level(node))
            let html = renderHTML(node)
            let open = "<h\(level)>", close = "</h\(level)>\n"
            let inner = html.hasPrefix(open) && html.hasSuffix(close)
                ? String(html.dropFirst(open.count).dropLast(close.count)) : html
            return .heading(level: level, text: plainText(node), innerHTML: inner, line: line)
        case "code_block":
            // An HTML block turned into a code block (it has no source line) is not one of the
            // lesson's code blocks: it is rendered here, as it is.
            return line == 0 ? .html(renderHTML(node), line: line) : .code(line: line)
        case "paragraph":
            guard let number = noteNumber else { return .html(renderHTML(node), line: line) }
            let html = renderHTML(node)
            let inner = html.hasPrefix("<p>") && html.hasSuffix("</p>\n")
                ? String(html.dropFirst(3).dropLast(5)) : html
            return .limitNote(number: number, innerHTML: inner, line: line)
        default:
            return .html(renderHTML(node), line: line)
        }
    }

    /// Removes the `DRn.` label (and the spaces after it) from the start of a note's paragraph:
    /// the page shows the label on its own.
    private static func dropLimitNoteLabel(from paragraph: OpaquePointer) {
        var node = cmark_node_first_child(paragraph)
        // The label may sit inside emphasis: `**DR3.** ...`.
        while let current = node, type(current) != "text" { node = cmark_node_first_child(current) }
        guard let text = node, case .note = LimitNoteLabel.parse(literal(text)) else { return }
        let afterLabel = literal(text).drop { $0 != "." }.dropFirst()
        var container = cmark_node_parent(text)
        if afterLabel.isEmpty {
            cmark_node_free(text)
            // Emphasis that held only the label goes with it.
            while let parent = container, parent != paragraph, cmark_node_first_child(parent) == nil {
                container = cmark_node_parent(parent)
                cmark_node_free(parent)
            }
        } else {
            cmark_node_set_literal(text, String(afterLabel))
        }
        // What now starts the paragraph must not be a line break or spaces.
        while let first = cmark_node_first_child(paragraph) {
            let kind = type(first)
            if kind == "softbreak" || kind == "linebreak" {
                cmark_node_free(first)
            } else if kind == "text" {
                let trimmed = literal(first).drop { $0 == " " || $0 == "\t" }
                if trimmed.isEmpty { cmark_node_free(first); continue }
                cmark_node_set_literal(first, String(trimmed))
                break
            } else {
                break
            }
        }
    }

    private static func renderHTML(_ node: OpaquePointer) -> String {
        var extensions: UnsafeMutablePointer<cmark_llist>?
        let allocator = cmark_get_default_mem_allocator()
        for name in extensionNames {
            if let syntax = cmark_find_syntax_extension(name) {
                extensions = cmark_llist_append(allocator, extensions, UnsafeMutableRawPointer(syntax))
            }
        }
        defer { cmark_llist_free(allocator, extensions) }
        guard let rendered = cmark_render_html(node, CMARK_OPT_DEFAULT, extensions) else { return "" }
        defer { allocator!.pointee.free(rendered) }
        return String(cString: rendered)
    }
}

/// A top-level block of a lesson, rendered for the site.
package enum RenderedBlock: Sendable, Equatable {
    /// A heading: its plain text (for anchors and the sidebar) and its inline HTML.
    case heading(level: Int, text: String, innerHTML: String, line: Int)
    /// A code block of the lesson, at the line of its opening fence: the site renders it from
    /// the lesson's `CodeBlock` and the scenario results.
    case code(line: Int)
    /// A limitation note: its paragraph's inline HTML, without the `DRn.` label.
    case limitNote(number: Int, innerHTML: String, line: Int)
    /// Any other block, rendered by cmark-gfm.
    case html(String, line: Int)
}
