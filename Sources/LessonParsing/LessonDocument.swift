import BackgroundWork
import CourseFiles
import CourseModel
import HTMLText

/// A lesson's Markdown for the check and the site. A lesson is parsed once per command into a
/// `LessonDocument`: cmark-gfm's tree is copied into Swift values and freed before `parse`
/// returns (`CMarkReader`); the check reads the document's elements, the site renders its
/// blocks, both from the same tree, and code blocks are matched by identity, never by line.
package enum LessonMarkdown {
    /// Parses a lesson; `counts` counts the parse (tests show that a command parses each lesson
    /// once). GitHub's footnotes are always read; `typography` decides whether quotes, dashes
    /// and dots in prose become typographic (cmark-gfm's smart option never touches code).
    /// `lessonPages` maps the course's lesson files to their pages (`02-a.md` → `02-a.html`):
    /// a link to a lesson file goes to its page on the site.
    package static func parse(_ source: String, typography: Typography = .plain,
                              lessonPages: [String: String] = [:], counts: WorkCounts) -> LessonDocument {
        counts.markdownParses.add(1, ordering: .relaxed)
        var tree = CMarkReader.tree(of: source)
        if typography == .smart { tree = LessonTypesetting.typeset(tree) }
        return LessonDocument(tree: tree, lessonPages: lessonPages)
    }

    /// cmark-gfm's own HTML of a lesson (for the tests that hold `MarkdownHTML` to it).
    static func cmarkHTML(of source: String) -> String { CMarkReader.referenceHTML(of: source) }

    /// The HTML coursebook writes for a lesson that none of its own nodes touch: every block
    /// as one rendering (for the tests that hold it to cmark-gfm's).
    static func plainHTML(of source: String) -> String {
        let tree = CMarkReader.tree(of: source)
        return MarkdownHTML.html(of: [MarkdownTree.root], tree: tree)
    }
}

/// One lesson, parsed: immutable values only. The check reads `elements`, the site asks for
/// rendered blocks; what a page changes in the lesson is settled by the first page made of it
/// (`PagePlan`) and kept, so that every page agrees. Different documents render side by side.
package final class LessonDocument: Sendable {
    /// What checking needs to know, in document order: headings, paragraphs, code blocks (with
    /// their identity), raw HTML, `DRn` mentions.
    package let elements: [LessonElement]

    /// The labels of the lesson's footnotes (`[^label]`), whose anchors (`fn-label`,
    /// `fnref-label`) a heading's anchor must not take: known before the page is made, so that
    /// a link from another lesson can name a heading's anchor.
    package let footnoteLabels: [String]

    private let tree: MarkdownTree
    private let reading: LessonReading
    private let plan = Locked<PagePlan?>(nil)

    fileprivate init(tree: MarkdownTree, lessonPages: [String: String]) {
        self.tree = tree
        reading = LessonReading(tree, lessonPages: lessonPages)
        elements = reading.elements
        footnoteLabels = reading.footnoteLabels
    }

    /// The lesson's top-level blocks for a page, in document order. Raw HTML becomes text; `DRn`
    /// in prose becomes a link to `mentionHref(n)`. Which numbers get a link is settled by the
    /// first call (a note the course lacks stays text), so every call must answer nil for the
    /// same numbers. The first call settles the `doc:` links and DocC's images too, from
    /// `references`: every page sits at the top of the site, so they read the same on all.
    package func renderBlocks(mentionHref: (Int) -> String?,
                              references: CourseReferences = .none) -> [RenderedBlock] {
        let plan = settledPlan(mentionHref: mentionHref, references: references)
        return withoutActuallyEscaping(mentionHref) { mentionHref in
            blocks(LessonPage(tree: tree, reading: reading, plan: plan, mentionHref: mentionHref))
        }
    }

    private func blocks(_ page: LessonPage) -> [RenderedBlock] {
        let plan = page.plan
        var blocks: [RenderedBlock] = []
        for node in tree.children(of: MarkdownTree.root) where !plan.edits.removed.contains(node) {
            if case .footnoteDefinition = tree[node].kind { continue }
            blocks.append(page.block(node))
        }
        if !plan.footnotes.isEmpty {
            let html = page.html(plan.footnotes)
            let labels = plan.footnotes.compactMap { node -> String? in
                guard case let .footnoteDefinition(label, _) = tree[node].kind else { return nil }
                return MarkdownHTML.hrefEscaped(label)
            }
            blocks.append(.footnotes(html: html, labels: labels))
        }
        return blocks
    }

    /// The limitation notes alone, number to inline HTML (without the label), for a page that
    /// lists them: the same tree rendered with another page's links.
    package func renderNotes(mentionHref: (Int) -> String?,
                             references: CourseReferences = .none) -> [Int: String] {
        let plan = settledPlan(mentionHref: mentionHref, references: references)
        return withoutActuallyEscaping(mentionHref) { mentionHref in
            let page = LessonPage(tree: tree, reading: reading, plan: plan, mentionHref: mentionHref)
            var notes: [Int: String] = [:]
            for (node, number) in plan.noteNumbers {
                notes[number] = LessonPage.innerParagraphHTML(page.html([node]))
            }
            return notes
        }
    }

    private func settledPlan(mentionHref: (Int) -> String?, references: CourseReferences) -> PagePlan {
        plan.withLock { plan in
            if let plan { return plan }
            let made = PagePlan(tree: tree, reading: reading, linked: { mentionHref($0) != nil }, references: references)
            plan = made
            return made
        }
    }
}

