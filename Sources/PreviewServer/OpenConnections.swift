import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How many connections `serve` keeps and for how long, so that whatever holds connections
/// open (a script that sends half a request on a thousand sockets, a page that opens stream
/// after stream) a fresh request from the author's browser is still answered. Every client of
/// a server on the loopback address has the same address, so a limit per address would shut
/// the browser out with the rest: the limits are on what each connection is doing instead.
package struct ConnectionLimits: Sendable, Equatable {
    /// Seconds a connection may stay silent, sending and receiving nothing, before
    /// libmicrohttpd closes it (`MHD_OPTION_CONNECTION_TIMEOUT`); event streams excepted.
    package var idleSeconds: UInt32 = 10
    /// How long a connection may take to send a whole request (from when it opened, or from the
    /// end of its last answer), however slowly it trickles bytes in.
    package var requestDeadline: Duration = .seconds(10)
    /// Connections waiting for a request at once: a new one past this ends the one that has
    /// waited longest.
    package var waiting = 64
    /// Event streams (open pages) at once: a new one past this ends the oldest, whose page
    /// reconnects.
    package var streams = 32
    /// Connections of every kind: a new one past this ends the oldest of the others.
    package var total = 200
    /// libmicrohttpd's own cap (`MHD_OPTION_CONNECTION_LIMIT`), a little above `total`:
    /// connections past it wait in the kernel's backlog until one ends.
    package var hardLimit: UInt32 { UInt32(total + 16) }

    package init() {}
}

/// What a connection of the preview is doing, for `ConnectionPolicy`.
package struct OpenConnection: Sendable, Equatable {
    package enum State: Sendable, Equatable {
        /// Before its request has come whole (or between two requests).
        case waiting
        /// Its request came; the answer is on its way.
        case answering
        /// An event stream: an open page waiting to be told to reload.
        case streaming
        /// Told to end; libmicrohttpd has not closed it yet.
        case ending
    }

    package var state: State
    /// Since when it is in that state.
    package var since: ContinuousClock.Instant
    /// The order connections came in, for the oldest among equals.
    package var number: Int

    package init(state: State, since: ContinuousClock.Instant, number: Int) {
        self.state = state
        self.since = since
        self.number = number
    }
}

/// Which connections to end, as a pure function of what each is doing.
package enum ConnectionPolicy {
    /// The connections to end now (by their keys), in the order to end them: every waiting
    /// connection past the request deadline; then, oldest first, waiting ones past their limit,
    /// streams past theirs, and any past the total; never `keeping` (the one that just came).
    package static func toEnd<Key: Hashable>(_ connections: [Key: OpenConnection], keeping: Key?,
                                             now: ContinuousClock.Instant, limits: ConnectionLimits) -> [Key] {
        var live = connections.filter { $0.value.state != .ending }
        var ended: [Key] = []
        func end(_ key: Key) {
            ended.append(key)
            live[key] = nil
        }
        for (key, connection) in live.sorted(by: { $0.value.number < $1.value.number })
        where key != keeping && connection.state == .waiting && now - connection.since > limits.requestDeadline {
            end(key)
        }
        func oldest(_ state: OpenConnection.State?) -> Key? {
            live.filter { $0.key != keeping && (state == nil || $0.value.state == state) }
                .min { ($0.value.since, $0.value.number) < ($1.value.since, $1.value.number) }?.key
        }
        func count(_ state: OpenConnection.State) -> Int { live.values.filter { $0.state == state }.count }
        while count(.waiting) > limits.waiting, let key = oldest(.waiting) { end(key) }
        while count(.streaming) > limits.streams, let key = oldest(.streaming) { end(key) }
        while live.count > limits.total, let key = oldest(nil) { end(key) }
        return ended
    }
}

/// The preview's open connections, told by libmicrohttpd's callbacks what each is doing, and
/// ending those that `ConnectionPolicy` picks: a waiting or answering one by shutting its
/// socket down (its thread then reads the end and libmicrohttpd closes it), a stream by ending
/// the stream. libmicrohttpd reports a connection closed, on its listening thread, before it
/// closes the socket, and the entry leaves this table then, under the same lock that ending
/// takes: a socket is never shut down after it was closed (and its number perhaps reused).
final class OpenConnections: @unchecked Sendable {
    private let lock = NSCondition()
    private var open: [UInt: (connection: OpenConnection, socket: Int32, stream: PreviewServer.EventStream?)] = [:]
    private var counter = 0
    private var stopped = false
    let limits: ConnectionLimits

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// A new connection: ends what the limits say must end to make room for it.
    func started(_ key: UInt, socket: Int32) {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        open[key] = (OpenConnection(state: .waiting, since: .now, number: counter), socket, nil)
        enforce(keeping: key)
    }

    func answering(_ key: UInt) { move(key, to: .answering) }

    func streaming(_ key: UInt, _ stream: PreviewServer.EventStream) {
        lock.lock()
        defer { lock.unlock() }
        guard open[key] != nil, open[key]!.connection.state != .ending else { return }
        open[key]!.stream = stream
        open[key]!.connection.state = .streaming
        open[key]!.connection.since = .now
        enforce(keeping: key)
    }

    /// A request answered: the connection waits for the next one, with a new deadline.
    func completed(_ key: UInt) {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = open[key], entry.connection.state != .ending, entry.connection.state != .streaming else { return }
        open[key]!.connection.state = .waiting
        open[key]!.connection.since = .now
    }

    func closed(_ key: UInt) {
        lock.lock()
        defer { lock.unlock() }
        open[key] = nil
    }

    /// Ends waiting connections past their deadline, once a second, until `stop`.
    func sweepUntilStopped() {
        lock.lock()
        defer { lock.unlock() }
        while !stopped {
            _ = lock.wait(until: Date(timeIntervalSinceNow: 1))
            if !stopped { enforce(keeping: nil) }
        }
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.broadcast()
        lock.unlock()
    }

    /// How many connections are open in each state (for tests).
    func counts() -> [OpenConnection.State: Int] {
        lock.lock()
        defer { lock.unlock() }
        return open.values.reduce(into: [:]) { $0[$1.connection.state, default: 0] += 1 }
    }

    private func move(_ key: UInt, to state: OpenConnection.State) {
        lock.lock()
        defer { lock.unlock() }
        guard open[key] != nil, open[key]!.connection.state != .ending else { return }
        open[key]!.connection.state = state
        open[key]!.connection.since = .now
    }

    /// Under the lock.
    private func enforce(keeping: UInt?) {
        let chosen = ConnectionPolicy.toEnd(open.mapValues(\.connection), keeping: keeping, now: .now, limits: limits)
        for key in chosen {
            guard let entry = open[key] else { continue }
            open[key]!.connection.state = .ending
            entry.stream?.end()
            if entry.socket >= 0 { shutdown(entry.socket, Int32(SHUT_RDWR)) }
        }
    }
}
