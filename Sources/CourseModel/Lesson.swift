/// One lesson file of a course, read and interpreted: its title, its sections, its code blocks
/// with their roles, its scenarios paired with their expected output, its limitation notes.
package struct Lesson: Sendable {
    /// `01-yerel-durum.md`
    package var fileName: String
    /// The path to show in messages: the course folder as the author named it, then the name.
    package var path: String
    package var source: SourceText
    /// The text of the first level-1 heading; nil when the lesson has none (an error).
    package var title: String?
    package var headings: [Heading]
    package var codeBlocks: [CodeBlock]
    package var scenarios: [Scenario]
    package var notes: [LimitNote]
    /// `DRn` mentioned in prose (a note's own label is not a mention).
    package var mentions: [LimitNoteReference]
    /// The first top-level paragraph after the title that is not a limitation note.
    package var introduction: Paragraph?
    /// Every link and image, at any depth, in document order.
    package var links: [LessonLink]
    /// The file that holds the lesson, every link resolved (inside the course): what
    /// `--update` writes. Nil for a lesson made in memory.
    package var realPath: String?

    package init(fileName: String, path: String, source: SourceText, title: String?,
                 headings: [Heading], codeBlocks: [CodeBlock], scenarios: [Scenario],
                 notes: [LimitNote], mentions: [LimitNoteReference], introduction: Paragraph?,
                 links: [LessonLink] = []) {
        self.fileName = fileName
        self.path = path
        self.source = source
        self.title = title
        self.headings = headings
        self.codeBlocks = codeBlocks
        self.scenarios = scenarios
        self.notes = notes
        self.mentions = mentions
        self.introduction = introduction
        self.links = links
    }

    /// `01-yerel-durum` (the file name without `.md`).
    package var slug: String {
        fileName.hasSuffix(".md") ? String(fileName.dropLast(3)) : fileName
    }

    package func location(line: Int, column: Int = 1) -> SourceLocation {
        SourceLocation(file: path, line: line, column: column)
    }

    /// The top-level `##` sections, each with the headings' range of lines.
    package var sections: [Section] {
        var sections: [Section] = []
        for (index, heading) in headings.enumerated() where heading.level == 2 {
            let end = headings[(index + 1)...].first { $0.level <= 2 }?.line ?? Int.max
            sections.append(Section(heading: heading, lines: heading.line..<end))
        }
        return sections
    }
}

/// A heading at the top level of a lesson.
package struct Heading: Sendable, Equatable {
    package var level: Int
    package var text: String
    package var line: Int

    package init(level: Int, text: String, line: Int) {
        self.level = level
        self.text = text
        self.line = line
    }
}

/// A `##` heading and the lines up to the next heading of level 1 or 2.
package struct Section: Sendable, Equatable {
    package var heading: Heading
    package var lines: Range<Int>

    package init(heading: Heading, lines: Range<Int>) {
        self.heading = heading
        self.lines = lines
    }
}

/// A top-level paragraph, as plain text.
package struct Paragraph: Sendable, Equatable {
    package var text: String
    package var line: Int
    /// Its place among the document's top-level blocks: how the site finds it again.
    package var block: Int

    package init(text: String, line: Int, block: Int) {
        self.text = text
        self.line = line
        self.block = block
    }
}

/// A limitation note: a paragraph that starts with `DR`, a number and a full stop. It says what
/// a measurement did not cover.
package struct LimitNote: Sendable, Equatable {
    package var number: Int
    /// The note without its `DRn.` label.
    package var text: String
    package var line: Int

    package init(number: Int, text: String, line: Int) {
        self.number = number
        self.text = text
        self.line = line
    }

    /// `DR10`
    package var label: String { "DR\(number)" }
}

/// A mention of a limitation note in prose.
package struct LimitNoteReference: Sendable, Equatable {
    package var number: Int
    package var line: Int

    package init(number: Int, line: Int) {
        self.number = number
        self.line = line
    }
}

/// What a code block is for, from its info string.
package enum CodeBlockRole: Sendable, Equatable {
    /// `swift scenario`: compiled with the core files and run.
    case scenario
    /// `swift scenario skip`: shown, not run.
    case skippedScenario
    /// `output`: the expected standard output of the scenario above.
    case output
    /// `errors`: the compiler's errors that the scenario above must fail to compile with.
    case errors
    /// `trap`: the runtime's message as the scenario above traps (after its `output` block).
    case trap
    /// `swift core` / `swift core=Name.swift`: a listing that must equal a core file.
    case coreListing(name: String?)
    /// `swift module=NAME`: part of the course's library module NAME, which scenarios import.
    case moduleListing(name: String)
    /// `swift`: shown and syntax-checked, never run.
    case illustration
    /// Anything else, shown as it is.
    case other
}