/// One page's rendering of a lesson: its blocks as the site takes them.
private struct LessonPage {
    let tree: MarkdownTree
    let reading: LessonReading
    let plan: PagePlan
    let mentionHref: (Int) -> String?

    /// The HTML of `nodes` as one rendering. Past a depth no reader needs, the page and its
    /// search index get the text alone; an editor placeholder in inline code (or in a code
    /// block inside a list or a quote) shows as Xcode's token, as it does in a Swift listing.
    func html(_ nodes: [Int]) -> String {
        let html = MarkdownHTML.html(of: nodes, tree: tree, edits: plan.edits,
                                     mentionHref: { mentionHref($0) ?? "#dr\($0)" })
        return PlaceholderText.tokens(inCodeOf: NestingLimit.flattened(html))
    }

    func block(_ node: Int) -> RenderedBlock {
        // A block made for the page (raw HTML shown as text) has no place of its own.
        guard plan.edits.replacements[node] == nil else { return .html(html([node]), block: -1) }
        let index = reading.topLevelBlocks[node] ?? -1
        switch tree[node].kind {
        case let .heading(level):
            let html = html([node])
            let open = "<h\(level)>", close = "</h\(level)>\n"
            let inner = html.hasPrefix(open) && html.hasSuffix(close)
                ? String(html.dropFirst(open.count).dropLast(close.count)) : html
            return .heading(level: level, text: plan.edits.plainText(node, in: tree), innerHTML: inner)
        case .codeBlock:
            guard let id = reading.codeBlockIDs[node] else { return .html(html([node]), block: index) }
            return .code(id: id, inDetails: reading.inDetails.contains(id))
        case .blockQuote where reading.callouts[node] != nil:
            var html = ""
            var child = plan.edits.firstChild(of: node, in: tree)
            while let current = child {
                html += self.html([current])
                child = plan.edits.nextSibling(of: current, in: tree)
            }
            let callout = reading.callouts[node]!
            return .callout(callout.kind, title: callout.title, html: html)
        case .paragraph:
            guard let number = plan.noteNumbers[node] else { return .html(html([node]), block: index) }
            return .limitNote(number: number, innerHTML: Self.innerParagraphHTML(html([node])))
        default:
            return .html(html([node]), block: index)
        }
    }

    static func innerParagraphHTML(_ html: String) -> String {
        html.hasPrefix("<p>") && html.hasSuffix("</p>\n") ? String(html.dropFirst(3).dropLast(5)) : html
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
