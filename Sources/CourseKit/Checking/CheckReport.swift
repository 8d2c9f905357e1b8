import Foundation

/// Runs scenarios for the check. The real one compiles them (`ScenarioRunner`); tests may
/// give their own.
package protocol ScenarioRunning: Sendable {
    /// The compiler's version line: part of every cache key and shown on the site.
    var compilerVersion: String { get }
    func run(_ jobs: [ScenarioJob]) -> RunReport
}

extension ScenarioRunner: ScenarioRunning {
    package var compilerVersion: String { compiler.version }
}

/// How a check runs.
package struct CheckOptions: Sendable {
    /// Warnings count as errors.
    package var strict = false
    /// Rewrite `output` and `swift core` blocks from the run.
    package var update = false

    package init(strict: Bool = false, update: Bool = false) {
        self.strict = strict
        self.update = update
    }
}

/// A scenario and what became of it.
package struct ScenarioResult: Sendable {
    package enum Status: Sendable, Equatable { case passed, failed, skipped }

    package var lessonIndex: Int
    package var scenario: Scenario
    package var status: Status
    /// nil for a skipped scenario.
    package var outcome: ScenarioOutcome?

    /// The output the page shows under the scenario: what it printed when it passed.
    package var verifiedOutput: String? {
        status == .passed ? outcome?.completedOutput : nil
    }
}

/// A block that `--update` rewrote or inserted.
package struct BlockUpdate: Sendable, Equatable {
    package var location: SourceLocation
    package var summary: String
}

/// What `--update` makes of one lesson file: its new bytes, and the blocks that changed.
package struct LessonRewrite: Sendable {
    package var lessonIndex: Int
    /// The file's absolute path.
    package var path: String
    package var bytes: [UInt8]
    package var updates: [BlockUpdate]
}

/// Everything a check found.
package struct CheckReport: Sendable {
    package var diagnostics: [Diagnostic]
    package var results: [ScenarioResult]
    /// With `--update`: the lesson files to write (see `writingRewrites()`).
    package var rewrites: [LessonRewrite]
    package var compiledCount: Int
    package var cachedCount: Int
    package var compilerRuns: Int
    package var compilerVersion: String

    /// `6.3.1` out of `Swift version 6.3.1 (swift-6.3.1-RELEASE)`: what pages show.
    package var swiftVersion: String {
        let words = compilerVersion.split(separator: " ")
        if let index = words.firstIndex(of: "version"), index + 1 < words.count { return String(words[index + 1]) }
        return compilerVersion
    }

    /// The blocks `--update` changed, in course order.
    package var updates: [BlockUpdate] { rewrites.flatMap(\.updates) }

    package var passed: Int { results.filter { $0.status == .passed }.count }
    package var failed: Int { results.filter { $0.status == .failed }.count }
    package var skipped: Int { results.filter { $0.status == .skipped }.count }
    package var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    package var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// Nothing failed and nothing is wrong with the lessons.
    package var succeeded: Bool { failed == 0 && errorCount == 0 }

    /// `12 passed, 0 failed` (`, 1 skipped` when any were).
    package var summaryLine: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
