import CourseModel

/// What a lesson's pages change in its tree, decided by the first page made of it and kept:
/// notes lose their `DRn.` label, callouts their marker, raw HTML becomes text (or the HTML
/// of an allowed tag), mentions become links, `doc:` links and DocC's images get what the
/// course makes of them, the footnotes go to the end. Only the mentions' addresses change
/// from one page to another.
struct PagePlan: Sendable {
    var edits = PageEdits()
    /// Top-level limitation notes, node to number.
    var noteNumbers: [Int: Int] = [:]
    /// The top-level footnote definitions, rendered together at the end of the page.
    var footnotes: [Int] = []

    init(tree: MarkdownTree, reading: LessonReading, linked: (Int) -> Bool, references: CourseReferences) {
        var builder = PagePlanBuilder(tree: tree, reading: reading)
        builder.dropNoteLabels()
        builder.settle(references)
        builder.replaceRawHTML()
        builder.markNestedCode()
        builder.dropCalloutMarkers(linked: linked)
        builder.linkMentions(linked: linked)
        self = builder.plan
        footnotes = tree.children(of: MarkdownTree.root).filter {
            if case .footnoteDefinition = tree[$0].kind { true } else { false }
        }
    }

    fileprivate init() {}
}

/// The steps that make a `PagePlan`, in the order their edits depend on each other.
private struct PagePlanBuilder {
    let tree: MarkdownTree
    let reading: LessonReading
    var plan = PagePlan()

    init(tree: MarkdownTree, reading: LessonReading) {
        self.tree = tree
        self.reading = reading
    }

    private var edits: PageEdits {
        get { plan.edits }
        _modify { yield &plan.edits }
    }

    /// Notes first, so that a label is not taken for a mention: the page shows the label on
    /// its own.
    mutating func dropNoteLabels() {
        for node in tree.children(of: MarkdownTree.root) where tree[node].kind == .paragraph {
            if case let .note(number, _) = LimitNoteLabel.parse(tree.plainText(node)) {
                plan.noteNumbers[node] = number
                dropNoteLabel(from: node)
            }
        }
    }

    /// Removes the `DRn.` label (and the spaces after it) from the start of a note's paragraph.
    private mutating func dropNoteLabel(from paragraph: Int) {
        var node = edits.firstChild(of: paragraph, in: tree)
        // The label may sit inside emphasis: `**DR3.** ...`.
        while let current = node, tree[current].kind != .text { node = edits.firstChild(of: current, in: tree) }
        guard let text = node, case .note = LimitNoteLabel.parse(edits.literal(text, in: tree)) else { return }
        let afterLabel = edits.literal(text, in: tree).drop { $0 != "." }.dropFirst()
        if afterLabel.isEmpty {
            edits.removed.insert(text)
            // Emphasis that held only the label goes with it.
            var container = tree[text].parent
            while container != paragraph, edits.firstChild(of: container, in: tree) == nil {
                edits.removed.insert(container)
                container = tree[container].parent
            }
        } else {
            edits.literals[text] = String(afterLabel)
        }
        // What now starts the paragraph must not be a line break or spaces.
        while let first = edits.firstChild(of: paragraph, in: tree) {
            let kind = tree[first].kind
            if kind == .softBreak || kind == .lineBreak {
                edits.removed.insert(first)
            } else if kind == .text {
                let trimmed = edits.literal(first, in: tree).drop { $0 == " " || $0 == "\t" }
                if trimmed.isEmpty { edits.removed.insert(first); continue }
                edits.literals[first] = String(trimmed)
                break
            } else {
                break
            }
        }
    }

    /// What DocC's links and images become: a link to a page, or else text; a picture.
    mutating func settle(_ references: CourseReferences) {
        for (link, url) in reading.pageLinks { edits.urls[link] = url }
        for link in reading.docLinks {
            if let target = references.docLink(link.name, link.fragment) {
                edits.urls[link.node] = target.href
                // `<doc:Name>` shows the lesson's title, `<doc:Name#Section>` the heading's.
                if link.isAutolink, let text = tree.firstChild(of: link.node) { edits.literals[text] = target.title }
            } else {
                // A reader cannot follow it: its words stay, as text.
                edits.replacements[link.node] = .text(link.isAutolink ? Self.unresolvedTitle(link) : tree.plainText(link.node))
            }
        }
        for image in reading.doccImages {
            guard let html = references.image(image.name, tree.plainText(image.node)) else { continue }
            edits.replacements[image.node] = .html(html, isBlock: false)
        }
    }

