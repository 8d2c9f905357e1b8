import Foundation

/// A scenario and what became of it.
package struct ScenarioResult: Sendable {
    package enum Status: Sendable, Equatable { case passed, failed, skipped }

    package var lessonIndex: Int
    package var scenario: Scenario
    package var status: Status
    /// nil for a skipped scenario.
    package var outcome: ScenarioOutcome?
    /// The findings that are this scenario's own (its diff, its compiler errors, its crash):
    /// also among the report's diagnostics; reports attach them to the scenario.
    package var findings: [Diagnostic]
    /// How long its program ran (its share of a compile is not counted); nil when it did not
    /// run here (from the cache, skipped, not compiled).
    package var duration: Duration?
    /// One diagram per change line of its verified output, in output order; empty when it
    /// printed none, its tree is not written out, or diagrams are turned off.
    package var diagrams: [ChangeDiagram]

    package init(lessonIndex: Int, scenario: Scenario, status: Status, outcome: ScenarioOutcome?,
                 findings: [Diagnostic] = [], duration: Duration? = nil, diagrams: [ChangeDiagram] = []) {
        self.lessonIndex = lessonIndex
        self.scenario = scenario
        self.status = status
        self.outcome = outcome
        self.findings = findings
        self.duration = duration
        self.diagrams = diagrams
    }

    /// Whether its outcome came from the cache instead of a run.
    package var fromCache: Bool {
        switch outcome {
        case .completed(_, _, true)?, .crashed(_, _, _, true)?, .typeChecked(_, true)?, .compileFailed(_, true)?: return true
        default: return false
        }
    }

    /// The output the page shows under the scenario: what it printed when it passed (for a
    /// trap, before it trapped).
    package var verifiedOutput: String? {
        guard status == .passed else { return nil }
        switch outcome {
        case let .completed(output, _, _)?: return output
        case let .crashed(termination, output, _, _)? where TrapMessage.isTrap(termination): return output
        default: return nil
        }
    }

    /// The runtime's message of a trap scenario that passed (empty for a trap without one).
    package var verifiedTrap: String? {
        guard status == .passed, scenario.expectation.kind == .trap,
              case let .crashed(termination, _, standardError, _)? = outcome, TrapMessage.isTrap(termination) else { return nil }
        return TrapMessage.of(standardError: standardError)
    }

    /// The compiler's errors of an `errors` scenario that passed: what its lesson said.
    package var verifiedErrors: [CompilerError]? {
        guard status == .passed, case let .typeChecked(check, _)? = outcome else { return nil }
        return check.errors
    }
}

/// A block that `--update` rewrote or inserted.
package struct BlockUpdate: Sendable, Equatable {
    package var location: SourceLocation
    package var summary: String

    package init(location: SourceLocation, summary: String) {
        self.location = location
        self.summary = summary
    }
}

/// What `--update` makes of one lesson file: its new bytes, and the blocks that changed.
package struct LessonRewrite: Sendable {
    package var lessonIndex: Int
    /// The file's absolute path.
    package var path: String
    /// The bytes the check read: the file is replaced only while it still holds them, so that
    /// an author's edit saved during the check is never lost.
    package var original: [UInt8]
    package var bytes: [UInt8]
    package var updates: [BlockUpdate]

    package init(lessonIndex: Int, path: String, original: [UInt8], bytes: [UInt8], updates: [BlockUpdate]) {
        self.lessonIndex = lessonIndex
        self.path = path
        self.original = original
        self.bytes = bytes
        self.updates = updates
    }
}

