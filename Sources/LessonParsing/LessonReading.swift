import CourseModel

/// What one walk over a lesson's tree finds: the elements the check reads, and what a page
/// needs to know of the nodes (by index in the tree).
struct LessonReading: Sendable {
    var elements: [LessonElement] = []
    /// Code block nodes and their identity (`CodeBlock.id`).
    var codeBlockIDs: [Int: Int] = [:]
    /// Raw HTML nodes that are allowed, with the HTML the page shows for each.
    var allowedHTML: [Int: String] = [:]
    /// Top-level code blocks inside a `<details>`.
    var inDetails: Set<Int> = []
    /// Top-level quotes that are callouts (`> [!NOTE]`, `> Note:`), with their kind.
    var callouts: [Int: Callout] = [:]
    /// HTML comments (editors' notes), dropped from pages.
    var comments: Set<Int> = []
    /// Links to lesson files, with the address of the lesson's page.
    var pageLinks: [(link: Int, url: String)] = []
    /// Each top-level node's place among the top-level blocks as the lesson has them
    /// (`Paragraph.block`).
    var topLevelBlocks: [Int: Int] = [:]
    /// `doc:` links, given their page (or made text) when a page is first made.
    var docLinks: [DocLinkNode] = []
    /// Images named the DocC way (`![](chart)`), with the name.
    var doccImages: [(node: Int, name: String)] = []
    /// The labels of the footnotes, as their anchors write them (`fn-label`).
    var footnoteLabels: [String] = []
    /// The code blocks inside list items and quotes (not footnotes), which the page shows as
    /// the site renders a code block: in the HTML of the block that holds them, each is its
    /// `NestedCodeBlock` mark.
    var nestedCodeBlocks: Set<Int> = []

    /// A `doc:` link as the walk met it.
    struct DocLinkNode: Sendable {
        var node: Int
        var name: String
        var fragment: String?
        /// `<doc:Name>`: its text is its address, which the page replaces by the title.
        var isAutolink: Bool
    }

    /// A raw HTML node as the walk met it.
    struct HTMLNode {
        var node: Int
        var parent: Int
        var isBlock: Bool
        var isTopLevel: Bool
        var pieces: [AllowedHTML.Piece]?
        /// Where its `rawHTML` element stands, taken out again when the node is allowed.
        var element: Int
    }

    /// A top-level block, for following `<details>` through the document.
    enum TopLevel {
        case html(Int)
        case heading
        case code(Int)
    }
}

extension LessonReading {
    /// One walk over the tree, keeping a link depth (so that text inside links is known) and
    /// the places of the containers around the current node (so that an autolink, which
    /// cmark-gfm leaves at 0:0, takes the place of the nearest one): nothing climbs towards
    /// the root, and the walk is linear in the tree however deep it nests.
    init(_ tree: MarkdownTree, lessonPages: [String: String]) {
        var walk = ReadingWalk(tree: tree, lessonPages: lessonPages)
        tree.walk(below: MarkdownTree.root) { node, entering in
            walk.visit(node, entering: entering)
            return true
        }
        self = walk.reading
        let allowed = HTMLJudge.allowed(walk.htmlNodes, topLevel: walk.topLevel, inDetails: &inDetails)
        for index in allowed {
            allowedHTML[walk.htmlNodes[index].node] = AllowedHTML.html(walk.htmlNodes[index].pieces!)
        }
        let dropped = Set(allowed.map { walk.htmlNodes[$0].element })
        elements = elements.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }
}

/// The state of the walk that reads a lesson.
private struct ReadingWalk {
    let tree: MarkdownTree
    let lessonPages: [String: String]
    var reading = LessonReading()
    var htmlNodes: [LessonReading.HTMLNode] = []
    var topLevel: [LessonReading.TopLevel] = []
    var linkDepth = 0
    var topLevelIndex = -1
    var containers: [(node: Int, line: Int, column: Int)] = []
    /// The list items and quotes that hold code blocks, by node, and how many footnote
    /// definitions the walk is in.
    var codeContainers: [Int: Int] = [:]
    var footnoteDepth = 0

    init(tree: MarkdownTree, lessonPages: [String: String]) {
        self.tree = tree
        self.lessonPages = lessonPages
    }

    mutating func visit(_ node: Int, entering: Bool) {
        let kind = tree[node].kind
        if case .footnoteDefinition = kind { footnoteDepth += entering ? 1 : -1 }
        if !kind.isLeaf {
            if entering {
                let line = tree[node].line
                if line > 0 {
                    containers.append((node, line, max(1, tree[node].column)))
                } else {
                    containers.append((node, containers.last?.line ?? 1, containers.last?.column ?? 1))
                }
            } else {
                while let last = containers.popLast(), last.node != node {}
            }
        }
        if kind.isLinkOrImage {
            linkDepth += entering ? 1 : -1
            if entering { readLink(node) }
            return
        }
        guard entering else { return }
        let isTopLevel = tree[node].parent == MarkdownTree.root
        if isTopLevel {
            topLevelIndex += 1
            reading.topLevelBlocks[node] = topLevelIndex
        }
        readBlock(node, isTopLevel: isTopLevel)
    }

