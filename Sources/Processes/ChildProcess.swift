import CProcess
import CourseFiles
import CourseModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which stream of a child some bytes came from.
package enum ChildStream: Sendable { case standardOutput, standardError }

/// Watches a running child: receives its output as it comes and decides when to stop it.
package protocol ChildWatcher {
    /// New bytes from one stream. Returns false to kill the child now.
    mutating func received(_ bytes: ArraySlice<UInt8>, from stream: ChildStream,
                           at time: ContinuousClock.Instant) -> Bool
    /// When the child must be killed if it has not finished; nil for no limit.
    var deadline: ContinuousClock.Instant? { get }
    /// The deadline passed and the child is being killed.
    mutating func deadlinePassed()
    /// The launcher stopped the program at a limit (`memory`, `processes`, `files`,
    /// `space /tmp`, see `coursebook-launcher`).
    mutating func launcherStopped(atLimit name: String)
}

extension ChildWatcher {
    package mutating func launcherStopped(atLimit name: String) {}
}

/// Collects both streams whole, with an optional time limit.
package struct CollectingWatcher: ChildWatcher {
    package var standardOutput: [UInt8] = []
    package var standardError: [UInt8] = []
    package var deadline: ContinuousClock.Instant?
    package var timedOut = false
    /// The limit at which a launcher stopped the program, if it did.
    package var limit: String?

    package init(timeLimit: Duration? = nil) {
        deadline = timeLimit.map { ContinuousClock.now + $0 }
    }

    package mutating func received(_ bytes: ArraySlice<UInt8>, from stream: ChildStream,
                                   at time: ContinuousClock.Instant) -> Bool {
        switch stream {
        case .standardOutput: standardOutput += bytes
        case .standardError: standardError += bytes
        }
        return true
    }

    package mutating func deadlinePassed() { timedOut = true }

    package mutating func launcherStopped(atLimit name: String) { limit = name }
}

