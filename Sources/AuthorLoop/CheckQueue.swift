package import CourseFiles
import Foundation

/// The editor's checks, one at a time on a thread of their own (the machine's cores go to the
/// compiler): each lesson waits until it has been quiet for its delay (typing is debounced, a
/// save or an open is not), the lesson due first runs first, and a newer edit of the lesson
/// being checked cancels that check (its `Cancellation`: the compiler and the programs it
/// runs are killed at once), whose findings are then never shown.
package final class CheckQueue: @unchecked Sendable {
    private let condition = NSCondition()
    /// Lessons waiting, by URI, with the moment each is due.
    private var pending: [String: ContinuousClock.Instant] = [:]
    private var running: (uri: String, cancellation: Cancellation)?
    private var stopped = false
    private var idle = true
    private let work: @Sendable (String, Cancellation) -> Void

    /// `work` checks one lesson (by URI); it is called on the queue's thread.
    package init(work: @escaping @Sendable (String, Cancellation) -> Void) {
        self.work = work
        let thread = Thread { [self] in loop() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Checks `uri` once it has been quiet for `delay`; cancels its check in progress.
    package func schedule(_ uri: String, after delay: Duration) {
        condition.lock()
        pending[uri] = ContinuousClock.now + delay
        if let running, running.uri == uri { running.cancellation.cancel() }
        condition.broadcast()
        condition.unlock()
    }

    /// No check of `uri` any more (its document was closed): the one waiting is dropped, the
    /// one in progress cancelled.
    package func cancel(_ uri: String) {
        condition.lock()
        pending[uri] = nil
        if let running, running.uri == uri { running.cancellation.cancel() }
        condition.broadcast()
        condition.unlock()
    }

    /// No more checks; the one in progress is cancelled.
    package func stop() {
        condition.lock()
        stopped = true
        running?.cancellation.cancel()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until nothing is pending or running (for a client that asks for results after
    /// its edits: tests, `shutdown`), at most `limit`.
    package func waitUntilIdle(limit: Duration) {
        let deadline = Date().addingTimeInterval(Double(limit.components.seconds))
        condition.lock()
        while !(idle && pending.isEmpty) && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    private func loop() {
        condition.lock()
        while true {
            if stopped { condition.unlock(); return }
            guard let (uri, due) = pending.min(by: { $0.value < $1.value }) else {
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if due > now {
                let wait = due - now
                _ = condition.wait(until: Date().addingTimeInterval(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18))
                continue
            }
            pending[uri] = nil
            let cancellation = Cancellation()
            running = (uri, cancellation)
            idle = false
            condition.unlock()
            work(uri, cancellation)
            condition.lock()
            running = nil
            idle = true
            condition.broadcast()
        }
    }
}