    /// The words of `<doc:Name#Section>` that names nothing: the section's (`Section Title`),
    /// else the name.
    private static func unresolvedTitle(_ link: LessonReading.DocLinkNode) -> String {
        if let fragment = link.fragment, !fragment.isEmpty { return String(fragment.map { $0 == "-" ? " " : $0 }) }
        return link.name
    }

    /// Removes a callout's `[!KIND]` line or `Kind:` tag: the page shows the kind as the
    /// callout's title. Comments are gone by then; mentions are split after, in what remains.
    mutating func dropCalloutMarkers(linked: (Int) -> Bool) {
        for quote in reading.callouts.keys {
            let marks = CalloutMarks(tree: tree, edits: edits)
            if let (_, text) = marks.marker(quote) {
                if let next = edits.nextSibling(of: text, in: tree) { edits.removed.insert(next) }
                dropText(text)
                continue
            }
            // DocC's `Note:`: the tag, its colon and the spaces after it; a line break after a
            // tag that stood alone on its line too. A linked mention before the colon splits the
            // text there, and what opens the paragraph then holds no tag.
            guard marks.asideTag(quote) != nil, let (_, text) = marks.openingText(quote) else { continue }
            let content = edits.literal(text, in: tree)
            guard let colon = content.firstIndex(of: ":"), !LimitNoteMention.find(in: content).contains(where: { mention in
                mention.range.lowerBound < colon && mention.number.map(linked) == true
            }) else { continue }
            let rest = content[content.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            guard rest.isEmpty else {
                edits.literals[text] = String(rest)
                continue
            }
            if let next = edits.nextSibling(of: text, in: tree), tree[next].kind == .softBreak || tree[next].kind == .lineBreak {
                edits.removed.insert(next)
            }
            dropText(text)
        }
    }

    /// Removes a text node, and its paragraph when that holds nothing else.
    private mutating func dropText(_ text: Int) {
        edits.removed.insert(text)
        let paragraph = tree[text].parent
        if edits.firstChild(of: paragraph, in: tree) == nil { edits.removed.insert(paragraph) }
    }

    /// Splits the prose's text (not a link's) at its `DRn` mentions, each linked one a link.
    mutating func linkMentions(linked: (Int) -> Bool) {
        var linkDepth = 0
        var texts: [Int] = []
        let removed = edits.removed
        tree.walk(below: MarkdownTree.root) { node, entering in
            if entering, removed.contains(node) { return false }
            switch tree[node].kind {
            case .link, .image: linkDepth += entering ? 1 : -1
            case .text where linkDepth == 0: texts.append(node)
            default: break
            }
            return true
        }
        for node in texts {
            let text = edits.literal(node, in: tree)
            guard text.containsBytes("DR") else { continue }
            let mentions = LimitNoteMention.find(in: text).compactMap { mention in
                mention.number.map { (number: $0, range: mention.range) }
            }.filter { linked($0.number) }
            guard !mentions.isEmpty else { continue }
            var pieces: [PageEdits.TextPiece] = []
            var cursor = text.startIndex
            for mention in mentions {
                if cursor < mention.range.lowerBound { pieces.append(.text(String(text[cursor..<mention.range.lowerBound]))) }
                pieces.append(.mention(label: String(text[mention.range]), number: mention.number))
                cursor = mention.range.upperBound
            }
            if cursor < text.endIndex { pieces.append(.text(String(text[cursor...]))) }
            edits.mentions[node] = pieces
        }
    }

    /// Any raw HTML is never passed to the page as written: an editor's comment is left out,
    /// an allowed tag is written from its parsed pieces, other inline HTML becomes text and an
    /// HTML block a code block, so the reader sees what the author wrote and no script runs.
    mutating func replaceRawHTML() {
        edits.removed.formUnion(reading.comments)
        for node in tree.nodes.indices where !reading.comments.contains(node) {
            let isBlock: Bool
            switch tree[node].kind {
            case .htmlBlock: isBlock = true
            case .htmlInline: isBlock = false
            default: continue
            }
            if let html = reading.allowedHTML[node] {
                edits.replacements[node] = .html(html, isBlock: isBlock)
            } else {
                edits.replacements[node] = isBlock ? .codeBlock(tree[node].literal) : .text(tree[node].literal)
            }
        }
    }

    /// A code block in a list item or a quote: its mark in the HTML of its list or quote,
    /// where the site puts the block.
    mutating func markNestedCode() {
        for node in reading.nestedCodeBlocks {
            let id = reading.codeBlockIDs[node]!
            edits.replacements[node] = .html(NestedCodeBlock.mark(id: id, inDetails: reading.inDetails.contains(id)), isBlock: true)
        }
    }
}
