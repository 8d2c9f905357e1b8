import BackgroundWork
import CCmarkGFM
import CourseFiles
import CourseModel
import Glibc
import HTMLText

/// The one place that talks to cmark-gfm. A lesson is parsed once per command into a
/// `LessonDocument`: the check reads its elements, the site renders its blocks, both from the
/// same tree, and code blocks are matched by identity, never by line. Every string is copied
/// out; no cmark type leaves this file.
package enum LessonMarkdown {
    /// Parses a lesson; `counts` counts the parse (tests show that a command parses each lesson
    /// once). GitHub's footnotes are always read; `typography` decides whether quotes, dashes
    /// and dots in prose become typographic (cmark-gfm's smart option never touches code).
    /// `lessonPages` maps the course's lesson files to their pages (`02-a.md` → `02-a.html`):
    /// a link to a lesson file goes to its page on the site.
    package static func parse(_ source: String, typography: Typography = .plain,
                              lessonPages: [String: String] = [:], counts: WorkCounts) -> LessonDocument {
        counts.markdownParses.add(1, ordering: .relaxed)
        let names = extensionNames
        let options = parseOptions(typography)
        let root: OpaquePointer = parseLock.withLock { _ in
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
            return cmark_parser_finish(parser)!
        }
        if typography == .smart { typeset(root) }
        return LessonDocument(root: root, lessonPages: lessonPages)
    }

    /// cmark-gfm's own smart option pairs quotes across a paragraph, so that an apostrophe
    /// after a code span (`` `body`'si ``) could open a quote that a later `Linux'ta` closes:
    /// coursebook typesets the prose itself (`SmartTypography`), each quote by its neighbours.
    static func parseOptions(_ typography: Typography) -> Int32 {
        CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES
    }

    /// Typesets every paragraph, heading and table cell of the tree: its text nodes, seen with
    /// the code spans, breaks and autolinks between them. One walk; code is never touched.
    private static func typeset(_ root: OpaquePointer) {
        var texts: [OpaquePointer] = []
        var pieces: [SmartTypography.Piece] = []
        var autolink: OpaquePointer?
        func flush() {
            guard !texts.isEmpty else { pieces.removeAll(); return }
            let typeset = SmartTypography.typeset(pieces)
            for (node, text) in zip(texts, typeset) where text != literalText(node) {
                cmark_node_set_literal(node, text)
            }
            texts.removeAll()
            pieces.removeAll()
        }
        walkTree(root) { node, kind, entering in
            if let link = autolink {
                if node == link, !entering { autolink = nil }
                return
            }
            switch kind {
            case .text:
                texts.append(node)
                pieces.append(.text(literalText(node)))
            case .code, .footnoteReference:
                if entering { pieces.append(.word) }
            case .softBreak, .lineBreak:
                pieces.append(.space)
            case .htmlInline:
                if literalText(node).lowercased().hasPrefix("<br") { pieces.append(.space) }
            case .link where entering && isAutolink(node):
                // A web address is shown as written.
                autolink = node
                pieces.append(.word)
            case .emphasis, .strong, .link, .image, .strikethrough, .other:
                break
            default:
                flush()
            }
        }
        flush()
    }

    /// A link whose text is its address (`<https://...>`, or a bare `www.` that GitHub links).
    private static func isAutolink(_ link: OpaquePointer) -> Bool {
        guard let child = cmark_node_first_child(link), cmark_node_next(child) == nil,
              MarkdownNodeKind(child) == .text, let url = cmark_node_get_url(link) else { return false }
        let text = literalText(child), address = String(cString: url)
        return address == text || address == "http://" + text || address == "mailto:" + text
    }

    private static func literalText(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    private static func walkTree(_ root: OpaquePointer, _ visit: (OpaquePointer, MarkdownNodeKind, _ entering: Bool) -> Void) {
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator), node != root else { continue }
            visit(node, MarkdownNodeKind(node), event == CMARK_EVENT_ENTER)
        }
    }

    /// cmark-gfm keeps process-wide tables that `cmark_parser_finish` edits for the
    /// extensions: two parses at once corrupt each other, so parsing takes this lock. Walking
    /// and rendering a finished tree do not touch those tables.
    private static let parseLock = Locked<Void>(())

    /// The extensions of GitHub Flavored Markdown; registering them is not thread-safe either,
    /// so it happens once, here.
    fileprivate static let extensionNames: [String] = {
        cmark_gfm_core_extensions_ensure_registered()
        return ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]
    }()
}

/// The kinds of cmark-gfm's nodes that coursebook tells apart. Core kinds come from the node's
/// type number; the extensions' kinds have no exported numbers and are told by name.
enum MarkdownNodeKind: Equatable {
    case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading
    case thematicBreak, text, softBreak, lineBreak, code, htmlInline, emphasis, strong
    case link, image, table, tableRow, tableCell, strikethrough, taskItem
    case footnoteReference, footnoteDefinition
    /// A kind coursebook has no use for (custom blocks and inlines ...).
    case other

    /// A node that cmark-gfm's iterator enters but never leaves: it holds no other node.
    var isLeaf: Bool {
        switch self {
        case .text, .softBreak, .lineBreak, .code, .htmlInline, .codeBlock, .htmlBlock, .thematicBreak: true
        default: false
        }
    }

