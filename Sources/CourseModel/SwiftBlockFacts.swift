/// What the toolchain's Swift parser learned from one Swift block of a lesson: whether it is
/// valid Swift, the shape of a scenario, and the code as highlighted HTML. Learned once per
/// block text and kept in the content-addressed cache, so an unchanged block is never parsed
/// again (see SwiftReading).
package struct SwiftBlockFacts: Sendable, Equatable {
    /// What the parser could not read, at most a few per block (illustrations are checked).
    package var findings: [SyntaxFinding]
    /// Whether the block, as a scenario, needs a program of its own.
    package var shape: ScenarioShape
    /// The code as HTML with a `<span class="tok-...">` around each classified token; nil when
    /// the block was read for a check only and has not been highlighted yet.
    package var highlighted: String?
    /// The view trees the block builds, as written (what a change diagram is drawn from).
    package var trees: ScenarioTrees
    /// Why the parser was not given the block, or gave no answer for it (nil when it read it):
    /// too deep a nesting, or a reading that took too long or crashed. Such a block is a
    /// program of its own, shown without highlighting.
    package var unread: SyntaxFinding?

    package init(findings: [SyntaxFinding], shape: ScenarioShape, highlighted: String?, trees: ScenarioTrees = .none,
                 unread: SyntaxFinding? = nil) {
        self.findings = findings
        self.shape = shape
        self.highlighted = highlighted
        self.trees = trees
        self.unread = unread
    }
}

/// A place in a Swift block that does not parse, with the parser's message. Lines and columns
/// count from 1 inside the block's code (columns in UTF-8 bytes).
package struct SyntaxFinding: Sendable, Equatable {
    package var line: Int
    package var column: Int
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// What the Swift parser learned of a course's Swift blocks, found by lesson and block identity
/// (`CodeBlock.id`): the check reads the findings, the site the highlighted HTML.
package struct CourseFacts: Sendable {
    private var byLesson: [[SwiftBlockFacts?]]

    /// No facts yet, room for every code block of every lesson.
    package init(_ course: Course) {
        byLesson = course.lessons.map { [SwiftBlockFacts?](repeating: nil, count: $0.codeBlocks.count) }
    }

    package subscript(lesson: Int, block: Int) -> SwiftBlockFacts? {
        get { byLesson[lesson][block] }
        set { byLesson[lesson][block] = newValue }
    }

    /// Every lesson's facts, by block identity, taken out: these facts are empty afterwards,
    /// so that a lesson's can be let go once used (the site's highlighted code).
    package mutating func takeLessons() -> [[SwiftBlockFacts?]] {
        defer { byLesson = [] }
        return byLesson
    }
}
