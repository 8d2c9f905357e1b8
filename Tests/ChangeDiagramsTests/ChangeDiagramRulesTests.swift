@testable import ChangeDiagrams
import CourseModel
import Foundation
import TestSupport
import Testing

/// Which diagrams a scenario gets, and what the check says when it gets none.
struct ChangeDiagramRulesTests {
    static let counter = CounterTree.tree
    static let output = CounterTree.output

    /// A lesson whose scenario starts at line 3 (its code at line 4).
    static let lessonText = """
        # Lesson

        ```swift scenario
        // main.swift — a counter
        let tree = ViewTree(nodes: [])
        print("the code does not matter here")
        ```

        ```output
        x
        ```

        """

    func diagrams(_ trees: ScenarioTrees, output: String = output) -> (diagrams: [ChangeDiagram], findings: [Diagnostic]) {
        let (lesson, _) = lesson(Self.lessonText)
        return ChangeDiagramRules.diagrams(for: lesson.scenarios[0], output: output, trees: trees, in: lesson)
    }

    @Test func oneDiagramPerChangeLineInOutputOrder() {
        let found = diagrams(ScenarioTrees(written: [Self.counter]))
        #expect(found.findings.isEmpty)
        #expect(found.diagrams.map(\.change.label) == ["arttir", "tema"])
        #expect(found.diagrams.map(\.change.outputLine) == [1, 3])
        #expect(found.diagrams.allSatisfy { $0.tree == Self.counter })
    }

