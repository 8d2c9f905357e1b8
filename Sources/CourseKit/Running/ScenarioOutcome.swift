import Foundation

/// What running one scenario came to.
package enum ScenarioOutcome: Sendable, Equatable {
    /// It ran to its end with exit status 0; `output` is its standard output.
    case completed(output: String, standardError: String, fromCache: Bool)
    /// It did not compile; the diagnostics point into its lesson.
    case compileFailed([Diagnostic])
    /// The core files did not compile, so no scenario could (reported once, on its own).
    case coreFailed
    /// It trapped, crashed or exited with a status other than 0.
    case crashed(Termination, output: String, standardError: String)
    /// It ran past the time limit and was killed.
    case timedOut(limit: Duration, output: String, standardError: String)
    /// It printed more than the cap and was killed; `output` is cut at the cap.
    case outputCapped(cap: Int, output: String, standardError: String)

    /// The standard output of a scenario that ran to its end.
    package var completedOutput: String? {
        if case let .completed(output, _, _) = self { return output }
        return nil
    }
}

/// A scenario to run, with the key its result is cached under.
package struct ScenarioJob: Sendable {
    package var source: ScenarioSource
    package var cacheKey: String

    package init(source: ScenarioSource, cacheKey: String) {
        self.source = source
        self.cacheKey = cacheKey
    }
}

/// How scenarios run.
package struct RunSettings: Sendable {
    /// A scenario running longer is killed and reported (`--timeout`).
    package var timeLimit: Duration = .seconds(10)
    /// Standard output beyond this many bytes is cut and reported.
    package var outputCap: Int = 1 << 20
    /// How many compiler jobs and programs may run at once.
    package var parallelism: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    package init() {}
}

/// What a run of scenarios came to, in the order of its jobs.
package struct RunReport: Sendable {
    package var outcomes: [ScenarioOutcome]
    /// How many scenarios were compiled in this run, and how many came from the cache.
    package var compiledCount: Int
    package var cachedCount: Int
    /// How many times `swiftc` ran.
    package var compilerRuns: Int
    /// Findings about the core files, when they do not compile.
    package var diagnostics: [Diagnostic]
}
