package import CourseModel
package import CourseReports

/// What `check` and `build` share.
package struct SharedOptions: Sendable, Equatable {
    /// Where results are kept between runs.
    package enum Cache: Sendable, Equatable {
        /// `COURSE_DIR/.coursebook-cache`.
        case inCourse
        /// `--cache-dir DIR`.
        case folder(String)
        /// `--no-cache`: everything is compiled, parsed and run; nothing is kept.
        case none
    }

    /// The course folder (`lessons` by default).
    package var course = "lessons"
    /// `--strict`: warnings are errors.
    package var strict = false
    /// `--timeout`: how long one scenario may run.
    package var timeLimit: Duration = .seconds(10)
    package var cache: Cache = .inCourse
    /// `--sandbox`, `--no-sandbox`.
    package var sandbox: SandboxMode = .automatic
    /// `--compile-timeout`: how long one compiler run may take.
    package var compileTimeLimit: Duration = .seconds(300)
    /// `--memory-limit`, `--process-limit`, `--file-limit`, `--tmp-size`,
    /// `--compile-memory-limit`: what a scenario (or the compiler) may take of the machine.
    package var limits = ScenarioLimits()
    /// `--output-limit`: how much a scenario may print.
    package var outputCap = RunSettings().outputCap
    /// `--report FILE`: report files to write (`.json`, `.xml`), whatever the check found.
    package var reports: [ReportFile] = []
    /// `--format`: how findings are printed; nil to decide from the environment.
    package var format: DiagnosticStyle?

    package init() {}
}

/// `coursebook check`.
package struct CheckCommandOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    /// `--update`: rewrite `output` blocks and core listings from this run.
    package var update = false
    /// Lesson files to check alone, inside their course (`check LESSON.md ...`); empty for
    /// every lesson.
    package var lessons: [String] = []
    /// `--shard K/N`: this share of the scenarios only.
    package var shard: Shard?

    package init() {}
}

/// `coursebook build`.
package struct BuildCommandOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    /// `--out`: the site's folder; nil until given (`build` needs it, `siteFiles` does not).
    package var out: String?
    /// Whether the site gets a search index when Pagefind is installed (`--no-search`: no).
    package var search = true
    /// Whether a new index is left for `Pipeline.refreshIndex`, after the pages are in place
    /// (`watch` and `serve`: an author never waits for search). The site goes in with the
    /// index in place when its record proves it current, else with the old index's files
    /// (stale, without their record) until the refresh.
    package var searchAfterPages = false

    package init() {}
}

/// `coursebook watch`.
package struct WatchCommandOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    /// `--out`: rebuild the site here after each green check; nil for checks only.
    package var out: String?
    /// Whether a rebuilt site gets a search index when Pagefind is installed.
    package var search = true

    package init() {}
}

/// `coursebook serve`.
package struct ServeCommandOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    /// `--port`: the loopback port to serve on (0: any free one).
    package var port: UInt16 = 8000
    /// Whether the previewed site gets a search index when Pagefind is installed.
    package var search = true

    package init() {}
}

/// `coursebook new lesson TITLE [COURSE_DIR]`.
package struct NewLessonOptions: Sendable, Equatable {
    package var course = "lessons"
    /// The lesson's title; nil until given (`new lesson` needs it).
    package var title: String?
    /// `--errors`: the skeleton's scenario is one the compiler must refuse (an `errors` block
    /// in place of the `output` block).
    package var errors = false

    package init() {}
}

/// `coursebook merge-reports SHARD.json ...`.
package struct MergeReportsOptions: Sendable, Equatable {
    /// The shards' JSON reports.
    package var inputs: [String] = []
    /// `--report FILE`: the merged report's files.
    package var reports: [ReportFile] = []
    package var format: DiagnosticStyle?

    package init() {}
}
