/// Whether a piece of work is still wanted, passed down to whatever does it: an editor's check
/// gets one, and a newer edit of its lesson cancels it. Work that can be stopped from outside
/// (a running process) registers how to stop it; `cancel()` runs every registered action at
/// once, and one registered after the cancellation runs as it is registered. The actions run
/// under the token's lock, so that an action removed (`unregister`) never runs afterwards:
/// a process killed by its group ID is never one whose ID was already given back.
package final class Cancellation: Sendable {
    private struct State {
        var cancelled = false
        var actions: [Int: @Sendable () -> Void] = [:]
        var next = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Marks the work unwanted, then stops what registered (each action once).
    package func cancel() {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.cancelled = true
            for (_, action) in state.actions.sorted(by: { $0.key < $1.key }) { action() }
            state.actions = [:]
        }
    }

    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Registers how to stop a piece of the work; nil when the work is already cancelled, in
    /// which case `action` has run before this returns. Keep it short (a signal): it runs
    /// under the token's lock.
    package func register(_ action: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.cancelled else {
                action()
                return nil
            }
            state.next += 1
            state.actions[state.next] = action
            return state.next
        }
    }

    /// The piece registered as `registration` is done: its action will not run.
    package func unregister(_ registration: Int?) {
        guard let registration else { return }
        _ = state.withLock { $0.actions.removeValue(forKey: registration) }
    }
}