    init(_ node: OpaquePointer) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: self = .document
        case CMARK_NODE_BLOCK_QUOTE: self = .blockQuote
        case CMARK_NODE_LIST: self = .list
        case CMARK_NODE_ITEM: self = .item
        case CMARK_NODE_CODE_BLOCK: self = .codeBlock
        case CMARK_NODE_HTML_BLOCK: self = .htmlBlock
        case CMARK_NODE_PARAGRAPH: self = .paragraph
        case CMARK_NODE_HEADING: self = .heading
        case CMARK_NODE_THEMATIC_BREAK: self = .thematicBreak
        case CMARK_NODE_TEXT: self = .text
        case CMARK_NODE_SOFTBREAK: self = .softBreak
        case CMARK_NODE_LINEBREAK: self = .lineBreak
        case CMARK_NODE_CODE: self = .code
        case CMARK_NODE_HTML_INLINE: self = .htmlInline
        case CMARK_NODE_EMPH: self = .emphasis
        case CMARK_NODE_STRONG: self = .strong
        case CMARK_NODE_LINK: self = .link
        case CMARK_NODE_IMAGE: self = .image
        case CMARK_NODE_FOOTNOTE_REFERENCE: self = .footnoteReference
        case CMARK_NODE_FOOTNOTE_DEFINITION: self = .footnoteDefinition
        default:
            switch String(cString: cmark_node_get_type_string(node)) {
            case "table": self = .table
            case "table_row": self = .tableRow
            case "table_cell": self = .tableCell
            case "strikethrough": self = .strikethrough
            case "tasklist": self = .taskItem
            default: self = .other
            }
        }
    }
}