/// A program to start: its path, arguments, environment and working directory.
package struct ChildProcess: Sendable {
    package var executable: String
    package var arguments: [String]
    /// Variables set on top of this process's environment, or instead of it.
    package var environment: [String: String] = [:]
    /// Whether the child also gets this process's environment (a compiler does; a scenario
    /// program gets `environment` alone, so that no token of the caller reaches it).
    package var inheritsEnvironment = true
    package var workingDirectory: String?
    /// Whether the child reports how its program ended on descriptor 3 (`coursebook-launcher`:
    /// `e<status>`, `s<signal>`, or `l<limit>`), which then wins over the child's own ending.
    package var reportsEnding = false
    /// Whether the child's memory is laid out anew on every run. A scenario program's is not
    /// (`personality(ADDR_NO_RANDOMIZE)`, as `setarch -R`, which bubblewrap passes on), so that
    /// an address it prints is the same on every run.
    package var randomizesAddresses = true
    /// A file the child reads as its standard input; nil for /dev/null.
    package var standardInput: String?
    /// Bytes the child reads as its standard input instead, through a pipe that then ends (at
    /// most `PIPE_BUF`, written before the child starts): no file holds them, so nothing the
    /// child runs can read them again later (a group's token, see `GroupOutput`).
    package var standardInputBytes: [UInt8]?
    /// Files the child gets open for reading, from descriptor 4 up in this order (bubblewrap
    /// copies a program into the sandbox from one): opened by this process, so that the child
    /// needs no right to their folders.
    package var passedFiles: [String] = []
    /// The work this child is part of: when it is cancelled, the child's process group is
    /// killed at once (as at a deadline), and once it is cancelled no child starts.
    package var cancellation: Cancellation?

    package init(executable: String, arguments: [String], environment: [String: String] = [:],
                 inheritsEnvironment: Bool = true, workingDirectory: String? = nil, reportsEnding: Bool = false,
                 passedFiles: [String] = []) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.inheritsEnvironment = inheritsEnvironment
        self.workingDirectory = workingDirectory
        self.reportsEnding = reportsEnding
        self.passedFiles = passedFiles
    }

    /// The descriptor of the first of `passedFiles` in the child.
    package static let firstPassedDescriptor: Int32 = 4

    /// The descriptor on which a launcher reports the ending.
    package static let endingDescriptor: Int32 = 3

    /// How long the pipes are still read after the child ended, or after it was killed, for
    /// output a descendant still holds: then they are closed, so that a process that keeps
    /// them open (a daemon) cannot hold the run.
    static let drainAfterEnd: Duration = .milliseconds(200)
    static let drainAfterKill: Duration = .seconds(1)

    package struct LaunchError: Error, CustomStringConvertible {
        package var executable: String
        package var code: Int32
        package var description: String {
            "cannot start \(executable): \(String(cString: strerror(code)))"
        }
    }

    /// Runs the child to its end with standard input from /dev/null, handing its output to the
    /// watcher. The child gets a process group of its own, so that a kill also reaches the
    /// processes it started (a compiler's jobs); what escapes the group is ended when the
    /// child is (see `ProcessControl`).
    package func run<Watcher: ChildWatcher>(watching watcher: inout Watcher) throws(LaunchError) -> Termination {
        if cancellation?.isCancelled == true { throw LaunchError(executable: executable, code: ECANCELED) }
        var pipes = ChildPipes()
        // Whatever is still open when the run ends, or when the child cannot start, is closed.
        defer { pipes.closeAll() }
        try pipes.open(endingToo: reportsEnding, executable: executable)
        let passed = openPassedFiles()
        defer { for descriptor in passed where descriptor >= 0 { close(descriptor) } }
        if let missing = passed.firstIndex(of: -1) {
            throw LaunchError(executable: passedFiles[missing], code: errno)
        }
        if let bytes = standardInputBytes {
            try pipes.openInput(bytes, executable: executable)
        }
        let started = spawn(pipes, passed: passed)
        pipes.closeChildEnds()
        guard started.status == 0 else { throw LaunchError(executable: executable, code: started.status) }
        return waitForEnd(of: started.pid, pipes: &pipes, watcher: &watcher)
    }

    /// `passedFiles` opened close-on-exec (the child gets its own copies), above the
    /// descriptors the child is given, so that no copy overwrites one not yet copied; -1 for
    /// one that cannot be opened.
    private func openPassedFiles() -> [Int32] {
        passedFiles.map { path -> Int32 in
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0, opened < 16 else { return opened }
            defer { close(opened) }
            return fcntl(opened, F_DUPFD_CLOEXEC, 16)
        }
    }

    /// Reads the child's pipes to their end (see `pump`), then waits for it and ends what it
    /// left behind: how it ended, as the launcher reported it when it reports one.
    private func waitForEnd<Watcher: ChildWatcher>(of pid: pid_t, pipes: inout ChildPipes,
                                                   watcher: inout Watcher) -> Termination {
        // A cancellation kills the group from the cancelling thread; the pump then sees the
        // child end. It is unregistered before the child is waited for, while its ID is still
        // its own.
        let registration = cancellation?.register { _ = Glibc.kill(-pid, SIGKILL) }
        let ended = coursebook_pidfd_open(pid)
        pump(pid: pid, output: pipes.output[0], error: pipes.error[0], ended: ended, watcher: &watcher)
        pipes.closeOutputs()
        if ended >= 0 { close(ended) }

        // What the child left behind in its group (its ID stays reserved until it is waited for),
        // then the child, then what left the group and lost its parent. Without a pidfd the
        // child may still run here: it is waited for first.
        var waitStatus: Int32 = 0
        cancellation?.unregister(registration)
        if ended >= 0 { kill(-pid, SIGKILL) }
        while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
        if ended < 0 { kill(-pid, SIGKILL) }
        ProcessControl.ended(pid)
        ProcessControl.holdIfStopping()
        ProcessControl.endOrphans()
        if reportsEnding {
            switch Self.readEnding(pipes.ending[0]) {
            case .ended(let reported): return reported
            case .limit(let name):
                watcher.launcherStopped(atLimit: name)
                return .signaled(SIGKILL)
            case nil: break
            }
        }
        let signal = waitStatus & 0x7f
        return signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
    }

    /// What a launcher reported: how the program ended, or the limit at which it stopped it.
    enum Ending: Equatable {
        case ended(Termination)
        case limit(String)
    }

    /// What a launcher wrote on the ending descriptor, once every writer is gone: `e0`, `s4`,
    /// `lmemory`.
    private static func readEnding(_ descriptor: Int32) -> Ending? {
        var bytes = [UInt8](repeating: 0, count: 32)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read > 0 { count += read } else if read < 0, errno == EINTR { continue } else { break }
        }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        if text.first == "l", text.count > 1 { return .limit(String(text.dropFirst())) }
        guard let kind = text.first, let number = Int32(text.dropFirst()) else { return nil }
        switch kind {
        case "e": return .ended(.exited(number))
        case "s": return .ended(.signaled(number))
        default: return nil
        }
    }

    /// Reads both pipes until both are closed, killing the child's group when the watcher asks
    /// or its deadline passes. Once the child has ended (`ended`, a pidfd, turns readable) or
    /// was killed, the pipes are read for a short while more and then left: a descendant that
    /// holds them open does not hold the run.
    private func pump<Watcher: ChildWatcher>(
        pid: pid_t, output: Int32, error: Int32, ended: Int32, watcher: inout Watcher
    ) {
        var open: [(fd: Int32, stream: ChildStream)] = [(output, .standardOutput), (error, .standardError)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var killed = false
        var watchingEnd = ended >= 0
        /// When to stop reading, once the child ended or was killed.
        var drainUntil: ContinuousClock.Instant?
        func kill() {
            if !killed {
                Glibc.kill(-pid, SIGKILL)
                killed = true
                let limit = ContinuousClock.now + Self.drainAfterKill
                drainUntil = min(drainUntil ?? limit, limit)
            }
        }
        func milliseconds(until instant: ContinuousClock.Instant) -> Int32 {
            let remaining = instant - ContinuousClock.now
            guard remaining > .zero else { return 0 }
            let (seconds, attoseconds) = remaining.components
            return Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
        }

        // Until the pipes are closed and the child has ended: a child that closes its output and
        // goes on is still held to its deadline.
        while !open.isEmpty || (watchingEnd && !killed) {
            var timeout: Int32 = -1
            if !killed, let deadline = watcher.deadline {
                if deadline <= ContinuousClock.now {
                    watcher.deadlinePassed()
                    kill()
                } else {
                    timeout = milliseconds(until: deadline)
                }
            }
            if let drainUntil {
                if drainUntil <= ContinuousClock.now { break }
                let left = milliseconds(until: drainUntil)
                timeout = timeout < 0 ? left : min(timeout, left)
            }
            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            if watchingEnd { fds.append(pollfd(fd: ended, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                kill()
                break
            }
            if watchingEnd, fds.removeLast().revents != 0 {
                // The child ended; its pipes close now unless a descendant holds them.
                watchingEnd = false
                let limit = ContinuousClock.now + Self.drainAfterEnd
                drainUntil = min(drainUntil ?? limit, limit)
            }
            var closed: [Int32] = []
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    let keepGoing = watcher.received(buffer[0..<count], from: open[index].stream,
                                                     at: ContinuousClock.now)
                    if !keepGoing { kill() }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    closed.append(entry.fd)
                }
            }
            open.removeAll { closed.contains($0.fd) }
        }
    }
}

/// The full path of a program found on `PATH`, nil when there is none.
package func findOnPath(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    for folder in (path ?? "").split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}
