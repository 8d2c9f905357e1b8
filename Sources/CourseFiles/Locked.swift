#if canImport(Glibc)
import Glibc
#endif

/// A value that threads share, reached only under its lock. A pthread mutex rather than the
/// standard library's `Mutex`: on Linux that one waits with raw futex calls, which
/// ThreadSanitizer cannot see, so `make sanitize` reports every contended use of it as a race
/// (a two-thread program that only inserts under `Mutex.withLock` is enough); a pthread mutex
/// it understands.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// The value lives in memory of its own: a stored property of no size (`Locked<Void>`)
    /// would share its address with `mutex`, and ThreadSanitizer would take the unlocked read
    /// of `mutex` for a race with the locked access to it.
    private let value = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    package init(_ value: Value) {
        self.value.initialize(to: value)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
