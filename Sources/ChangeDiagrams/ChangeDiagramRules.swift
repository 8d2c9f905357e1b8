import CourseModel

/// Which change diagrams a scenario gets: one per change line of its verified output, each
/// with the tree it was measured on, as the scenario writes it out. Pure: the trees come from
/// the Swift parser, the lines from the run.
///
/// A line is matched to its tree by the views it names: a change line names every view of the
/// tree once (recomputed or skipped), so the tree whose views are exactly those is the one.
/// Trees with the same views are told apart by what each view reads; trees that still differ
/// in shape leave the line unanswered. A scenario gets all its diagrams or none:
/// - none, with a note, when the scenario builds a tree when it runs (that tree could be the
///   one a line was measured on), or a line has no tree that can be drawn (no tree in the
///   scenario, trees it cannot tell apart, a tree that is not a tree): never a guessed picture;
/// - none, with an error at the scenario's line, when every tree is written out and a line
///   names views that none of them has: the output and the tree disagree.
package enum ChangeDiagramRules {
    package static func diagrams(for scenario: Scenario, output: String, trees: ScenarioTrees,
                         in lesson: Lesson) -> (diagrams: [ChangeDiagram], findings: [Diagnostic]) {
        let changes = MeasuredChange.all(in: output)
        guard !changes.isEmpty else { return ([], []) }
        // A tree built when the scenario runs could be the one a line was measured on, even
        // when a written tree has the same views: its storage or shape may differ.
        if let unwritten = trees.unwritten.first {
            return ([], [unwrittenNote(scenario, reason: "its view tree is built when it runs (\(unwritten.reason))",
                                       codeLine: unwritten.line, in: lesson)])
        }
        var diagrams: [ChangeDiagram] = []
        var disagreements: [Diagnostic] = []
        var unanswered: Diagnostic?
        let known = KnownTrees(trees)
        let sections = ChangeDiagram.sections(in: output)
        for change in changes {
            switch tree(for: change, among: known) {
            case .found(let tree):
                // The section the line stands in names the group its picture is drawn in.
                let section = sections.last { $0.line < change.outputLine }?.title
                diagrams.append(ChangeDiagram(tree: tree, change: change, section: section))
            case .unwritten(let reason, let line):
                unanswered = unanswered ?? unwrittenNote(scenario, reason: reason, codeLine: line, in: lesson)
            case .disagrees(let message, let line):
                disagreements.append(.error(
                    .diagramTreeDisagrees,
                    "the output and the view tree disagree: output line \(change.outputLine) \(message)",
                    at: lesson.location(line: scenario.line),
                    notes: line.map { [.init("the view tree is here", at: codeLocation(scenario, line: $0, in: lesson))] } ?? []))
            }
        }
        if !disagreements.isEmpty { return ([], disagreements) }
        if let unanswered { return ([], [unanswered]) }
        return (diagrams, [])
    }

    enum Match: Equatable {
        case found(WrittenTree)
        /// No diagram can be drawn for the line: why, and the code line of the tree at fault.
        case unwritten(reason: String, line: Int?)
        /// The output names views that no written tree of the scenario has.
        case disagrees(String, line: Int?)
    }

    /// What `tree(for:among:)` asks of a scenario's written trees, worked out once for all its
    /// change lines: each tree's view names in order, its shape, and why it cannot be drawn.
    struct KnownTrees {
        var trees: ScenarioTrees
        var sortedNames: [[String]]
        var shapes: [String]
        var undrawableReasons: [String?]

        init(_ trees: ScenarioTrees) {
            self.trees = trees
            sortedNames = trees.written.map { $0.views.map(\.name).sorted() }
            shapes = trees.written.map { $0.views.map { "\($0.name)\u{0}\($0.parent ?? "\u{1}")" }.joined(separator: "\n") }
            undrawableReasons = trees.written.map(\.undrawableReason)
        }
    }

    static func tree(for change: MeasuredChange, among trees: ScenarioTrees) -> Match {
        tree(for: change, among: KnownTrees(trees))
    }

    static func tree(for change: MeasuredChange, among known: KnownTrees) -> Match {
        let trees = known.trees
        let named = change.views.sorted()
        let candidates = trees.written.indices.filter { known.sortedNames[$0] == named }
        guard !candidates.isEmpty else {
            guard let closest = trees.written.max(by: { overlap($0, change) < overlap($1, change) }) else {
                return .unwritten(reason: "it writes out no ViewTree(nodes:storage:) of its own", line: nil)
            }
            let names = Set(closest.views.map(\.name))
            let unknown = uniqued(change.views.filter { !names.contains($0) })
            let unnamed = closest.views.map(\.name).filter { !change.views.contains($0) }
            var parts: [String] = []
            if !unknown.isEmpty {
                parts.append("names \(listed(unknown)), which \(unknown.count == 1 ? "is" : "are") not in the scenario's view tree")
            }
            if !unnamed.isEmpty { parts.append("\(unknown.isEmpty ? "leaves out" : "and leaves out") \(listed(unnamed)) of the scenario's view tree") }
            if unknown.isEmpty, unnamed.isEmpty { parts.append("names a view more often than the scenario's view tree has it") }
            return .disagrees("(`\(change.label): \(change.key)`) " + parts.joined(separator: " "), line: closest.line)
        }
        // Among trees of the same views, the ones on which the line's answer follows from the
        // reads; when none does (a core with another rule), any of them.
        let agreeing = candidates.filter { agrees(trees.written[$0], change) }
        let chosen = agreeing.isEmpty ? candidates : agreeing
        let shapes = Set(chosen.map { known.shapes[$0] })
        guard shapes.count == 1 else {
            return .unwritten(reason: "line \(change.outputLine) of its output fits \(chosen.count) view trees of different shapes",
                              line: trees.written[chosen[0]].line)
        }
        let tree = trees.written[chosen[0]]
        if let reason = known.undrawableReasons[chosen[0]] {
            return .unwritten(reason: "its view tree is not a tree (\(reason))", line: tree.line)
        }
        return .found(tree)
    }

    /// Whether the views the line recomputed are those that read the key.
    private static func agrees(_ tree: WrittenTree, _ change: MeasuredChange) -> Bool {
        tree.views.filter { $0.reads.contains(change.key) }.map(\.name) == change.recomputed.map(\.view)
    }

    private static func overlap(_ tree: WrittenTree, _ change: MeasuredChange) -> Int {
        Set(tree.views.map(\.name)).intersection(change.views).count
    }

    private static func uniqued(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    private static func listed(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }

    private static func unwrittenNote(_ scenario: Scenario, reason: String, codeLine: Int?, in lesson: Lesson) -> Diagnostic {
        .note(.diagramTreeUnwritten,
              "no change diagrams for this scenario: \(reason); write its views and storage out as literals, or add '\(Scenario.noDiagramAttribute)' to the block",
              at: lesson.location(line: scenario.line),
              notes: codeLine.map { [.init("the view tree is here", at: codeLocation(scenario, line: $0, in: lesson))] } ?? [])
    }

    private static func codeLocation(_ scenario: Scenario, line: Int, in lesson: Lesson) -> SourceLocation {
        let place = scenario.block.lessonPosition(codeLine: line, codeColumn: 1)
        return lesson.location(line: place.line)
    }
}