/// One lesson, parsed by cmark-gfm. The tree lives as long as the document; the check reads
/// `elements`, the site asks for rendered blocks. A document is used by one thread at a time
/// (its lock makes that so); different documents render side by side.
package final class LessonDocument: @unchecked Sendable {
    /// What checking needs to know, in document order: headings, paragraphs, code blocks (with
    /// their identity), raw HTML, `DRn` mentions.
    package let elements: [LessonElement]

    private let state: Locked<RenderState>

    /// The tree and what the first rendering changed in it.
    private struct RenderState: @unchecked Sendable {
        var root: OpaquePointer
        /// Code block nodes and their identity (`CodeBlock.id`).
        var codeBlockIDs: [OpaquePointer: Int]
        /// Raw HTML nodes that are allowed, with the HTML the page shows for each.
        var allowedHTML: [OpaquePointer: String]
        /// Top-level code blocks inside a `<details>`.
        var inDetails: Set<Int>
        /// Top-level quotes that are callouts (`> [!NOTE]`, `> Note:`), with their kind.
        var callouts: [OpaquePointer: Callout]
        /// `doc:` links, to be given their page (or made text) when the tree is made ready.
        var docLinks: [DocLinkNode] = []
        /// Images named the DocC way (`![](chart)`), with the name.
        var doccImages: [(node: OpaquePointer, name: String)] = []
        /// The footnotes, moved out of the lesson's flow into a document of their own when the
        /// tree is made ready for pages: they are rendered once, at the end.
        var footnotes: OpaquePointer?
        /// Whether the tree was made ready for rendering (labels dropped, raw HTML made text,
        /// mentions made links).
        var prepared = false
        /// Top-level limitation notes, node to number.
        var noteNumbers: [OpaquePointer: Int] = [:]
        /// The links made from `DRn` mentions, with their note numbers.
        var mentionLinks: [(link: OpaquePointer, number: Int)] = []
        /// HTML comments (editors' notes), dropped from pages.
        var comments: Set<OpaquePointer> = []
        /// Links to lesson files, with the address of the lesson's page.
        var pageLinks: [(link: OpaquePointer, url: String)] = []
        /// Each top-level node's place among the top-level blocks as the lesson has them
        /// (`Paragraph.block`), which dropping comments and moving footnotes does not change.
        var topLevelBlocks: [OpaquePointer: Int] = [:]
        /// The code blocks inside list items and quotes, which the page shows as the site
        /// renders a code block: in the HTML of the block that holds them, each is its
        /// `NestedCodeBlock` mark.
        var nestedCodeBlocks: Set<OpaquePointer> = []
    }

    /// The labels of the lesson's footnotes (`[^label]`), whose anchors (`fn-label`,
    /// `fnref-label`) a heading's anchor must not take: known before the page is made, so that
    /// a link from another lesson can name a heading's anchor.
    package let footnoteLabels: [String]

    fileprivate init(root: OpaquePointer, lessonPages: [String: String]) {
        let read = Self.readElements(root, lessonPages: lessonPages)
        elements = read.elements
        footnoteLabels = read.footnoteLabels
        state = Locked(RenderState(root: root, codeBlockIDs: read.codeBlockIDs, allowedHTML: read.allowedHTML,
                                  inDetails: read.inDetails, callouts: read.callouts,
                                  docLinks: read.docLinks, doccImages: read.doccImages,
                                  comments: read.comments, pageLinks: read.pageLinks,
                                  topLevelBlocks: read.topLevelBlocks, nestedCodeBlocks: read.nestedCodeBlocks))
    }

    deinit {
        state.withLock { state in
            cmark_node_free(state.root)
            if let footnotes = state.footnotes { cmark_node_free(footnotes) }
        }
    }

    /// The lesson's top-level blocks for a page, in document order. Raw HTML becomes text; `DRn`
    /// in prose becomes a link to `mentionHref(n)`. Which numbers get a link is settled by the
    /// first call (a note the course lacks stays text), so every call must answer nil for the
    /// same numbers. The first call settles the `doc:` links and DocC's images too, from
    /// `references`: every page sits at the top of the site, so they read the same on all.
    package func renderBlocks(mentionHref: (Int) -> String?,
                              references: CourseReferences = .none) -> [RenderedBlock] {
        state.withLock { state in
            Self.prepare(&state, mentionHref: mentionHref, references: references)
            let renderer = Renderer()
            var blocks: [RenderedBlock] = []
            var node = cmark_node_first_child(state.root)
            while let current = node {
                // A block made while preparing (raw HTML shown as text) has no place of its own.
                blocks.append(Self.renderedBlock(current, index: state.topLevelBlocks[current] ?? -1,
                                                 state: state, renderer: renderer))
                node = cmark_node_next(current)
            }
            if let footnotes = state.footnotes {
                let html = renderer.html(footnotes)
                blocks.append(.footnotes(html: html, labels: Self.footnoteLabels(in: html)))
            }
            return blocks
        }
    }

    /// The limitation notes alone, number to inline HTML (without the label), for a page that
    /// lists them: the same tree rendered with another page's links.
    package func renderNotes(mentionHref: (Int) -> String?,
                             references: CourseReferences = .none) -> [Int: String] {
        state.withLock { state in
            Self.prepare(&state, mentionHref: mentionHref, references: references)
            let renderer = Renderer()
            var notes: [Int: String] = [:]
            for (node, number) in state.noteNumbers {
                notes[number] = Self.innerParagraphHTML(renderer.html(node))
            }
            return notes
        }
    }

    // MARK: Reading

    /// What one walk over the tree finds.
    private struct Reading {
        var elements: [LessonElement] = []
        var codeBlockIDs: [OpaquePointer: Int] = [:]
        var allowedHTML: [OpaquePointer: String] = [:]
        var inDetails: Set<Int> = []
        var callouts: [OpaquePointer: Callout] = [:]
        var comments: Set<OpaquePointer> = []
        var pageLinks: [(link: OpaquePointer, url: String)] = []
        var topLevelBlocks: [OpaquePointer: Int] = [:]
        var docLinks: [DocLinkNode] = []
        var doccImages: [(node: OpaquePointer, name: String)] = []
        var footnoteLabels: [String] = []
        var nestedCodeBlocks: Set<OpaquePointer> = []
    }

    /// A `doc:` link as the walk met it.
    struct DocLinkNode {
        var node: OpaquePointer
        var name: String
        var fragment: String?
        /// `<doc:Name>`: its text is its address, which the page replaces by the title.
        var isAutolink: Bool
    }

    /// A raw HTML node as the walk met it.
    private struct HTMLNode {
        var node: OpaquePointer
        var parent: OpaquePointer?
        var isBlock: Bool
        var isTopLevel: Bool
        var pieces: [AllowedHTML.Piece]?
        /// Where its `rawHTML` element stands, taken out again when the node is allowed.
        var element: Int
    }

    /// A top-level block, for following `<details>` through the document.
    private enum TopLevel {
        case html(Int)
        case heading
        case code(Int)
    }

    /// One walk over the tree, keeping a link depth (so that text inside links is known) and
    /// the places of the containers around the current node (so that an autolink, which
    /// cmark-gfm leaves at 0:0, takes the place of the nearest one): nothing climbs towards
    /// the root, and the walk is linear in the tree however deep it nests.
    private static func readElements(_ root: OpaquePointer, lessonPages: [String: String]) -> Reading {
        var reading = Reading()
        var htmlNodes: [HTMLNode] = []
        var topLevel: [TopLevel] = []
        var linkDepth = 0
        var topLevelIndex = -1
        var containers: [(node: OpaquePointer, line: Int, column: Int)] = []
        // The list items and quotes that hold code blocks, by node, and how many footnote
        // definitions the walk is in.
        var codeContainers: [OpaquePointer: Int] = [:]
        var footnoteDepth = 0
        walk(root) { node, kind, entering in
            if kind == .footnoteDefinition { footnoteDepth += entering ? 1 : -1 }
            if !kind.isLeaf {
                if entering {
                    let line = Int(cmark_node_get_start_line(node))
                    if line > 0 {
                        containers.append((node, line, max(1, Int(cmark_node_get_start_column(node)))))
                    } else {
                        containers.append((node, containers.last?.line ?? 1, containers.last?.column ?? 1))
                    }
                } else {
                    while let last = containers.popLast(), last.node != node {}
                }
            }
            if kind == .link || kind == .image {
                linkDepth += entering ? 1 : -1
                if entering {
                    let (line, column) = (containers.last!.line, containers.last!.column)
                    let link = LessonLink(destination: cmark_node_get_url(node).map { String(cString: $0) } ?? "",
                                          isImage: kind == .image, line: line, column: column)
                    reading.elements.append(.link(link))
                    if !link.isImage, let url = pageURL(link.target, lessonPages: lessonPages) {
                        reading.pageLinks.append((node, url))
                    }
                    switch link.target {
                    case let .doc(name, fragment):
                        reading.docLinks.append(DocLinkNode(node: node, name: name, fragment: fragment,
                                                            isAutolink: isAutolink(node, destination: link.destination)))
                    case let .relative(path, _) where link.isImage && DocCImage.isName(path):
                        reading.doccImages.append((node, path))
                    default:
                        break
                    }
                }
                return
            }
            guard entering else { return }
            let line = Int(cmark_node_get_start_line(node))
            let isTopLevel = cmark_node_parent(node) == root
            if isTopLevel {
                topLevelIndex += 1
                reading.topLevelBlocks[node] = topLevelIndex
            }
            switch kind {
            case .heading where isTopLevel:
                topLevel.append(.heading)
                reading.elements.append(.heading(level: Int(cmark_node_get_heading_level(node)),
                                                 text: plainText(node), line: line))
            case .paragraph where isTopLevel:
                reading.elements.append(.paragraph(text: plainText(node), line: line, block: topLevelIndex))
            case .codeBlock:
                var length: Int32 = 0, offset: Int32 = 0
                var character: CChar = 0
                let isFenced = cmark_node_get_fenced(node, &length, &offset, &character) != 0
                let id = reading.codeBlockIDs.count
                reading.codeBlockIDs[node] = id
                var container: CodeContainer?
                if !isTopLevel, let parent = cmark_node_parent(node) {
                    let number = codeContainers[parent] ?? codeContainers.count
                    codeContainers[parent] = number
                    container = CodeContainer(id: number, kind: codeContainerKind(parent), isInFootnote: footnoteDepth > 0)
                    // The page shows a block in a list item or a quote as it shows one at the
                    // top level; a footnote's stays as cmark-gfm renders it.
                    if footnoteDepth == 0 { reading.nestedCodeBlocks.insert(node) }
                }
                if isTopLevel || container?.isInFootnote == false { topLevel.append(.code(id)) }
                reading.elements.append(.code(CodeBlockElement(
                    id: id,
                    info: cmark_node_get_fence_info(node).map { String(cString: $0) } ?? "",
                    literal: literal(node), line: line,
                    column: Int(cmark_node_get_start_column(node)),
                    fence: isFenced ? Fence(character: UInt8(bitPattern: character),
                                            length: Int(length), indent: Int(offset)) : nil,
                    container: container)))
            case .htmlBlock, .htmlInline:
                if AllowedHTML.isComment(literal(node)) {
                    reading.comments.insert(node)
                    break
                }
                if isTopLevel { topLevel.append(.html(htmlNodes.count)) }
                htmlNodes.append(HTMLNode(node: node, parent: cmark_node_parent(node), isBlock: kind == .htmlBlock,
                                          isTopLevel: isTopLevel,
                                          pieces: AllowedHTML.pieces(literal(node), isBlock: kind == .htmlBlock),
                                          element: reading.elements.count))
                reading.elements.append(.rawHTML(line: line, column: Int(cmark_node_get_start_column(node))))
            case .blockQuote where isTopLevel:
                if let marker = calloutMarker(node) {
                    if let kind = CalloutKind(marker: marker.kind) {
                        reading.callouts[node] = Callout(kind: kind)
                    } else {
                        reading.elements.append(.unknownCallout(kind: marker.kind, line: line))
                    }
                } else if let aside = asideTag(node) {
                    if let kind = CalloutKind(asideTag: aside.tag) {
                        reading.callouts[node] = Callout(kind: kind)
                    } else if aside.isAlone {
                        reading.callouts[node] = Callout(kind: .note, title: Callout.title(ofUnknownTag: aside.tag))
                    }
                }
            case .footnoteDefinition where isTopLevel:
                reading.footnoteLabels += footnoteLabels(in: Renderer().html(node))
            case .text where linkDepth == 0:
                guard let text = cmark_node_get_literal(node) else { break }
                if strstr(text, "DR") != nil {
                    let text = literal(node)
                    for mention in LimitNoteMention.find(in: text) {
                        if let number = mention.number {
                            reading.elements.append(.mention(number: number, line: line))
                        } else {
                            reading.elements.append(.oversizedMention(label: String(text[mention.range]), line: line))
                        }
                    }
                }
                if strstr(text, "[^") != nil {
                    let column = Int(cmark_node_get_start_column(node))
                    for (label, offset) in undefinedFootnotes(in: literal(node)) {
                        reading.elements.append(.undefinedFootnote(label: label, line: line, column: column + offset))
                    }
                }
            default:
                break
            }
        }
        let allowed = judge(htmlNodes, topLevel: topLevel, inDetails: &reading.inDetails)
        for index in allowed {
            reading.allowedHTML[htmlNodes[index].node] = AllowedHTML.html(htmlNodes[index].pieces!)
        }
        let dropped = Set(allowed.map { htmlNodes[$0].element })
        reading.elements = reading.elements.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        return reading
    }

    /// What holds a code block below the top level: cmark-gfm puts one only in the document, a
    /// quote, a list item or a footnote's definition.
    private static func codeContainerKind(_ parent: OpaquePointer) -> CodeContainer.Kind {
        switch MarkdownNodeKind(parent) {
        case .blockQuote: .quote
        case .footnoteDefinition: .footnote
        default: .listItem
        }
    }

    /// The page a link to a lesson file goes to: `02-a.md#x` → `02-a.html#x`.
    private static func pageURL(_ target: LinkTarget, lessonPages: [String: String]) -> String? {
        guard case let .relative(path, fragment) = target, let name = LinkTarget.coursePath(path),
              let page = lessonPages[name] else { return nil }
        return page + (fragment.map { "#" + $0 } ?? "")
    }

    /// Which raw HTML nodes pass (by their place in `nodes`). Inline tags must open and close
    /// inside one paragraph; `<details>` must stand at the top level, close what it opens, and
    /// hide no heading. When a document breaks a rule, none of its tags of that kind pass.
    private static func judge(_ nodes: [HTMLNode], topLevel: [TopLevel], inDetails: inout Set<Int>) -> [Int] {
        var allowed: [Int] = []
        // Inline tags, paragraph by paragraph.
        var byParent: [OpaquePointer: [Int]] = [:]
        var parents: [OpaquePointer] = []
        for (index, node) in nodes.enumerated() where !node.isBlock {
            guard let parent = node.parent else { continue }
            if byParent[parent] == nil { parents.append(parent) }
            byParent[parent, default: []].append(index)
        }
        for parent in parents {
            let indices = byParent[parent]!
            var open: [String] = []
            var balanced = true
            for index in indices {
                guard let piece = nodes[index].pieces?.first else { balanced = false; break }
                switch piece {
                case .open(let name, _) where AllowedHTML.voidNames.contains(name): break
                case .open(let name, _): open.append(name)
                case .close(let name): if open.popLast() != name { balanced = false }
                case .text: balanced = false
                }
            }
            if balanced, open.isEmpty { allowed += indices }
        }
        // `<details>` blocks, through the top level of the document.
        var depth = 0
        var candidates: [Int] = []
        var hidden: Set<Int> = []
        var sound = !nodes.contains { $0.isBlock && !$0.isTopLevel && $0.pieces != nil }
        for entry in topLevel {
            switch entry {
            case .html(let index):
                guard nodes[index].isBlock, let pieces = nodes[index].pieces else { continue }
                candidates.append(index)
                for piece in pieces {
                    switch piece {
                    case .open("details", _): depth += 1
                    case .close("details"): depth -= 1
                    case .open("summary", _): if depth == 0 { sound = false }
                    default: break
                    }
                    if depth < 0 { sound = false }
                }
            case .heading:
                // Sections are never hidden.
                if depth > 0 { sound = false }
            case .code(let id):
                if depth > 0 { hidden.insert(id) }
            }
        }
        if sound, depth == 0 {
            allowed += candidates
            inDetails = hidden
        }
        return allowed
    }

    /// The `[!KIND]` that opens a quote on a line of its own, with its text node.
    private static func calloutMarker(_ quote: OpaquePointer) -> (kind: String, text: OpaquePointer)? {
        guard let paragraph = cmark_node_first_child(quote), MarkdownNodeKind(paragraph) == .paragraph,
              let text = cmark_node_first_child(paragraph), MarkdownNodeKind(text) == .text else { return nil }
        if let next = cmark_node_next(text) {
            let kind = MarkdownNodeKind(next)
            guard kind == .softBreak || kind == .lineBreak else { return nil }
        }
        var marker = Substring(literal(text))
        while let last = marker.last, last == " " || last == "\t" { marker = marker.dropLast() }
        guard marker.hasPrefix("[!"), marker.hasSuffix("]"), marker.count > 3 else { return nil }
        let kind = marker.dropFirst(2).dropLast()
        guard kind.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return (String(kind), text)
    }

    /// DocC's aside tag: the text before the first `:` of the quote's first paragraph, when that
    /// paragraph starts with text (`> Note: ...`, `> Grammar of a type:`). `isAlone`: nothing
    /// follows the colon on its line.
    private static func asideTag(_ quote: OpaquePointer) -> (tag: String, isAlone: Bool)? {
        guard let paragraph = cmark_node_first_child(quote), MarkdownNodeKind(paragraph) == .paragraph,
              let text = cmark_node_first_child(paragraph), MarkdownNodeKind(text) == .text else { return nil }
        let content = literal(text)
        guard let colon = content.firstIndex(of: ":") else { return nil }
        var tag = content[..<colon]
        while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
        guard !tag.isEmpty, tag.first != " ", tag.first != "\t" else { return nil }
        let rest = content[content.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        let next = cmark_node_next(text).map(MarkdownNodeKind.init)
        return (String(tag), rest.isEmpty && (next == nil || next == .softBreak || next == .lineBreak))
    }

    /// Whether a link's text is its address alone (`<doc:Name>`, an autolink).
    private static func isAutolink(_ link: OpaquePointer, destination: String) -> Bool {
        guard let text = cmark_node_first_child(link), MarkdownNodeKind(text) == .text,
              cmark_node_next(text) == nil else { return false }
        return literal(text) == destination
    }

    /// The labels of the footnotes in cmark-gfm's HTML of them: it keeps a definition's label
    /// to itself, and names it in the ids (`<li id="fn-label">`).
    static func footnoteLabels(in html: String) -> [String] {
        html.ranges(of: "<li id=\"fn-").compactMap { found -> String? in
            let label = html[found.upperBound...]
            return label.firstIndex(of: "\"").map { String(label[..<$0]) }
        }
    }

    /// The labels of `[^label]` left as text (a footnote reference cmark-gfm found no
    /// definition for), with the byte offset of each in the text.
    private static func undefinedFootnotes(in text: String) -> [(label: String, offset: Int)] {
        var labels: [(label: String, offset: Int)] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            let after = rest[rest.index(after: open)...]
            guard after.first == "^" else { rest = after; continue }
            let label = after.dropFirst()
            guard let end = label.firstIndex(of: "]") else { break }
            let name = label[..<end]
            if !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" || $0 == "[" }) {
                labels.append((String(name), text.utf8.distance(from: text.startIndex, to: open)))
            }
            rest = label[label.index(after: end)...]
        }
        return labels
    }

    /// Whether a text node holds `DR` at all: most do not, and need no Swift string.
    private static func mayMention(_ node: OpaquePointer) -> Bool {
        guard let text = cmark_node_get_literal(node) else { return false }
        return strstr(text, "DR") != nil
    }

    /// Visits every node below `root` (not `root` itself), on entering and on leaving a
    /// container. The visitor must not change the tree; collect nodes and change them after.
    private static func walk(_ root: OpaquePointer,
                             _ visit: (OpaquePointer, MarkdownNodeKind, _ entering: Bool) -> Void) {
        let iterator = cmark_iter_new(root)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator), node != root else { continue }
            visit(node, MarkdownNodeKind(node), event == CMARK_EVENT_ENTER)
        }
    }

    private static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    /// The text a reader sees, without markup; line breaks inside a paragraph as spaces. One
    /// pass of cmark-gfm's iterator over the node's subtree: no recursion, so that 50,000
    /// nested emphases cost what 50,000 side by side do and never exhaust a thread's stack.
    private static func plainText(_ node: OpaquePointer) -> String {
        var bytes: [UInt8] = []
        let iterator = cmark_iter_new(node)
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator), current != node else { continue }
            switch MarkdownNodeKind(current) {
            case .htmlInline where AllowedHTML.isComment(literal(current)):
                break  // an editor's note, which the page drops
            case .text, .code, .htmlInline:
                if let text = cmark_node_get_literal(current) {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(start: text, count: strlen(text)))
                }
            case .softBreak, .lineBreak: bytes.append(UInt8(ascii: " "))
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Rendering

    /// Makes the tree ready for pages, once: notes lose their `DRn.` label (first, so that the
    /// label is not taken for a mention), raw HTML becomes text, mentions become links. After
    /// that, only the links' targets change from one page to another.
    private static func prepare(_ state: inout RenderState, mentionHref: (Int) -> String?,
                                references: CourseReferences) {
        if !state.prepared {
            state.prepared = true
            var node = cmark_node_first_child(state.root)
            while let current = node {
                node = cmark_node_next(current)
                if MarkdownNodeKind(current) == .paragraph,
                   case let .note(number, _) = LimitNoteLabel.parse(plainText(current)) {
                    state.noteNumbers[current] = number
                    dropLimitNoteLabel(from: current)
                }
            }
            // What DocC's links and images become: a link to a page, or else text; a picture.
            let courseNodes = courseReferenceEdits(state, references: references)
            var rawHTML: [(OpaquePointer, isBlock: Bool)] = []
            var mentionTexts: [OpaquePointer] = []
            var nestedCode: [OpaquePointer] = []
            var linkDepth = 0
            // The top-level blocks that get new nodes somewhere inside them.
            var edited: [OpaquePointer] = []
            var topBlock: OpaquePointer?
            walk(state.root) { node, kind, entering in
                if entering, cmark_node_parent(node) == state.root { topBlock = node }
                func edits() { if let topBlock, edited.last != topBlock { edited.append(topBlock) } }
                switch kind {
                case .link, .image:
                    linkDepth += entering ? 1 : -1
                    if entering, courseNodes.replacements[node] != nil { edits() }
                case .codeBlock where state.nestedCodeBlocks.contains(node): nestedCode.append(node); edits()
                case .htmlBlock where entering: rawHTML.append((node, true))
                case .htmlInline where entering: rawHTML.append((node, false)); edits()
                case .text where entering && linkDepth == 0:
                    if mayMention(node), !LimitNoteMention.find(in: literal(node)).isEmpty {
                        mentionTexts.append(node)
                        edits()
                    }
                default: break
                }
            }
            // cmark-gfm checks every node it links in against all the new parent's ancestors:
            // linking deep inside 50,000 nested emphases would cost 50,000 steps a node. Taken
            // apart, every parent is a root while nodes are added, and putting the containers
            // back, deepest first, costs a step each. Nodes replaced are freed only after, as a
            // container may go back beside them.
            // A link or an image that gives way to other nodes stays in its place meanwhile.
            let takenApart = disassemble(edited, keeping: Set(courseNodes.replacements.keys))
            var replaced: [OpaquePointer] = []
            for (node, isBlock) in rawHTML {
                // A freed node's address may come back for a node made later: no map keeps it.
                state.topLevelBlocks[node] = nil
                replaced.append(node)
                if state.comments.remove(node) != nil {
                    // An editor's note: not for readers.
                    continue
                }
                let replacement: OpaquePointer
                if let html = state.allowedHTML[node] {
                    // An allowed tag: the page gets the HTML written from its parsed pieces.
                    replacement = cmark_node_new(isBlock ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_CUSTOM_INLINE)!
                    cmark_node_set_on_enter(replacement, html)
                    cmark_node_set_on_exit(replacement, "")
                } else {
                    // Any other raw HTML is never passed to the page: inline HTML becomes text, an
                    // HTML block a code block, so the reader sees what the author wrote and no
                    // script runs.
                    replacement = cmark_node_new(isBlock ? CMARK_NODE_CODE_BLOCK : CMARK_NODE_TEXT)!
                    cmark_node_set_literal(replacement, cmark_node_get_literal(node))
                }
                place(replacement, before: node)
                state.allowedHTML[node] = nil
            }
            for node in nestedCode {
                // Its place in the HTML of its list or quote, where the site puts the block.
                let mark = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK)!
                let id = state.codeBlockIDs[node]!
                cmark_node_set_on_enter(mark, NestedCodeBlock.mark(id: id, inDetails: state.inDetails.contains(id)))
                cmark_node_set_on_exit(mark, "")
                // A container whose extension refuses the mark keeps the block as cmark-gfm shows it.
                guard cmark_node_insert_before(node, mark) != 0 else { cmark_node_free(mark); continue }
                state.codeBlockIDs[node] = nil
                replaced.append(node)
            }
            state.nestedCodeBlocks = []
            for (link, url) in state.pageLinks { cmark_node_set_url(link, url) }
            for (link, url) in courseNodes.urls { cmark_node_set_url(link, url) }
            for (text, title) in courseNodes.titles { cmark_node_set_literal(text, title) }
            // Inner nodes first: an image's text may hold a link that gives way too.
            for node in courseNodes.order.reversed() {
                guard let replacement = courseNodes.replacements[node] else { continue }
                place(replacement, before: node)
            }
            for node in mentionTexts {
                let links = linkMentions(in: node, linked: { mentionHref($0) != nil })
                if !links.isEmpty { replaced.append(node) }
                state.mentionLinks += links
            }
            reassemble(takenApart)
            for node in replaced { cmark_node_free(node) }
            for node in courseNodes.order.reversed() where courseNodes.replacements[node] != nil { cmark_node_free(node) }
            for quote in state.callouts.keys { dropCalloutMarker(from: quote) }
            var definitions: [OpaquePointer] = []
            var topLevel = cmark_node_first_child(state.root)
            while let current = topLevel {
                if MarkdownNodeKind(current) == .footnoteDefinition { definitions.append(current) }
                topLevel = cmark_node_next(current)
            }
            if !definitions.isEmpty {
                let footnotes = cmark_node_new(CMARK_NODE_DOCUMENT)!
                for definition in definitions {
                    cmark_node_unlink(definition)
                    cmark_node_append_child(footnotes, definition)
                }
                state.footnotes = footnotes
            }
        }
        for (link, number) in state.mentionLinks {
            cmark_node_set_url(link, mentionHref(number) ?? "#dr\(number)")
        }
    }

    /// What the course's answers make of the lesson's `doc:` links and DocC images, decided
    /// before the tree changes: addresses to set, autolinks' texts to retitle, and the nodes
    /// that give way to new ones (a link that names nothing becomes its text; an image, the
    /// course's picture of it), in document order.
    private struct CourseNodeEdits {
        var urls: [(OpaquePointer, String)] = []
        var titles: [(OpaquePointer, String)] = []
        var replacements: [OpaquePointer: OpaquePointer] = [:]
        var order: [OpaquePointer] = []
    }

    private static func courseReferenceEdits(_ state: RenderState, references: CourseReferences) -> CourseNodeEdits {
        var edits = CourseNodeEdits()
        for link in state.docLinks {
            if let target = references.docLink(link.name, link.fragment) {
                edits.urls.append((link.node, target.href))
                // `<doc:Name>` shows the lesson's title, `<doc:Name#Section>` the heading's.
                if link.isAutolink, let text = cmark_node_first_child(link.node) { edits.titles.append((text, target.title)) }
            } else {
                // A reader cannot follow it: its words stay, as text.
                let text = cmark_node_new(CMARK_NODE_TEXT)!
                cmark_node_set_literal(text, link.isAutolink ? unresolvedTitle(link) : plainText(link.node))
                edits.replacements[link.node] = text
            }
        }
        for image in state.doccImages {
            guard let html = references.image(image.name, plainText(image.node)) else { continue }
            let picture = cmark_node_new(CMARK_NODE_CUSTOM_INLINE)!
            cmark_node_set_on_enter(picture, html)
            cmark_node_set_on_exit(picture, "")
            edits.replacements[image.node] = picture
        }
        // Document order, which the walk over the lesson gives; a few nodes, found by identity.
        if !edits.replacements.isEmpty {
            walk(state.root) { node, kind, entering in
                if entering, kind == .link || kind == .image, edits.replacements[node] != nil { edits.order.append(node) }
            }
        }
        return edits
    }

    /// The words of `<doc:Name#Section>` that names nothing: the section's (`Section Title`),
    /// else the name.
    private static func unresolvedTitle(_ link: DocLinkNode) -> String {
        if let fragment = link.fragment, !fragment.isEmpty { return String(fragment.map { $0 == "-" ? " " : $0 }) }
        return link.name
    }

    /// Links `replacement` in before `node`. A table cell's extension admits only the inline
    /// kinds cmark-gfm itself makes there, not the custom node that carries an allowed tag
    /// (`<kbd>` and `<br>` in a table, common on GitHub): while the node goes in, the cell is
    /// judged by `cellAdmission`, which admits it, and then given its own extension back. A node
    /// that still cannot go in is shown as its text, never lost.
    private static func place(_ replacement: OpaquePointer, before node: OpaquePointer) {
        if cmark_node_insert_before(node, replacement) != 0 { return }
        if let parent = cmark_node_parent(node), let own = cmark_node_get_syntax_extension(parent) {
            cmark_node_set_syntax_extension(parent, cellAdmission.pointer)
            let placed = cmark_node_insert_before(node, replacement) != 0
            cmark_node_set_syntax_extension(parent, own)
            if placed { return }
        }
        cmark_node_free(replacement)
        let text = cmark_node_new(CMARK_NODE_TEXT)!
        cmark_node_set_literal(text, cmark_node_get_literal(node))
        cmark_node_insert_before(node, text)
    }

    /// An extension of coursebook's that only answers "yes" for the custom inline node; never
    /// attached to a parser.
    private static let cellAdmission: SyntaxExtension = {
        let syntax = cmark_syntax_extension_new("coursebook-allowed-html")!
        cmark_syntax_extension_set_can_contain_func(syntax) { _, _, child in
            child == CMARK_NODE_CUSTOM_INLINE ? 1 : 0
        }
        return SyntaxExtension(pointer: syntax)
    }()

    private struct SyntaxExtension: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Splits a text node at its `DRn` mentions, each linked one becoming a link node placed
    /// before it; returns the links (the caller frees the text node when there are any).
    private static func linkMentions(in node: OpaquePointer,
                                     linked: (Int) -> Bool) -> [(link: OpaquePointer, number: Int)] {
        let text = literal(node)
        let mentions = LimitNoteMention.find(in: text).compactMap { mention in
            mention.number.map { (number: $0, range: mention.range) }
        }.filter { linked($0.number) }
        guard !mentions.isEmpty else { return [] }
        var links: [(link: OpaquePointer, number: Int)] = []
        var cursor = text.startIndex
        for mention in mentions {
            insertText(String(text[cursor..<mention.range.lowerBound]), before: node)
            let link = cmark_node_new(CMARK_NODE_LINK)!
            let label = cmark_node_new(CMARK_NODE_TEXT)!
            cmark_node_set_literal(label, String(text[mention.range]))
            cmark_node_append_child(link, label)
            cmark_node_insert_before(node, link)
            links.append((link, mention.number))
            cursor = mention.range.upperBound
        }
        insertText(String(text[cursor...]), before: node)
        return links
    }

    /// A container taken out of the tree, with where it stood.
    private struct Detached {
        var node: OpaquePointer
        var parent: OpaquePointer
        var previous: OpaquePointer?
    }

    /// Unlinks every container inside `blocks`, parents before children: each is then a root.
    /// The `kept` stay linked to their parents (which are roots then), for nodes to go in beside
    /// them; what they hold is taken apart all the same.
    private static func disassemble(_ blocks: [OpaquePointer], keeping kept: Set<OpaquePointer> = []) -> [Detached] {
        var detached: [Detached] = []
        for block in blocks {
            var containers: [OpaquePointer] = []
            walk(block) { node, kind, entering in
                if entering, !kind.isLeaf, !kept.contains(node) { containers.append(node) }
            }
            for node in containers {
                detached.append(Detached(node: node, parent: cmark_node_parent(node)!, previous: cmark_node_previous(node)))
                cmark_node_unlink(node)
            }
        }
        return detached
    }

    /// Puts back what `disassemble` took apart, in the reverse order: every container returns to
    /// a parent that is still a root (or a top-level block), so no link climbs far.
    private static func reassemble(_ detached: [Detached]) {
        for entry in detached.reversed() {
            if let previous = entry.previous {
                cmark_node_insert_after(previous, entry.node)
            } else {
                cmark_node_prepend_child(entry.parent, entry.node)
            }
        }
    }

    private static func insertText(_ text: String, before node: OpaquePointer) {
        guard !text.isEmpty else { return }
        let textNode = cmark_node_new(CMARK_NODE_TEXT)!
        cmark_node_set_literal(textNode, text)
        cmark_node_insert_before(node, textNode)
    }

    private static func renderedBlock(_ node: OpaquePointer, index: Int, state: RenderState,
                                      renderer: Renderer) -> RenderedBlock {
        switch MarkdownNodeKind(node) {
        case .heading:
            let level = Int(cmark_node_get_heading_level(node))
            let html = renderer.html(node)
            let open = "<h\(level)>", close = "</h\(level)>\n"
            let inner = html.hasPrefix(open) && html.hasSuffix(close)
                ? String(html.dropFirst(open.count).dropLast(close.count)) : html
            return .heading(level: level, text: plainText(node), innerHTML: inner)
        case .codeBlock:
            // An HTML block turned into a code block is not one of the lesson's code blocks:
            // it is rendered here, as it is.
            guard let id = state.codeBlockIDs[node] else { return .html(renderer.html(node), block: index) }
            return .code(id: id, inDetails: state.inDetails.contains(id))
        case .blockQuote where state.callouts[node] != nil:
            var html = ""
            var child = cmark_node_first_child(node)
            while let current = child {
                html += renderer.html(current)
                child = cmark_node_next(current)
            }
            let callout = state.callouts[node]!
            return .callout(callout.kind, title: callout.title, html: html)
        case .paragraph:
            guard let number = state.noteNumbers[node] else { return .html(renderer.html(node), block: index) }
            return .limitNote(number: number, innerHTML: innerParagraphHTML(renderer.html(node)))
        default:
            return .html(renderer.html(node), block: index)
        }
    }

    private static func innerParagraphHTML(_ html: String) -> String {
        html.hasPrefix("<p>") && html.hasSuffix("</p>\n") ? String(html.dropFirst(3).dropLast(5)) : html
    }

    /// Removes a callout's `[!KIND]` line or `Kind:` tag: the page shows the kind as the
    /// callout's title.
    private static func dropCalloutMarker(from quote: OpaquePointer) {
        if let (_, text) = calloutMarker(quote), let paragraph = cmark_node_parent(text) {
            if let next = cmark_node_next(text) { cmark_node_free(next) }
            cmark_node_free(text)
            if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
            return
        }
        // DocC's `Note:`: the tag, its colon and the spaces after it; a line break after a
        // tag that stood alone on its line too.
        guard asideTag(quote) != nil, let paragraph = cmark_node_first_child(quote),
              let text = cmark_node_first_child(paragraph) else { return }
        let content = literal(text)
        guard let colon = content.firstIndex(of: ":") else { return }
        let rest = content[content.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        guard rest.isEmpty else {
            cmark_node_set_literal(text, String(rest))
            return
        }
        if let next = cmark_node_next(text), MarkdownNodeKind(next) == .softBreak || MarkdownNodeKind(next) == .lineBreak {
            cmark_node_free(next)
        }
        cmark_node_free(text)
        if cmark_node_first_child(paragraph) == nil { cmark_node_free(paragraph) }
    }

    /// Removes the `DRn.` label (and the spaces after it) from the start of a note's paragraph:
    /// the page shows the label on its own.
    private static func dropLimitNoteLabel(from paragraph: OpaquePointer) {
        var node = cmark_node_first_child(paragraph)
        // The label may sit inside emphasis: `**DR3.** ...`.
        while let current = node, MarkdownNodeKind(current) != .text { node = cmark_node_first_child(current) }
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
            let kind = MarkdownNodeKind(first)
            if kind == .softBreak || kind == .lineBreak {
                cmark_node_free(first)
            } else if kind == .text {
                let trimmed = literal(first).drop { $0 == " " || $0 == "\t" }
                if trimmed.isEmpty { cmark_node_free(first); continue }
                cmark_node_set_literal(first, String(trimmed))
                break
            } else {
                break
            }
        }
    }

    /// cmark-gfm's HTML renderer with the GitHub extensions, for one rendering pass.
    private final class Renderer {
        private let allocator = cmark_get_default_mem_allocator()
        private var extensions: UnsafeMutablePointer<cmark_llist>?

        init() {
            for name in LessonMarkdown.extensionNames {
                if let syntax = cmark_find_syntax_extension(name) {
                    extensions = cmark_llist_append(allocator, extensions, UnsafeMutableRawPointer(syntax))
                }
            }
        }

        deinit { cmark_llist_free(allocator, extensions) }

        func html(_ node: OpaquePointer) -> String {
            guard let rendered = cmark_render_html(node, CMARK_OPT_DEFAULT | CMARK_OPT_FOOTNOTES, extensions) else { return "" }
            defer { allocator!.pointee.free(rendered) }
            // Past a depth no reader needs, the page and its search index get the text alone;
            // an editor placeholder in inline code (or in a code block inside a list or a
            // quote) shows as Xcode's token, as it does in a Swift listing.
            return PlaceholderText.tokens(inCodeOf: NestingLimit.flattened(String(cString: rendered)))
        }
    }
}

