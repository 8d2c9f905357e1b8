import ChangeDiagrams
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
    static let formatVersion = "2"

    /// Stored drawings that were found and not believed (see `ContentStore`).
    package var refusedEntries: Int { store?.refusals ?? 0 }

    /// The diagrams of every scenario that has some, drawn lesson by lesson when the pages ask
    /// for them (`DrawnDiagrams.lesson(_:)`): the drawings of a large course are never all held
    /// at once.
    package func diagrams(of report: CheckReport, words: DiagramWords, lessons: Int) -> DrawnDiagrams {
        var wanted = Array(repeating: [ScenarioResult](), count: lessons)
        for result in report.results where !result.diagrams.isEmpty && result.lessonIndex < lessons {
            wanted[result.lessonIndex].append(result)
        }
        return DrawnDiagrams(drawer: self, words: words, wanted: wanted)
    }

    /// The diagrams of `results` by code block: read from the store, or drawn and stored.
    func draw(_ results: [ScenarioResult], words: DiagramWords) -> [Int: String] {
        var drawn: [Int: String] = [:]
        var fresh: [(key: String, payload: [UInt8])] = []
        for result in results {
            let key = self.key(result.diagrams, words: words)
            if let stored = store?.read(key, suffix: Self.suffix) {
                drawn[result.scenario.block.id] = String(decoding: stored, as: UTF8.self)
                continue
            }
            onDraw?()
            let html = ChangeDiagramDrawing.html(result.diagrams, words: words)
            drawn[result.scenario.block.id] = html
            fresh.append((key, Array(html.utf8)))
        }
        store?.write(fresh, suffix: Self.suffix)
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

/// Each scenario's diagrams as HTML, by lesson and by the identity of its code block, drawn (or
/// read from the store) when a lesson's are asked for.
package struct DrawnDiagrams: Sendable {
    let drawer: DiagramDrawer
    let words: DiagramWords
    /// The results with diagrams, by lesson.
    let wanted: [[ScenarioResult]]

    /// Stored drawings that were found and not believed, so far.
    package var refusedEntries: Int { drawer.refusedEntries }

    /// Lesson `index`'s diagrams by code block; empty for a lesson that has none.
    func lesson(_ index: Int) -> [Int: String] {
        index < wanted.count && !wanted[index].isEmpty ? drawer.draw(wanted[index], words: words) : [:]
    }
}
