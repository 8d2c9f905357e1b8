@testable import CourseChecking
import CourseModel
import Foundation
import TestSupport
import Testing

/// A check of some lessons, or of a shard: the course is judged whole, the report keeps what
/// is the scope's own.
struct CheckScopeTests {
    static let lessons = [
        """
        # One

        ## Measured

        ```swift scenario
        print(1)
        ```

        ```output
        1
        ```

        DR1. Limit.
        """,
        """
        # Two

        ## Measured

        ```swift scenario
        print(2)
        ```

        ```output
        two
        ```

        DR3. A gap.

        ```swift scenario skip
        print(3)
        ```
        """,
    ]

    /// The check with the given scenarios run (by code), as the pipeline would hand them in.
    func check(_ scope: CheckScope, running codes: Set<String>) -> CheckReport {
        let (course, found) = TestSupport.course(Self.lessons)
        var outcomes: [ScenarioPlace: ScenarioOutcome] = [:]
        for (place, source) in CourseCheck.scenariosToRun(course) {
            let code = source.code.trimmingCharacters(in: .newlines)
            guard codes.contains(code) else { continue }
            outcomes[place] = .completed(output: code == "print(1)" ? "1\n" : "2\n", standardError: "", fromCache: false)
        }
        let run = RunReport(outcomes: Array(outcomes.values), compiledCount: outcomes.count, cachedCount: 0,
                            compilerRuns: 1, diagnostics: [])
        return CourseCheck.report(course, findings: found, facts: CourseFacts(course), outcomes: outcomes, run: run,
                                  compilerVersion: "Swift version 0.0", options: CheckOptions(), scope: scope,
                                  durations: [ScenarioPlace(lesson: 1, scenario: 0): .milliseconds(12)])
    }

    @Test func theWholeCourse() {
        let report = check(.wholeCourse, running: ["print(1)", "print(2)"])
        #expect(report.diagnostics.ids == ["output-mismatch", "limit-note-gap"])
        #expect(report.results.map(\.status) == [.passed, .failed, .skipped])
        #expect(report.results[1].findings.ids == ["output-mismatch"])
        #expect(report.results[1].duration == .milliseconds(12))
        #expect(report.results[0].duration == nil)
    }

    /// Lesson two alone: its gap is found from lesson one's text, its scenario runs.
    @Test func aLessonIsJudgedInItsCourse() {
        let two = check(CheckScope(lessons: [1], lessonPaths: ["lessons/02-lesson.md"]), running: ["print(2)"])
        #expect(two.diagnostics.map { $0.location?.file } == ["lessons/02-lesson.md", "lessons/02-lesson.md"])
        #expect(two.diagnostics.ids == ["output-mismatch", "limit-note-gap"])
        #expect(two.results.map(\.lessonIndex) == [1, 1])

        // Lesson one alone: nothing of lesson two, whose gap is lesson two's to report.
        let one = check(CheckScope(lessons: [0], lessonPaths: ["lessons/01-lesson.md"]), running: ["print(1)"])
        #expect(one.diagnostics.isEmpty)
        #expect(one.results.map(\.status) == [.passed])
        #expect(one.succeeded)
    }

    /// The first shard reports the course's rules and the skipped scenarios; another shard
    /// only what its own scenarios did.
    @Test func onlyTheFirstShardJudgesTheCourse() {
        let first = check(CheckScope(shard: Shard(index: 1, count: 2)), running: ["print(1)"])
        #expect(first.diagnostics.ids == ["limit-note-gap"])
        #expect(first.results.map(\.status) == [.passed, .skipped])
        let second = check(CheckScope(shard: Shard(index: 2, count: 2)), running: ["print(2)"])
        #expect(second.diagnostics.ids == ["output-mismatch"])
        #expect(second.results.map(\.status) == [.failed])
    }
}

struct ShardPlanTests {
    /// The costliest scenarios are spread first, each to the least loaded shard: the shards
    /// end within one scenario's cost of each other, and every scenario is in exactly one.
    @Test func sharesAreBalancedAndWhole() {
        let costs = [30, 1, 1, 45, 2, 1, 30, 1, 3, 31, 1, 1]
        for count in 1...5 {
            let assignment = ShardPlan.assign(costs: costs, shards: count)
            #expect(assignment.count == costs.count)
            #expect(assignment.allSatisfy { (0..<count).contains($0) })
            var load = [Int](repeating: 0, count: count)
            for (index, shard) in assignment.enumerated() { load[shard] += costs[index] }
            #expect(load.max()! - load.min()! <= costs.max()!, "\(count): \(load)")
            #expect(ShardPlan.assign(costs: costs, shards: count) == assignment)
        }
        // 45, 31 and 30 open the three shards; the second 30 joins the lightest (30), and the
        // small ones then fill the lightest of 45, 31 and 60.
        #expect(ShardPlan.assign(costs: costs, shards: 3) == [2, 1, 1, 0, 1, 1, 2, 1, 1, 1, 1, 1])
    }

    /// A scenario compiled alone costs a compile of its own; a batched one a share of one.
    @Test func aProgramOfItsOwnCostsMore() {
        #expect(ShardPlan.cost(ScenarioShape(needsOwnProgram: true, hasMainAttribute: false), lines: 5) == 30)
        #expect(ShardPlan.cost(ScenarioShape(needsOwnProgram: false, hasMainAttribute: false), lines: 5) == 1)
        #expect(ShardPlan.cost(ScenarioShape(needsOwnProgram: false, hasMainAttribute: false), lines: 60) == 4)
    }

    @Test(arguments: ["1/1", "2/4", "4/4", "1000/1000"])
    func shardsReadBack(text: String) {
        #expect(Shard(text)?.description == text)
    }

    @Test(arguments: ["0/1", "2/1", "1/0", "1", "a/2", "1/2/3", "", "/", "1/1001", "+1/2", " 1/2"])
    func notShards(text: String) {
        #expect(Shard(text) == nil)
    }
}
