import Foundation

/// Work on a thread of its own while the caller goes on; `wait()` gives its result, as often
/// as it is asked for.
package final class Background<Result: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<Result?>(nil)

    package init(_ work: @escaping @Sendable () -> Result) {
        let thread = Thread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        // SwiftParser and the compiler's output readers recurse deeply.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The result, once the work is done.
    package func wait() -> Result {
        if let value = result.withLock({ $0 }) { return value }
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}
