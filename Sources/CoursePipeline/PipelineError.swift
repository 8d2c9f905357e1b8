package import CourseModel

/// The steps of the pipeline, in the order they run.
package enum PipelineStep: String, Sendable, CaseIterable {
    /// `course.json`, the core files, every lesson parsed once.
    case load
    /// For a site: the words of its language, the templates, the destination.
    case prepare
    /// Every Swift block read, every scenario run, every rule judged: one report.
    case check
    /// The pages, into a staging folder beside the destination.
    case render
    /// The search index of the staged site (Pagefind, when it is installed).
    case index
    /// The staged site swapped into place (and, for `check --update`, the lessons rewritten).
    case write
}

/// The exit statuses of `coursebook`, one for each kind of trouble.
package enum ExitStatus: Int32, Error, CaseIterable, Sendable {
    /// Every scenario passed; the site, when asked for, was written.
    case success = 0
    /// A scenario failed, or a lesson breaks a rule of the format.
    case checkFailed = 1
    /// The course cannot be read: no course.json, a core file missing, a lesson not UTF-8 ...
    case courseUnreadable = 2
    /// A template cannot be read or uses an unknown placeholder.
    case templateInvalid = 3
    /// The site cannot be written where `--out` points.
    case siteNotWritten = 4
    /// No Swift compiler to run scenarios with.
    case toolchainUnavailable = 5
    /// `--sandbox required`, and the sandbox cannot start here.
    case sandboxUnavailable = 6
    /// `watch` cannot watch the course's files (inotify), or `serve` cannot listen on its port.
    case watchOrServeUnavailable = 7
    /// Pagefind took longer than the search time limit (`COURSEBOOK_SEARCH_TIME_LIMIT`).
    case searchTimedOut = 8
    /// Stopped by a signal: 128 + SIGHUP, SIGINT, SIGTERM (the shell's convention).
    case hangUp = 129
    case interrupted = 130
    case terminated = 143
    /// The command line is wrong.
    case usage = 64
}

/// Why the pipeline stopped: the step, the file or folder at fault, the exit status, and the
/// finding that says what went wrong. When the check ran before the stop, what it found comes
/// along, so that all of it is shown.
package struct PipelineError: Error, Sendable {
    package var step: PipelineStep
    /// The file or folder at fault, as the user named it.
    package var path: String?
    package var status: ExitStatus
    /// What went wrong; located in a file when a file is at fault.
    package var diagnostic: Diagnostic
    package var checked: Pipeline.Checked?

    package init(_ step: PipelineStep, path: String?, status: ExitStatus, diagnostic: Diagnostic,
                 checked: Pipeline.Checked? = nil) {
        self.step = step
        self.path = path
        self.status = status
        self.diagnostic = diagnostic
        self.checked = checked
    }
}
