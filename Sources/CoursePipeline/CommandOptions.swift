package import CourseModel

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

    package init() {}
}

/// `coursebook check`.
package struct CheckCommandOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    /// `--update`: rewrite `output` blocks and core listings from this run.
    package var update = false

    package init() {}
}

/// `coursebook build`.
package struct BuildCommandOptions: Sendable, Equatable {
    package var shared = SharedOptions()
    /// `--out`: the site's folder.
    package var out = ""
    /// Whether the site gets a search index when Pagefind is installed (`--no-search`: no).
    package var search = true

    package init() {}
}
