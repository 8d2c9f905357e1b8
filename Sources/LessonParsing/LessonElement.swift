import CourseModel

/// What a `LessonDocument` reports of its lesson, in document order: only the parts that
/// checking needs to know about. No cmark type leaves `CMarkReader.swift`; these do.
package enum LessonElement: Sendable, Equatable {
    /// A heading at the top level of the document (not inside a list or a quote).
    case heading(level: Int, text: String, line: Int)
    /// A paragraph at the top level of the document, as plain text (inline markup dropped,
    /// soft line breaks as spaces).
    case paragraph(text: String, line: Int, block: Int)
    /// A code block at any depth.
    case code(CodeBlockElement)
    /// Raw HTML, which the site shows as text instead of passing it to the page.
    case rawHTML(line: Int, column: Int)
    /// `DRn` in prose, outside code and links: the site links it to note n.
    case mention(number: Int, line: Int)
    /// `DRn` in prose whose number is too large for any note: shown as it is.
    case oversizedMention(label: String, line: Int)
    /// `[^label]` in prose with no `[^label]: ...` definition: shown as it is.
    case undefinedFootnote(label: String, line: Int, column: Int)
    /// A quote that opens with `[!KIND]` on a line of its own, where KIND is not one of
    /// GitHub's five callouts: shown as a quote.
    case unknownCallout(kind: String, line: Int)
    /// A link or an image, at any depth (autolinks, which cmark-gfm gives no position, at the
    /// start of the block that holds them).
    case link(LessonLink)
}

/// A code block as the parser saw it.
package struct CodeBlockElement: Sendable, Equatable {
    /// Its place among the document's code blocks: `CodeBlock.id`.
    package var id: Int
    /// The whole info string (`swift scenario skip`); empty for an indented block.
    package var info: String
    /// The content exactly as cmark-gfm hands it over, final newline included.
    package var literal: String
    /// The line of the opening fence (of the first line, for an indented block).
    package var line: Int
    package var column: Int
    /// The fence, or nil for an indented code block.
    package var fence: Fence?
    /// The list item, quote or footnote that holds it; nil at the top level.
    package var container: CodeContainer?

    package init(id: Int, info: String, literal: String, line: Int, column: Int, fence: Fence?,
                 container: CodeContainer? = nil) {
        self.id = id
        self.info = info
        self.literal = literal
        self.line = line
        self.column = column
        self.fence = fence
        self.container = container
    }

    /// Inside a list item, a block quote or a footnote rather than at the top level.
    package var isNested: Bool { container != nil }
}

/// The innermost block that holds a code block below the top level of a lesson.
package struct CodeContainer: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case listItem, quote, footnote
    }

    /// Its place among the lesson's containers, in document order: two code blocks with the
    /// same id stand in the same list item or quote.
    package var id: Int
    package var kind: Kind
    /// Somewhere inside a footnote's definition, which the page moves to its end.
    package var isInFootnote: Bool

    package init(id: Int, kind: Kind, isInFootnote: Bool) {
        self.id = id
        self.kind = kind
        self.isInFootnote = isInFootnote
    }
}
