package import CourseModel

/// The names of the pipeline's steps, in the order they run (see `PipelineStep`).
package enum StepName: String, Sendable, CaseIterable {
    /// `course.json`, the core files, every lesson parsed once; for a site, the words of its
    /// language, the templates and the destination looked at, before anything runs.
    case read
    /// Every scenario run (its Swift read for its shape first), every other Swift block read
    /// while they run.
    case run
    /// Every rule and every scenario's outcome judged into one report (with `--update`, the
    /// lessons it rewrote written first), and the report's files written.
    case judge
    /// The pages, into a staging folder beside the destination.
    case render
    /// The search index of the staged site (Pagefind, when it is installed).
    case index
    /// The staged site swapped into place.
    case write
}

/// The pipelines a command runs: `check` (read, run, judge) and `build` (all six steps).
package enum PipelineName: String, Sendable {
    case check, build
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
/// along, so that all of it is shown. The step is named by the loop that ran it
/// (`Pipeline.run(_:_:)`), not where the error is made.
package struct PipelineError: Error, Sendable {
    /// The pipeline and the step that stopped; nil outside a pipeline's steps.
    package var failedIn: (pipeline: PipelineName, step: StepName)?
    /// The file or folder at fault, as the user named it.
    package var path: String?
    package var status: ExitStatus
    /// What went wrong; located in a file when a file is at fault.
    package var diagnostic: Diagnostic
    package var checked: Pipeline.Checked?

    package init(path: String?, status: ExitStatus, diagnostic: Diagnostic, checked: Pipeline.Checked? = nil) {
        self.path = path
        self.status = status
        self.diagnostic = diagnostic
        self.checked = checked
    }

    /// The step that stopped.
    package var step: StepName? { failedIn?.step }

    /// `build failed in step render`: what the user is told of where the pipeline stopped.
    package var stop: String? {
        failedIn.map { "\($0.pipeline.rawValue) failed in step \($0.step.rawValue)" }
    }
}

/// What the manual says of each status: the table of `docs/commands.md` is written from these
/// (`make docs-reference`), and a test fails when they drift apart.
extension ExitStatus {
    package var meaning: String {
        switch self {
        case .success:
            "everything passed (and, for `build`, the site was written; for `new lesson`, the lesson)"
        case .checkFailed:
            "a scenario failed or a lesson breaks a rule (for `build`: nothing was written; for `merge-reports`: the merged verdict)"
        case .courseUnreadable:
            "the course cannot be read: no `course.json` (or one that is not a regular file), invalid JSON, an unknown key or a key given twice in it, a core file missing (or a folder, a device, a named pipe, listed twice, with another core's file name, or outside the course's repository), a lesson that is not UTF-8, is not a regular file (a named pipe, a device, a socket) or links out of the course, a lesson file name with a control character, two lesson file names equal under Unicode normalization, no lesson files, a file given to `check` that is not a lesson of the course, no course folder for `watch` or `serve`; for `merge-reports`, a report that cannot be read, reports that do not make one course, or a report that claims what no shard holds; the message names the file (and line)"
        case .templateInvalid:
            "a template cannot be read or does not fit its page (unknown placeholder, unclosed block, blocks nested too deep, a list repeated inside itself ...), or the templates folder lies outside the course's repository or links out of itself"
        case .siteNotWritten:
            "the site cannot be written where `--out` points (including a folder or link beside it under a build's own names that no build of this user left, or a lock file that is a link or a folder), Pagefind failed to index it, a `--report` file cannot be written (or is a symbolic link), or `new lesson` cannot write its file (it exists)"
        case .toolchainUnavailable:
            "no Swift compiler to run scenarios with"
        case .sandboxUnavailable:
            "`--sandbox required`, and the sandbox cannot start here (the message says why)"
        case .watchOrServeUnavailable:
            "`watch` cannot watch the files (inotify), or `serve` cannot listen on its port"
        case .searchTimedOut:
            "Pagefind took longer than the search time limit (`COURSEBOOK_SEARCH_TIME_LIMIT`, 60 s by default) and was stopped; nothing was written"
        case .usage:
            "the command line is wrong (an unknown option, a `--timeout` below 1 ms, a `--cache-dir` that cannot hold the cache ...)"
        case .hangUp, .interrupted, .terminated:
            "stopped by SIGHUP, SIGINT (Ctrl-C) or SIGTERM: every compiler and scenario of the run is ended, its temporary folders removed; lessons and the site are whole (each is replaced by a rename, and a site's swap is never cut in half). The usual end of `watch` and `serve`."
        }
    }

    /// The exit statuses as the manual's table: by number, statuses that mean the same in one row.
    package static var manualTable: String {
        var rows: [(statuses: [Int32], meaning: String)] = []
        for status in allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
            if let last = rows.last, last.meaning == status.meaning {
                rows[rows.count - 1].statuses.append(status.rawValue)
            } else {
                rows.append(([status.rawValue], status.meaning))
            }
        }
        return "| status | meaning |\n|---|---|\n"
            + rows.map { "| \($0.statuses.map(String.init).joined(separator: ", ")) | \($0.meaning) |\n" }.joined()
    }
}
