import Foundation

/// What an interrupted run (SIGINT, SIGTERM, SIGHUP) must not leave behind or cut in half: the
/// temporary folders it made, and the steps that move files into place.
package enum Interruption {
    /// Temporary folders in use, removed if the run is stopped.
    private static let folders = Locked<Set<String>>([])
    /// Held while files move into place (a site's swap), and by a stopping run until it exits.
    private static let moving = Locked<Void>(())
    /// What must end before the process does (a server's threads), by token.
    private static let endings = Locked<(next: Int, actions: [Int: @Sendable () -> Void])>((0, [:]))

    /// `action` ends something of the run's own (a server and its threads) if the run is
    /// stopped before `forget(token)`.
    package static func whenStopped(_ action: @escaping @Sendable () -> Void) -> Int {
        endings.withLock { endings in
            endings.next += 1
            endings.actions[endings.next] = action
            return endings.next
        }
    }

    package static func forget(_ token: Int) {
        _ = endings.withLock { $0.actions.removeValue(forKey: token) }
    }

    /// `folder` is scratch: remove it if the run is stopped before `release(folder)`.
    package static func hold(_ folder: String) {
        _ = folders.withLock { $0.insert(folder) }
    }

    package static func release(_ folder: String) {
        _ = folders.withLock { $0.remove(folder) }
    }

    /// Runs `work` (renames that must all happen or none) so that a stop waits for its end.
    package static func uninterrupted<Result>(_ work: () throws -> Result) rethrows -> Result {
        try moving.withLock { _ in try work() }
    }

    /// A stopping run: ends what it was asked to (`whenStopped`), waits for a move in progress,
    /// removes every scratch folder and ends the process with `end` while it holds the lock, so
    /// that no move starts before it is gone.
    package static func stop(_ end: () -> Never) -> Never {
        let actions = endings.withLock { endings in
            defer { endings.actions = [:] }
            return endings.actions.sorted { $0.key < $1.key }.map(\.value)
        }
        for action in actions { action() }
        return moving.withLock { _ in
            let scratch = folders.withLock { $0 }
            for folder in scratch { try? FileManager.default.removeItem(atPath: folder) }
            end()
        }
    }
}
