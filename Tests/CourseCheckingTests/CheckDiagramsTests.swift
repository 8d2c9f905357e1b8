@testable import CourseChecking
import CourseModel
import Foundation
import TestSupport
import Testing

/// The change diagrams through the whole check (ChangeDiagramsTests holds the rules themselves).
struct CheckDiagramsTests {
    static let counter = CounterTree.tree
    static let output = CounterTree.output

    /// Through the whole check: a passed scenario carries its diagrams; the block's attribute
    /// and the course's setting turn them off, error and all.
    @Test func theCheckCarriesDiagramsAndHonoursBothSwitches() {
        let scenario = "let tree = ViewTree(nodes: [])\n"
        let text = """
            # Lesson

            ## Measured

            ```swift scenario
            \(scenario)```

            ```output
            \(Self.output)```

            ```swift scenario no-diagram
            \(scenario)```

            ```output
            \(Self.output)```

            DR1. Limit.

            """
        var (course, loadFindings) = course([text])
        #expect(loadFindings.isEmpty)
        var facts = CourseFacts(course)
        for scenario in course.lessons[0].scenarios {
            facts[0, scenario.block.id] = SwiftBlockFacts(findings: [], shape: ScenarioShape(needsOwnProgram: false, hasMainAttribute: false),
                                                          highlighted: nil, trees: ScenarioTrees(written: [Self.counter]))
        }
        let runner = TableRunner(outcomes: [scenario: .completed(output: Self.output, standardError: "", fromCache: false)])
        let report = CourseCheck.run(course, loadDiagnostics: [], options: CheckOptions(), runner: runner, facts: facts)
        #expect(report.succeeded)
        #expect(report.results.map(\.diagrams.count) == [2, 0])

        course.config.diagrams = .off
        let off = CourseCheck.run(course, loadDiagnostics: [], options: CheckOptions(), runner: runner, facts: facts)
        #expect(off.results.map(\.diagrams.count) == [0, 0])

        // A note never fails a check, not even a strict one.
        for scenario in course.lessons[0].scenarios {
            facts[0, scenario.block.id]?.trees = ScenarioTrees(unwritten: [UnwrittenTree(line: 1, reason: "r")])
        }
        course.config.diagrams = .on
        let noted = CourseCheck.run(course, loadDiagnostics: [], options: CheckOptions(strict: true), runner: runner, facts: facts)
        #expect(noted.succeeded)
        #expect(noted.diagnostics.map(\.severity) == [.note])
        #expect(noted.noteCount == 1)
    }
}
