import CProcess
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
}

/// Collects both streams whole, with an optional time limit.
package struct CollectingWatcher: ChildWatcher {
    package var standardOutput: [UInt8] = []
    package var standardError: [UInt8] = []
    package var deadline: ContinuousClock.Instant?
    package var timedOut = false

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
    /// `e<status>` or `s<signal>`), which then wins over the child's own ending.
    package var reportsEnding = false
    /// A file the child reads as its standard input; nil for /dev/null.
    package var standardInput: String?

    package init(executable: String, arguments: [String], environment: [String: String] = [:],
                 inheritsEnvironment: Bool = true, workingDirectory: String? = nil, reportsEnding: Bool = false) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.inheritsEnvironment = inheritsEnvironment
        self.workingDirectory = workingDirectory
        self.reportsEnding = reportsEnding
    }

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
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        // Close-on-exec: a child started at the same time from another thread must not keep
        // our pipes open, or we would wait for its end instead of ours.
        guard coursebook_pipe_cloexec(&outputPipe) == 0 else { throw LaunchError(executable: executable, code: errno) }
        guard coursebook_pipe_cloexec(&errorPipe) == 0 else {
            close(outputPipe[0]); close(outputPipe[1])
            throw LaunchError(executable: executable, code: errno)
        }

        var endingPipe: [Int32] = [-1, -1]
        if reportsEnding, coursebook_pipe_cloexec(&endingPipe) != 0 {
            close(outputPipe[0]); close(outputPipe[1]); close(errorPipe[0]); close(errorPipe[1])
            throw LaunchError(executable: executable, code: errno)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        if reportsEnding { posix_spawn_file_actions_adddup2(&actions, endingPipe[1], Self.endingDescriptor) }
        // Nothing else this process holds (or inherited from whoever started it) reaches the child.
        coursebook_spawn_add_closefrom(&actions, reportsEnding ? Self.endingDescriptor + 1 : 3)
        if let workingDirectory {
            coursebook_spawn_add_chdir(&actions, workingDirectory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)

        var variables = inheritsEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (name, value) in environment { variables[name] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        let (status, pid) = ProcessControl.started {
            var pid: pid_t = 0
            let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            return (status, pid)
        }
        close(outputPipe[1])
        close(errorPipe[1])
        if reportsEnding { close(endingPipe[1]) }
        guard status == 0 else {
            close(outputPipe[0]); close(errorPipe[0])
            if reportsEnding { close(endingPipe[0]) }
            throw LaunchError(executable: executable, code: status)
        }

        let ended = coursebook_pidfd_open(pid)
        pump(pid: pid, output: outputPipe[0], error: errorPipe[0], ended: ended, watcher: &watcher)
        close(outputPipe[0])
        close(errorPipe[0])
        if ended >= 0 { close(ended) }

        // What the child left behind in its group (its ID stays reserved until it is waited for),
        // then the child, then what left the group and lost its parent. Without a pidfd the
        // child may still run here: it is waited for first.
        var waitStatus: Int32 = 0
        if ended >= 0 { kill(-pid, SIGKILL) }
        while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
        if ended < 0 { kill(-pid, SIGKILL) }
        ProcessControl.ended(pid)
        ProcessControl.holdIfStopping()
        ProcessControl.endOrphans()
        if reportsEnding {
            defer { close(endingPipe[0]) }
            if let reported = Self.readEnding(endingPipe[0]) { return reported }
        }
        let signal = waitStatus & 0x7f
        return signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
    }

    /// What a launcher wrote on the ending descriptor, once every writer is gone: `e0`, `s4`.
    private static func readEnding(_ descriptor: Int32) -> Termination? {
        var bytes = [UInt8](repeating: 0, count: 32)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read > 0 { count += read } else if read < 0, errno == EINTR { continue } else { break }
        }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        guard let kind = text.first, let number = Int32(text.dropFirst()) else { return nil }
        switch kind {
        case "e": return .exited(number)
        case "s": return .signaled(number)
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
