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

        // Close-on-exec here too; the child gets its own copies below. Above the descriptors the
        // child is given, so that no copy overwrites one not yet copied.
        let passed = passedFiles.map { path -> Int32 in
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0, opened < 16 else { return opened }
            defer { close(opened) }
            return fcntl(opened, F_DUPFD_CLOEXEC, 16)
        }
        defer { for descriptor in passed where descriptor >= 0 { close(descriptor) } }
        if let missing = passed.firstIndex(of: -1) {
            let code = errno
            close(outputPipe[0]); close(outputPipe[1]); close(errorPipe[0]); close(errorPipe[1])
            if reportsEnding { close(endingPipe[0]); close(endingPipe[1]) }
            throw LaunchError(executable: passedFiles[missing], code: code)
        }

        var inputPipe: [Int32] = [-1, -1]
        if let bytes = standardInputBytes {
            guard bytes.count <= Int(PIPE_BUF), coursebook_pipe_cloexec(&inputPipe) == 0,
                  bytes.withUnsafeBytes({ write(inputPipe[1], $0.baseAddress, $0.count) }) == bytes.count else {
                let code = bytes.count <= Int(PIPE_BUF) ? errno : E2BIG
                for descriptor in inputPipe where descriptor >= 0 { close(descriptor) }
                close(outputPipe[0]); close(outputPipe[1]); close(errorPipe[0]); close(errorPipe[1])
                if reportsEnding { close(endingPipe[0]); close(endingPipe[1]) }
                throw LaunchError(executable: executable, code: code)
            }
            close(inputPipe[1])
        }
        defer { if inputPipe[0] >= 0 { close(inputPipe[0]) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if inputPipe[0] >= 0 {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        if reportsEnding { posix_spawn_file_actions_adddup2(&actions, endingPipe[1], Self.endingDescriptor) }
        for (offset, descriptor) in passed.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Self.firstPassedDescriptor + Int32(offset))
        }
        // Nothing else this process holds (or inherited from whoever started it) reaches the child.
        coursebook_spawn_add_closefrom(&actions, passed.isEmpty ? (reportsEnding ? Self.endingDescriptor + 1 : 3)
                                                                : Self.firstPassedDescriptor + Int32(passed.count))
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

        let randomizes = randomizesAddresses
        let (status, pid) = ProcessControl.started {
            var pid: pid_t = 0
            // The persona is the calling thread's own: set for this spawn, then given back.
            let persona = randomizes ? -1 : coursebook_disable_address_randomization()
            let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            coursebook_restore_personality(persona)
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

        // A cancellation kills the group from the cancelling thread; the pump then sees the
        // child end. It is unregistered before the child is waited for, while its ID is still
        // its own.
        let registration = cancellation?.register { _ = Glibc.kill(-pid, SIGKILL) }
        let ended = coursebook_pidfd_open(pid)
        pump(pid: pid, output: outputPipe[0], error: errorPipe[0], ended: ended, watcher: &watcher)
        close(outputPipe[0])
        close(errorPipe[0])
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
            defer { close(endingPipe[0]) }
            switch Self.readEnding(endingPipe[0]) {
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