/// A code block of a lesson, with its place in the file.
package struct CodeBlock: Sendable, Equatable {
    /// Its place among the lesson's code blocks (nested ones included), in document order: the
    /// identity by which the check's results and the site's pages find the same block.
    package var id: Int
    package var role: CodeBlockRole
    /// The first word of the info string (`swift`, `output`, `text` ...), empty when none.
    package var language: String
    package var attributes: [String]
    /// The content with LF line ends, final newline included (as in the file).
    package var code: String
    /// The line of the opening fence.
    package var line: Int
    package var fence: Fence?
    /// How many bytes of each content line's source line come before the code itself (a fence
    /// indent, a quote marker): added to a column inside the code to find it in the file.
    package var columnOffsets: [Int]
    /// The list item or quote that holds it, by its place among the lesson's containers; nil
    /// at the top level. A scenario's `output` block stands in the same one.
    package var container: Int?

    package init(id: Int, role: CodeBlockRole, language: String, attributes: [String], code: String,
                 line: Int, fence: Fence?, columnOffsets: [Int], container: Int? = nil) {
        self.id = id
        self.role = role
        self.language = language
        self.attributes = attributes
        self.code = code
        self.line = line
        self.fence = fence
        self.columnOffsets = columnOffsets
        self.container = container
    }

    /// The line of the first line of code.
    package var firstCodeLine: Int { fence == nil ? line : line + 1 }

    /// The name in its `group=NAME` attribute, when it has one that names something.
    package var group: String? {
        guard let attribute = attributes.last(where: { $0.hasPrefix(Scenario.groupAttributePrefix) }) else { return nil }
        let name = String(attribute.dropFirst(Scenario.groupAttributePrefix.count))
        return name.isEmpty ? nil : name
    }

    /// What a reader sees of its code: for a scenario or a module block, without its hidden lines.
    package var shownCode: String {
        switch role {
        case .scenario, .skippedScenario, .moduleListing: HiddenLines.visible(code)
        default: code
        }
    }
    /// How many lines of code the block holds.
    package var codeLineCount: Int { columnOffsets.count }

    /// The lesson line and column of a 1-based line and column inside the code.
    package func lessonPosition(codeLine: Int, codeColumn: Int) -> (line: Int, column: Int) {
        let offset = codeLine >= 1 && codeLine <= columnOffsets.count ? columnOffsets[codeLine - 1] : 0
        return (firstCodeLine + codeLine - 1, codeColumn + offset)
    }
}

/// A scenario: a `main.swift` compiled with the core files, and what its lesson says it must
/// do (print an output, be refused by the compiler, trap).
package struct Scenario: Sendable, Equatable {
    package var block: CodeBlock
    package var isSkipped: Bool
    /// The blocks after it that say what it must do; empty when there is none (an error unless
    /// skipped).
    package var expectation: Expectation
    /// Its `language-mode=N` attribute; nil when it takes the course's.
    package var languageMode: LanguageMode?

    package init(block: CodeBlock, isSkipped: Bool, expectation: Expectation = Expectation(),
                 languageMode: LanguageMode? = nil) {
        self.block = block
        self.isSkipped = isSkipped
        self.expectation = expectation
        self.languageMode = languageMode
    }

    /// Its `output` block, when it has one.
    package var expected: CodeBlock? { expectation.output }

    /// `group=shop`: the attribute that makes a block part of one program with the lesson's
    /// other blocks of the same name (listings.md, section 4).
    package static let groupAttributePrefix = "group="

    /// The name of its group; nil for a program of its own.
    package var group: String? { block.group }

    /// Its code as the compiler gets it: hidden lines (`# `) without their mark.
    package var compiledCode: String { HiddenLines.compiled(block.code) }
    /// The bytes before the compiled code on each of its lesson lines.
    package var compiledColumnOffsets: [Int] { HiddenLines.compiledColumnOffsets(block.code, block.columnOffsets) }

    package var code: String { block.code }
    package var line: Int { block.line }

    /// The block's `no-diagram` attribute turns its change diagrams off.
    package static let noDiagramAttribute = "no-diagram"
    /// Whether the author lets the site draw this scenario's change diagrams.
    package var drawsDiagrams: Bool { !block.attributes.contains(Self.noDiagramAttribute) }

    /// The text after `// main.swift — ` on the scenario's first line, when it has one.
    package var caption: String? {
        // The first line only: splitting the whole code into lines to take the first took a
        // tenth of an unchanged build.
        let code = block.shownCode
        let first = code[..<(code.firstIndex(of: "\n") ?? code.endIndex)]
        guard first.hasPrefix("//") else { return nil }
        var text = first.dropFirst(2).drop { $0 == " " }
        if text.hasPrefix("main.swift") {
            text = text.dropFirst("main.swift".count).drop { $0 == " " }
            for dash in ["—", "–", "-", ":"] where text.hasPrefix(dash) {
                text = text.dropFirst(dash.count).drop { $0 == " " }
                break
            }
        }
        let caption = text.trimmingTrailingSpaces
        return caption.isEmpty ? nil : caption
    }
}

extension Substring {
    var trimmingTrailingSpaces: String {
        var text = self
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
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
