import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The signals that stop a run (SIGINT, Ctrl-C; SIGTERM; SIGHUP), taken from the default
/// action, which would end the process with its children still running and its scratch
/// folders in place: each runs the stop it is given instead, on a queue of its own. For a
/// process of its own (the `coursebook` command), not a library user, which may have signal
/// handling of its own.
package enum StopSignals {
    /// The signal sources, kept for the life of the process.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// `stop` runs, once a signal of `signals` comes, with that signal; it ends the process.
    package static func handle(_ signals: [Int32], _ stop: @escaping @Sendable (Int32) -> Never) {
        for signalNumber in signals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global(qos: .userInteractive))
            source.setEventHandler { stop(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }
}
