internal import CourseFiles
import Dispatch
import Foundation
import Processes

/// The `coursebook` command as a process: it adopts every descendant that loses its parent
/// (so that none outlives the run), and a stop by SIGINT (Ctrl-C), SIGTERM or SIGHUP ends its
/// compilers and scenarios, waits for a site's swap in progress, removes its temporary folders
/// and exits with 130, 143 or 129. Lessons and the site are replaced by renames only, so they
/// are whole at any moment.
package enum CommandLifetime {
    /// What the command made and no longer needs, when it runs as a process of its own; nil in
    /// a library user.
    private static let kept = Locked<[any Sendable]?>(nil)

    /// Keeps `value` until the process ends, when it runs as one (`begin`): taking a large
    /// course's lessons, documents and results apart one allocation at a time costs a tenth of
    /// a warm check, and the end of the process frees them all at once. Returns false in a
    /// library user, which must free what it made.
    @discardableResult
    package static func keepUntilExit(_ value: some Sendable) -> Bool {
        kept.withLock { kept in
            guard kept != nil else { return false }
            kept!.append(value)
            return true
        }
    }

    /// Once, at the start of the command (not in a library user, which may have children and
    /// signal handling of its own).
    package static func begin() {
        kept.withLock { $0 = $0 ?? [] }
        ProcessControl.adoptOrphans()
        StopSignals.handle([SIGINT, SIGTERM, SIGHUP]) { signal in
            stop(signal == SIGINT ? .interrupted : signal == SIGTERM ? .terminated : .hangUp)
        }
    }

    /// Ends every compiler and scenario this process started and has not waited for: for a
    /// command that ends without a signal while work may still run (`lsp` at `exit`).
    package static func endStartedProcesses() {
        ProcessControl.endAll()
    }

    /// Scratch folders go first, while the run's processes still work (they fail, nothing
    /// waits for them); then the processes, and the exit at once, before the command's own
    /// threads can take a killed scenario for a result and report it.
    private static func stop(_ status: ExitStatus) -> Never {
        Interruption.stop {
            FileHandle.standardError.write(Data("coursebook: stopped\n".utf8))
            ProcessControl.endAll()
            _exit(status.rawValue)
        }
    }
}