/// Everything a check found, made whole by one maker (CourseChecking's `CheckReportBuilder`)
/// and never changed afterwards.
package struct CheckReport: Sendable {
    package private(set) var diagnostics: [Diagnostic]
    package private(set) var results: [ScenarioResult]
    /// With `--update`: the lesson files written (without it, those the check would write).
    package private(set) var rewrites: [LessonRewrite]
    package private(set) var compiledCount: Int
    package private(set) var cachedCount: Int
    package private(set) var compilerRuns: Int
    package private(set) var compilerVersion: String
    /// The language mode the compiler takes when none is given (`swiftc` with no
    /// `-swift-version`); nil when it could not be told.
    package private(set) var compilerLanguageMode: LanguageMode?
    /// Where the scenario programs ran.
    package private(set) var sandbox: SandboxUse
    /// Why no batch could be compiled, when none could (see `RunReport.batchRunnerProblem`).
    package private(set) var batchRunnerProblem: String?
    /// What part of the course this report covers: the whole course, some of its lessons, or
    /// a shard of its scenarios.
    package private(set) var scope: CheckScope

    package init(diagnostics: [Diagnostic], results: [ScenarioResult], rewrites: [LessonRewrite],
                 compiledCount: Int, cachedCount: Int, compilerRuns: Int, compilerVersion: String,
                 compilerLanguageMode: LanguageMode? = nil, sandbox: SandboxUse = .notNeeded,
                 batchRunnerProblem: String? = nil, scope: CheckScope = .wholeCourse) {
        self.diagnostics = diagnostics
        self.results = results
        self.rewrites = rewrites
        self.compiledCount = compiledCount
        self.cachedCount = cachedCount
        self.compilerRuns = compilerRuns
        self.compilerVersion = compilerVersion
        self.compilerLanguageMode = compilerLanguageMode
        self.sandbox = sandbox
        self.batchRunnerProblem = batchRunnerProblem
        self.scope = scope
    }

    /// The results of one lesson's scenarios, by the identity of their code block.
    package func results(ofLesson index: Int) -> [Int: ScenarioResult] {
        var byBlock: [Int: ScenarioResult] = [:]
        for result in results where result.lessonIndex == index { byBlock[result.scenario.block.id] = result }
        return byBlock
    }

    /// `6.3.1` out of `Swift version 6.3.1 (swift-6.3.1-RELEASE)`: what pages show.
    package var swiftVersion: String {
        let words = compilerVersion.split(separator: " ")
        if let index = words.firstIndex(of: "version"), index + 1 < words.count { return String(words[index + 1]) }
        return compilerVersion
    }

    /// The language mode a scenario was compiled in: its own, the course's, or the compiler's
    /// default; nil when none can be told.
    package func languageMode(of scenario: Scenario, in course: CourseConfig) -> LanguageMode? {
        scenario.languageMode ?? course.languageMode ?? compilerLanguageMode
    }

    /// The blocks `--update` changed, in course order.
    package var updates: [BlockUpdate] { rewrites.flatMap(\.updates) }

    // Counted in place: a filtered copy of thousands of results costs more than the count.
    package var passed: Int { results.count { $0.status == .passed } }
    package var failed: Int { results.count { $0.status == .failed } }
    package var skipped: Int { results.count { $0.status == .skipped } }
    package var errorCount: Int { diagnostics.count { $0.severity == .error } }
    package var warningCount: Int { diagnostics.count { $0.severity == .warning } }
    package var noteCount: Int { diagnostics.count { $0.severity == .note } }
    /// Nothing failed and nothing is wrong with the lessons.
    package var succeeded: Bool { failed == 0 && errorCount == 0 }

    /// `12 passed, 0 failed` (`, 1 skipped` when any were).
    package var summaryLine: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}

/// What part of a course a check covers. The course is always read whole, and rules that span
/// it (the numbering of limitation notes) are judged on all of it; the scope says which
/// scenarios run and which findings the report keeps.
package struct CheckScope: Sendable, Equatable {
    /// The lessons whose scenarios run and whose findings are kept (by index in the course);
    /// nil for every lesson.
    package var lessons: Set<Int>?
    /// A share of the course's scenarios (`--shard K/N`); nil for all of them.
    package var shard: Shard?
    /// The files the selected lessons are (as messages name them), for reports.
    package var lessonPaths: [String]

    package init(lessons: Set<Int>? = nil, shard: Shard? = nil, lessonPaths: [String] = []) {
        self.lessons = lessons
        self.shard = shard
        self.lessonPaths = lessonPaths
    }

    package static let wholeCourse = CheckScope()

    /// Whether findings that are nobody's scenario (the lessons' rules, course.json, the core)
    /// belong to this report: on the whole course, on the chosen lessons, on shard 1 of N.
    package var judgesCourseRules: Bool { shard.map { $0.index == 1 } ?? true }

    /// Whether a lesson's scenarios run and its findings are kept.
    package func includes(lesson index: Int) -> Bool { lessons?.contains(index) ?? true }
}

/// `--shard K/N`: the K-th of N shares of a course's scenarios (K from 1).
package struct Shard: Sendable, Equatable, Codable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `2/4`, or nil when the text is not `K/N` with 1 ≤ K ≤ N.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, count <= 1000, index >= 1, index <= count else { return nil }
        self.init(index: index, count: count)
    }

    package var description: String { "\(index)/\(count)" }
}