    private mutating func readLink(_ node: Int) {
        let (line, column) = (containers.last!.line, containers.last!.column)
        let destination: String, isImage: Bool
        switch tree[node].kind {
        case let .link(url, _): (destination, isImage) = (url, false)
        case let .image(url, _): (destination, isImage) = (url, true)
        default: return
        }
        let link = LessonLink(destination: destination, isImage: isImage, line: line, column: column)
        reading.elements.append(.link(link))
        if !link.isImage, let url = pageURL(link.target) {
            reading.pageLinks.append((node, url))
        }
        switch link.target {
        case let .doc(name, fragment):
            reading.docLinks.append(.init(node: node, name: name, fragment: fragment,
                                          isAutolink: isAutolink(node, destination: link.destination)))
        case let .relative(path, _) where link.isImage && DocCImage.isName(path):
            reading.doccImages.append((node, path))
        default:
            break
        }
    }

    private mutating func readBlock(_ node: Int, isTopLevel: Bool) {
        let line = tree[node].line, literal = tree[node].literal
        switch tree[node].kind {
        case let .heading(level) where isTopLevel:
            topLevel.append(.heading)
            reading.elements.append(.heading(level: level, text: tree.plainText(node), line: line))
        case .paragraph where isTopLevel:
            reading.elements.append(.paragraph(text: tree.plainText(node), line: line, block: topLevelIndex))
        case let .codeBlock(info, fence):
            readCodeBlock(node, info: info, fence: fence, isTopLevel: isTopLevel)
        case .htmlBlock, .htmlInline:
            if AllowedHTML.isComment(literal) {
                reading.comments.insert(node)
                break
            }
            let isBlock = tree[node].kind == .htmlBlock
            if isTopLevel { topLevel.append(.html(htmlNodes.count)) }
            htmlNodes.append(.init(node: node, parent: tree[node].parent, isBlock: isBlock, isTopLevel: isTopLevel,
                                   pieces: AllowedHTML.pieces(literal, isBlock: isBlock), element: reading.elements.count))
            reading.elements.append(.rawHTML(line: line, column: tree[node].column))
        case .blockQuote where isTopLevel:
            readQuote(node)
        case let .footnoteDefinition(label, _) where isTopLevel:
            reading.footnoteLabels.append(MarkdownHTML.hrefEscaped(label))
        case .text where linkDepth == 0:
            readText(node)
        default:
            break
        }
    }

    private mutating func readCodeBlock(_ node: Int, info: String, fence: Fence?, isTopLevel: Bool) {
        let id = reading.codeBlockIDs.count
        reading.codeBlockIDs[node] = id
        var container: CodeContainer?
        if !isTopLevel {
            let parent = tree[node].parent
            let number = codeContainers[parent] ?? codeContainers.count
            codeContainers[parent] = number
            container = CodeContainer(id: number, kind: codeContainerKind(parent), isInFootnote: footnoteDepth > 0)
            // The page shows a block in a list item or a quote as it shows one at the top
            // level; a footnote's stays as cmark-gfm renders it.
            if footnoteDepth == 0 { reading.nestedCodeBlocks.insert(node) }
        }
        if isTopLevel || container?.isInFootnote == false { topLevel.append(.code(id)) }
        reading.elements.append(.code(CodeBlockElement(
            id: id, info: info, literal: tree[node].literal, line: tree[node].line, column: tree[node].column,
            fence: fence, container: container)))
    }

    private mutating func readQuote(_ node: Int) {
        let marks = CalloutMarks(tree: tree)
        if let marker = marks.marker(node) {
            if let kind = CalloutKind(marker: marker.kind) {
                reading.callouts[node] = Callout(kind: kind)
            } else {
                reading.elements.append(.unknownCallout(kind: marker.kind, line: tree[node].line))
            }
        } else if let aside = marks.asideTag(node) {
            if let kind = CalloutKind(asideTag: aside.tag) {
                reading.callouts[node] = Callout(kind: kind)
            } else if aside.isAlone {
                reading.callouts[node] = Callout(kind: .note, title: Callout.title(ofUnknownTag: aside.tag))
            }
        }
    }

    private mutating func readText(_ node: Int) {
        let text = tree[node].literal, line = tree[node].line
        if text.containsBytes("DR") {
            for mention in LimitNoteMention.find(in: text) {
                if let number = mention.number {
                    reading.elements.append(.mention(number: number, line: line))
                } else {
                    reading.elements.append(.oversizedMention(label: String(text[mention.range]), line: line))
                }
            }
        }
        if text.containsBytes("[^") {
            for (label, offset) in FootnoteText.undefined(in: text) {
                reading.elements.append(.undefinedFootnote(label: label, line: line, column: tree[node].column + offset))
            }
        }
    }

    /// What holds a code block below the top level: cmark-gfm puts one only in the document, a
    /// quote, a list item or a footnote's definition.
    private func codeContainerKind(_ parent: Int) -> CodeContainer.Kind {
        switch tree[parent].kind {
        case .blockQuote: .quote
        case .footnoteDefinition: .footnote
        default: .listItem
        }
    }

    /// The page a link to a lesson file goes to: `02-a.md#x` → `02-a.html#x`.
    private func pageURL(_ target: LinkTarget) -> String? {
        guard case let .relative(path, fragment) = target, let name = LinkTarget.coursePath(path),
              let page = lessonPages[name] else { return nil }
        return page + (fragment.map { "#" + $0 } ?? "")
    }

    /// Whether a link's text is its address alone (`<doc:Name>`, an autolink).
    private func isAutolink(_ link: Int, destination: String) -> Bool {
        guard let text = tree.firstChild(of: link), tree[text].kind == .text,
              tree.nextSibling(of: text) == nil else { return false }
        return tree[text].literal == destination
    }
}

/// `[^label]` in text: a footnote reference cmark-gfm found no definition for.
enum FootnoteText {
    /// The labels of `[^label]` left as text, with the byte offset of each in the text.
    static func undefined(in text: String) -> [(label: String, offset: Int)] {
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
}
