import CourseModel

/// The one maker of a check's `CheckReport`: the judge step gives it everything the check
/// found, in the order it was found, and `report(of:)` makes the report, which nothing changes
/// afterwards.
///
/// Every finding comes in through `record`, and that is where `--strict` is applied, once: a
/// warning recorded by a strict check is an error from then on (in the report's diagnostics
/// and in the findings of the scenario it belongs to alike). A lesson whose `--update` could not
/// be planned or written is marked `failed(lesson:)`: what passed in it only did so with the
/// update, and the report counts it failed.
package struct CheckReportBuilder: Sendable {
    /// `--strict`: warnings are errors.
    package let strict: Bool
    /// What part of the course the report covers.
    package let scope: CheckScope
    private var diagnostics: [Diagnostic] = []
    /// Findings after the course's order is made: those of writing `--update`'s lessons, which
    /// come last, in the order the lessons were written.
    private var afterwards: [Diagnostic] = []
    private var results: [ScenarioResult] = []
    private var rewrites: [LessonRewrite] = []
    private var failedLessons: Set<Int> = []
    private var run: RunReport = .empty
    private var compilerVersion = ""
    private var compilerLanguageMode: LanguageMode?

    package init(strict: Bool, scope: CheckScope) {
        self.strict = strict
        self.scope = scope
    }

    /// A finding as this check makes it: with `--strict`, a warning is an error.
    package func made(_ diagnostic: Diagnostic) -> Diagnostic {
        strict && diagnostic.severity == .warning ? diagnostic.asError : diagnostic
    }

    /// Findings for the report, as this check makes them (see `made`); returns them so.
    @discardableResult
    package mutating func record(_ found: [Diagnostic]) -> [Diagnostic] {
        let made = found.map(made)
        diagnostics += made
        return made
    }

    /// Drops findings recorded earlier that turned out not to hold (an `output` block that
    /// `--update` inserts was not missing) or not to be this report's (another lesson's).
    package mutating func drop(where isDropped: (Diagnostic) -> Bool) {
        diagnostics.removeAll(where: isDropped)
    }

    /// A scenario's result; its findings are recorded with it.
    package mutating func record(_ result: ScenarioResult, findings: [Diagnostic]) {
        var result = result
        result.findings = record(findings)
        results.append(result)
    }

    /// A lesson that `--update` rewrites.
    package mutating func planned(_ rewrite: LessonRewrite) {
        rewrites.append(rewrite)
    }

    /// The rewrites planned so far, for the pipeline to write.
    package var plannedRewrites: [LessonRewrite] { rewrites }

    /// What passed in `lesson` did not: its update could not be planned or written.
    package mutating func failed(lesson: Int) {
        failedLessons.insert(lesson)
    }

    /// `--update` written: the rewrites of `written` stay in the report; a lesson that could
    /// not be written gets its finding (after the course's own) and fails.
    package mutating func wrote(_ written: [LessonRewrite], notWritten: [(lesson: Int, finding: Diagnostic)]) {
        rewrites = written
        for (lesson, finding) in notWritten {
            afterwards.append(made(finding))
            failedLessons.insert(lesson)
        }
    }

    /// How the scenarios ran, and with which compiler.
    package mutating func ran(_ run: RunReport, compilerVersion: String, compilerLanguageMode: LanguageMode?) {
        self.run = run
        self.compilerVersion = compilerVersion
        self.compilerLanguageMode = compilerLanguageMode
    }

    /// The report: findings in the course's order (see `CourseCheck.ordered`), then those of
    /// writing the lessons; the results of failed lessons' scenarios that passed, failed.
    package func report(of course: Course) -> CheckReport {
        var results = results
        if !failedLessons.isEmpty {
            for index in results.indices
            where failedLessons.contains(results[index].lessonIndex) && results[index].status == .passed {
                results[index].status = .failed
            }
        }
        return CheckReport(
            diagnostics: CourseCheck.ordered(diagnostics, course: course) + afterwards, results: results,
            rewrites: rewrites, compiledCount: run.compiledCount, cachedCount: run.cachedCount,
            compilerRuns: run.compilerRuns, compilerVersion: compilerVersion,
            compilerLanguageMode: compilerLanguageMode, sandbox: run.sandbox,
            batchRunnerProblem: run.batchRunnerProblem, scope: scope)
    }
}