    @Test func anOutputWithoutChangeLinesHasNoDiagramsAndNothingToSay() {
        let found = diagrams(ScenarioTrees(unwritten: [UnwrittenTree(line: 2, reason: "r")]), output: "yerel: 0\n")
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.isEmpty)
    }

    /// Each line finds the tree it was measured on by the views it names.
    @Test func eachLineFindsItsTreeByItsViews() {
        let other = WrittenTree(binding: "other", line: 9, views: [
            WrittenView("Root", parent: nil, reads: ["count"]),
            WrittenView("Leaf", parent: "Root", reads: []),
        ], storage: [("count", .state(owner: "Root"))])
        let output = Self.output + "x: count degisti | yeniden Root yerel | atlanan Leaf\n"
        let found = diagrams(ScenarioTrees(written: [Self.counter, other]), output: output)
        #expect(found.findings.isEmpty)
        #expect(found.diagrams.map(\.tree.binding) == ["tree", "tree", "other"])
    }

    /// Two trees of the same views are told apart by what the views read.
    @Test func treesOfTheSameViewsAreToldApartByTheirReads() {
        var moved = Self.counter
        moved.binding = "moved"
        moved.views[3] = WrittenView("Footer", parent: "Counter", reads: ["count"])
        let found = diagrams(ScenarioTrees(written: [moved, Self.counter]))
        #expect(found.findings.isEmpty)
        #expect(found.diagrams.map(\.tree.binding) == ["tree", "tree"])
    }

    /// Trees of different shapes that the line fits equally well: no guess, a note.
    @Test func treesThatCannotBeToldApartGiveANote() {
        var moved = Self.counter
        moved.views[3] = WrittenView("Footer", parent: "Counter", reads: ["theme"])
        moved.line = 12
        let found = diagrams(ScenarioTrees(written: [Self.counter, moved]))
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.map(\.severity) == [.note])
        #expect(found.findings.first?.summary == "no change diagrams for this scenario: line 1 of its output fits 2 view trees of different shapes; write its views and storage out as literals, or add 'no-diagram' to the block")
        #expect(found.findings.first?.location == SourceLocation(file: "lessons/01-test.md", line: 3, column: 1))
        #expect(found.findings.first?.notes == [.init("the view tree is here", at: SourceLocation(file: "lessons/01-test.md", line: 5, column: 1))])
    }

    /// A tree built when the scenario runs: no diagram, a note with the reason at the scenario.
    @Test func aTreeBuiltWhenItRunsGivesANoteNotAPicture() {
        let found = diagrams(ScenarioTrees(written: [], unwritten: [UnwrittenTree(line: 2, reason: "its nodes are not an array literal")]))
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.count == 1)
        let note = found.findings[0]
        #expect(note.severity == .note)
        #expect(note.id == .diagramTreeUnwritten)
        #expect(note.summary == "no change diagrams for this scenario: its view tree is built when it runs (its nodes are not an array literal); write its views and storage out as literals, or add 'no-diagram' to the block")
        #expect(note.location == SourceLocation(file: "lessons/01-test.md", line: 3, column: 1))
        #expect(note.notes == [.init("the view tree is here", at: SourceLocation(file: "lessons/01-test.md", line: 5, column: 1))])
    }

    /// All or nothing: one line without its tree takes the scenario's other diagrams too.
    @Test func oneUnansweredLineTakesEveryDiagramOfTheScenario() {
        let output = Self.output + "x: k degisti | yeniden Made yerel | atlanan yok\n"
        let found = diagrams(ScenarioTrees(written: [Self.counter], unwritten: [UnwrittenTree(line: 7, reason: "r")]), output: output)
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.map(\.id) == [.diagramTreeUnwritten])
    }

    /// A tree built when it runs may be the one a line was measured on, even when a written
    /// tree has the same views (its storage or shape may differ): no diagram at all.
    @Test func aTreeBuiltWhenItRunsTakesEveryDiagramEvenWithAWrittenTwin() {
        let found = diagrams(ScenarioTrees(written: [Self.counter], unwritten: [UnwrittenTree(line: 7, reason: "its nodes are not an array literal")]))
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.map(\.id) == [.diagramTreeUnwritten])
        #expect(found.findings.first?.notes.first?.location?.line == 4 + 7 - 1)
    }

    @Test func aScenarioWithoutATreeGivesANote() {
        let found = diagrams(.none)
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.map(\.summary) == ["no change diagrams for this scenario: it writes out no ViewTree(nodes:storage:) of its own; write its views and storage out as literals, or add 'no-diagram' to the block"])
        #expect(found.findings.first?.notes == [])
    }

    @Test func aTreeThatIsNotATreeGivesANote() {
        let loop = WrittenTree(binding: nil, line: 2, views: [
            WrittenView("A", parent: "B", reads: ["k"]), WrittenView("B", parent: "A", reads: []),
        ], storage: [])
        let found = diagrams(ScenarioTrees(written: [loop]), output: "x: k degisti | yeniden A olcum-disi | atlanan B\n")
        #expect(found.findings.map(\.summary) == ["no change diagrams for this scenario: its view tree is not a tree (the parents of 'A' lead back to it); write its views and storage out as literals, or add 'no-diagram' to the block"])
        let twice = WrittenTree(binding: nil, line: 2, views: [
            WrittenView("A", parent: nil, reads: []), WrittenView("A", parent: "A", reads: []),
        ], storage: [])
        #expect(diagrams(ScenarioTrees(written: [twice]), output: "x: k degisti | yeniden yok | atlanan A,A\n").findings.map(\.summary)
            == ["no change diagrams for this scenario: its view tree is not a tree (two views are named 'A'); write its views and storage out as literals, or add 'no-diagram' to the block"])
    }

    /// What is worked out once per scenario (each tree's names, shape, whether it can be
    /// drawn) stays with its own tree: a line of the second tree draws the second, and a
    /// line of the first, which is no tree, gets the note.
    @Test func eachTreeKeepsWhatIsKnownOfIt() {
        let loop = WrittenTree(binding: "loop", line: 2, views: [
            WrittenView("A", parent: "B", reads: ["k"]), WrittenView("B", parent: "A", reads: []),
        ], storage: [])
        let found = diagrams(ScenarioTrees(written: [loop, Self.counter]))
        #expect(found.findings.isEmpty)
        #expect(found.diagrams.map(\.tree) == [Self.counter, Self.counter])
        let both = diagrams(ScenarioTrees(written: [loop, Self.counter]),
                            output: Self.output + "x: k degisti | yeniden A olcum-disi | atlanan B\n")
        #expect(both.diagrams.isEmpty)
        #expect(both.findings.map(\.summary) == ["no change diagrams for this scenario: its view tree is not a tree (the parents of 'A' lead back to it); write its views and storage out as literals, or add 'no-diagram' to the block"])
    }

    /// Every tree is written out, and the output names a view none of them has: the picture
    /// would be wrong, so it is an error at the scenario's line.
    @Test func aViewTheTreeDoesNotHaveIsAnError() {
        let output = "arttir: count degisti | yeniden Counter yerel, Ghost ebeveyn | atlanan App,Label,Footer\n"
        let found = diagrams(ScenarioTrees(written: [Self.counter]), output: output)
        #expect(found.diagrams.isEmpty)
        #expect(found.findings.count == 1)
        let error = found.findings[0]
        #expect(error.severity == .error)
        #expect(error.id == .diagramTreeDisagrees)
        #expect(error.summary == "the output and the view tree disagree: output line 1 (`arttir: count`) names 'Ghost', which is not in the scenario's view tree")
        #expect(error.location == SourceLocation(file: "lessons/01-test.md", line: 3, column: 1))
        #expect(error.notes == [.init("the view tree is here", at: SourceLocation(file: "lessons/01-test.md", line: 5, column: 1))])

        let missing = diagrams(ScenarioTrees(written: [Self.counter]),
                               output: "arttir: count degisti | yeniden Counter yerel | atlanan App,Footer\n")
        #expect(missing.findings.map(\.summary) == ["the output and the view tree disagree: output line 1 (`arttir: count`) leaves out 'Label' of the scenario's view tree"])
    }
}
