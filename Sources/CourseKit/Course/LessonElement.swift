/// What the Markdown layer reports of a lesson, in document order: only the parts that checking
/// and the site need to know about. No cmark type leaves the Markdown layer; these do.
package enum LessonElement: Sendable, Equatable {
    /// A heading at the top level of the document (not inside a list or a quote).
    case heading(level: Int, text: String, line: Int)
    /// A paragraph at the top level of the document, as plain text (inline markup dropped,
    /// soft line breaks as spaces).
    case paragraph(text: String, line: Int)
    /// A code block at any depth.
    case code(CodeBlockElement)
    /// Raw HTML, which the site shows as text instead of passing it to the page.
    case rawHTML(line: Int, column: Int)
    /// `DRn` in prose, outside code and links: the site links it to note n.
    case mention(number: Int, line: Int)
}

/// A code block as the parser saw it.
package struct CodeBlockElement: Sendable, Equatable {
    /// The whole info string (`swift scenario skip`); empty for an indented block.
    package var info: String
    /// The content exactly as cmark-gfm hands it over, final newline included.
    package var literal: String
    /// The line of the opening fence (of the first line, for an indented block).
    package var line: Int
    package var column: Int
    /// The fence, or nil for an indented code block.
    package var fence: Fence?
    /// Inside a list item or a block quote rather than at the top level.
    package var isNested: Bool

    package init(info: String, literal: String, line: Int, column: Int, fence: Fence?,
                 isNested: Bool) {
        self.info = info
        self.literal = literal
        self.line = line
        self.column = column
        self.fence = fence
        self.isNested = isNested
    }
}

/// The opening fence of a fenced code block.
package struct Fence: Sendable, Equatable {
    /// A backtick or a tilde.
    package var character: UInt8
    /// How many of them open the block (three or more).
    package var length: Int
    /// Spaces before the fence (zero to three).
    package var indent: Int

    package init(character: UInt8, length: Int, indent: Int) {
        self.character = character
        self.length = length
        self.indent = indent
    }
}
