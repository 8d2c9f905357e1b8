import CourseFiles
import CourseModel

/// The change diagrams of a checked course, drawn once and kept: each scenario's diagrams are
/// stored as HTML in the content-addressed store beside the scenario results and the Swift
/// blocks' readings, keyed by everything the drawing depends on (the trees, the changes, the
/// words, the tool's version), so that a build with nothing changed draws nothing.
package struct DiagramDrawer: Sendable {
    private var store: ContentStore?
    private var toolVersion: String
    private var onDraw: (@Sendable () -> Void)?

    /// `storeFolder` keeps what was drawn between runs (nil: nothing is kept). `onDraw` is
    /// called for every scenario drawn anew (tests count them).
    package init(storeFolder: String?, toolVersion: String, onDraw: (@Sendable () -> Void)? = nil) {
        store = storeFolder.map { ContentStore(folder: $0) }
        self.toolVersion = toolVersion
        self.onDraw = onDraw
    }

    static let suffix = "svg"
    /// Bump when a drawing, or what it depends on, changes.
    static let formatVersion = "1"

    /// Stored drawings that were found and not believed (see `ContentStore`).
    package var refusedEntries: Int { store?.refusals ?? 0 }

    /// The diagrams of every scenario that has some, by lesson and code block.
    package func draw(_ report: CheckReport, words: DiagramWords, lessons: Int) -> DrawnDiagrams {
        let wanted = report.results.filter { !$0.diagrams.isEmpty }
        let answers = wanted.concurrentMap { result -> (html: String, key: String, drawn: Bool) in
            let key = self.key(result.diagrams, words: words)
            if let stored = store?.read(key, suffix: Self.suffix) { return (String(decoding: stored, as: UTF8.self), key, false) }
            onDraw?()
            return (ChangeDiagramDrawing.html(result.diagrams, words: words), key, true)
        }
        store?.write(answers.filter(\.drawn).map { ($0.key, Array($0.html.utf8)) }, suffix: Self.suffix)
        var drawn = DrawnDiagrams(lessons: lessons)
        for (result, answer) in zip(wanted, answers) { drawn.byLesson[result.lessonIndex][result.scenario.block.id] = answer.html }
        return drawn
    }

    func key(_ diagrams: [ChangeDiagram], words: DiagramWords) -> String {
        var hash = SHA256()
        for part in ["coursebook-diagram", Self.formatVersion, toolVersion, words.canonicalText] {
            hash.update(part)
            hash.update([0])
        }
        for diagram in diagrams {
            hash.update(diagram.canonicalText)
            hash.update([0])
        }
        return hash.finalize()
    }
}

/// Each scenario's diagrams as HTML, by lesson and by the identity of its code block.
package struct DrawnDiagrams: Sendable {
    var byLesson: [[Int: String]]

    package init(lessons: Int) {
        byLesson = Array(repeating: [:], count: lessons)
    }

    /// The diagrams under a scenario; empty when it has none.
    func html(lesson: Int, block: Int) -> String {
        lesson < byLesson.count ? byLesson[lesson][block] ?? "" : ""
    }
}
