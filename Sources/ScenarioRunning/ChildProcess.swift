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
    /// Variables set on top of this process's environment.
    package var environment: [String: String] = [:]
    package var workingDirectory: String?

    package init(executable: String, arguments: [String], environment: [String: String] = [:],
                 workingDirectory: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
    }

    package struct LaunchError: Error, CustomStringConvertible {
        package var executable: String
        package var code: Int32
        package var description: String {
            "cannot start \(executable): \(String(cString: strerror(code)))"
        }
    }

    /// Runs the child to its end with standard input from /dev/null, handing its output to the
    /// watcher. The child gets a process group of its own, so that a kill also reaches the
    /// processes it started (a compiler's jobs).
    package func run<Watcher: ChildWatcher>(watching watcher: inout Watcher) throws(LaunchError) -> Termination {
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        // Close-on-exec: a child started at the same time from another thread must not keep
        // our pipes open, or we would wait for its end instead of ours.
        guard coursebook_pipe_cloexec(&outputPipe) == 0 else { throw LaunchError(executable: executable, code: errno) }
        guard coursebook_pipe_cloexec(&errorPipe) == 0 else {
            close(outputPipe[0]); close(outputPipe[1])
            throw LaunchError(executable: executable, code: errno)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
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

        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard status == 0 else {
            close(outputPipe[0]); close(errorPipe[0])
            throw LaunchError(executable: executable, code: status)
        }

        pump(pid: pid, output: outputPipe[0], error: errorPipe[0], watcher: &watcher)
        close(outputPipe[0])
        close(errorPipe[0])

        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
        let signal = waitStatus & 0x7f
        return signal == 0 ? .exited((waitStatus >> 8) & 0xff) : .signaled(signal)
    }

    /// Reads both pipes until both are closed, killing the child's group when the watcher asks
    /// or its deadline passes.
    private func pump<Watcher: ChildWatcher>(
        pid: pid_t, output: Int32, error: Int32, watcher: inout Watcher
    ) {
        var open: [(fd: Int32, stream: ChildStream)] = [(output, .standardOutput), (error, .standardError)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        var killed = false
        func kill() {
            if !killed { Glibc.kill(-pid, SIGKILL); killed = true }
        }

        while !open.isEmpty {
            var timeout: Int32 = -1
            if !killed, let deadline = watcher.deadline {
                let remaining = deadline - ContinuousClock.now
                if remaining <= .zero {
                    watcher.deadlinePassed()
                    kill()
                } else {
                    let (seconds, attoseconds) = remaining.components
                    timeout = Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
                }
            }
            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), killed ? -1 : timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                kill()
                break
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