/// A top-level block of a lesson, rendered for the site.
package enum RenderedBlock: Sendable, Equatable {
    /// A heading: its plain text (for anchors and the sidebar) and its inline HTML.
    case heading(level: Int, text: String, innerHTML: String)
    /// One of the lesson's code blocks (`CodeBlock.id`): the site renders it from the block
    /// and the check's results. `inDetails`: it stands inside a `<details>` of the lesson.
    case code(id: Int, inDetails: Bool)
    /// A limitation note: its paragraph's inline HTML, without the `DRn.` label.
    case limitNote(number: Int, innerHTML: String)
    /// Any other block, rendered by cmark-gfm; `block` is its place among the top-level blocks.
    case html(String, block: Int)
    /// A quote that opens with `[!NOTE]` or `Note:` and the like: its kind, the title its
    /// author gave it (a DocC aside of a kind DocC does not know), its blocks without the marker.
    case callout(CalloutKind, title: String?, html: String)
    /// The lesson's footnotes, numbered and linked both ways, as one `<section>`; `labels` are
    /// the footnotes' names (their anchors are `fn-label` and `fnref-label`). Always last.
    case footnotes(html: String, labels: [String])
}

/// What only the whole course knows of a lesson's page: where its `doc:` links go and how its
/// images named the DocC way are shown. The site answers; a document asks once per link.
package struct CourseReferences: Sendable {
    /// A `doc:` link's address from a page, and the title it shows (the lesson's, or the
    /// heading's).
    package struct DocTarget: Sendable, Equatable {
        package var href: String
        package var title: String

        package init(href: String, title: String) {
            self.href = href
            self.title = title
        }
    }

    /// The target of `doc:name#fragment`; nil when it names nothing (the link becomes its text).
    package var docLink: @Sendable (_ name: String, _ fragment: String?) -> DocTarget?
    /// The HTML that shows the image of that name with that alternative text (a `<picture>`);
    /// nil when the course has no such image (cmark-gfm's `<img>` stays).
    package var image: @Sendable (_ name: String, _ alt: String) -> String?

    package init(docLink: @escaping @Sendable (String, String?) -> DocTarget?,
                 image: @escaping @Sendable (String, String) -> String?) {
        self.docLink = docLink
        self.image = image
    }

    /// A page that knows no other lesson: every `doc:` link becomes its text.
    package static let none = CourseReferences(docLink: { _, _ in nil }, image: { _, _ in nil })
}
