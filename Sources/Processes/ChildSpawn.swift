import CProcess
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The pipes between this process and one child: its standard output and error, the
/// descriptor a launcher reports its ending on, and its standard input when it is given as
/// bytes. Each end is closed once; every one made close-on-exec, so that a child started at
/// the same time from another thread does not keep them open (we would wait for its end
/// instead of ours).
struct ChildPipes {
    var output: [Int32] = [-1, -1]
    var error: [Int32] = [-1, -1]
    var ending: [Int32] = [-1, -1]
    var input: [Int32] = [-1, -1]

    /// Output, error and, for a launcher, the ending pipe.
    mutating func open(endingToo: Bool, executable: String) throws(ChildProcess.LaunchError) {
        guard coursebook_pipe_cloexec(&output) == 0, coursebook_pipe_cloexec(&error) == 0,
              !endingToo || coursebook_pipe_cloexec(&ending) == 0 else {
            throw ChildProcess.LaunchError(executable: executable, code: errno)
        }
    }

    /// A pipe holding `bytes` and then its end, read by the child as its standard input (at
    /// most `PIPE_BUF`, so that the write never waits for a reader).
    mutating func openInput(_ bytes: [UInt8], executable: String) throws(ChildProcess.LaunchError) {
        guard bytes.count <= Int(PIPE_BUF) else { throw ChildProcess.LaunchError(executable: executable, code: E2BIG) }
        guard coursebook_pipe_cloexec(&input) == 0,
              bytes.withUnsafeBytes({ write(input[1], $0.baseAddress, $0.count) }) == bytes.count else {
            throw ChildProcess.LaunchError(executable: executable, code: errno)
        }
        Self.close(&input[1])
    }

    /// The ends the child was given copies of, once it has started (or failed to).
    mutating func closeChildEnds() {
        Self.close(&output[1]); Self.close(&error[1]); Self.close(&ending[1]); Self.close(&input[0])
    }

    /// Output and error, once they are read to their end.
    mutating func closeOutputs() {
        Self.close(&output[0]); Self.close(&error[0])
    }

    mutating func closeAll() {
        for index in 0..<2 {
            Self.close(&output[index]); Self.close(&error[index]); Self.close(&ending[index]); Self.close(&input[index])
        }
    }

    private static func close(_ descriptor: inout Int32) {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}

extension ChildProcess {
    /// Starts the child with `posix_spawn`: its descriptors as `pipes` and `passed` give them
    /// and nothing else, a process group of its own, no signal blocked, SIGPIPE at its default,
    /// its environment, and its address layout fixed when asked.
    func spawn(_ pipes: ChildPipes, passed: [Int32]) -> (status: Int32, pid: pid_t) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        addDescriptors(to: &actions, pipes, passed: passed)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.setSignalsAndGroup(&attributes)

        var variables = inheritsEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (name, value) in environment { variables[name] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let randomizes = randomizesAddresses
        return ProcessControl.started {
            var pid: pid_t = 0
            // The persona is the calling thread's own: set for this spawn, then given back.
            let persona = randomizes ? -1 : coursebook_disable_address_randomization()
            let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            coursebook_restore_personality(persona)
            return (status, pid)
        }
    }

    /// Standard input (the pipe of bytes, a file, or /dev/null), output and error, the ending
    /// descriptor, the passed files from descriptor 4 up, the working directory; nothing else
    /// this process holds (or inherited from whoever started it) reaches the child.
    private func addDescriptors(to actions: inout posix_spawn_file_actions_t, _ pipes: ChildPipes, passed: [Int32]) {
        if pipes.input[0] >= 0 {
            posix_spawn_file_actions_adddup2(&actions, pipes.input[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, standardInput ?? "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, pipes.output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipes.error[1], 2)
        if reportsEnding { posix_spawn_file_actions_adddup2(&actions, pipes.ending[1], Self.endingDescriptor) }
        for (offset, descriptor) in passed.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Self.firstPassedDescriptor + Int32(offset))
        }
        coursebook_spawn_add_closefrom(&actions, passed.isEmpty ? (reportsEnding ? Self.endingDescriptor + 1 : 3)
                                                                : Self.firstPassedDescriptor + Int32(passed.count))
        if let workingDirectory {
            coursebook_spawn_add_chdir(&actions, workingDirectory)
        }
    }

    /// A process group of its own (so that a kill reaches what it starts), no signal blocked,
    /// SIGPIPE at its default.
    private static func setSignalsAndGroup(_ attributes: inout posix_spawnattr_t) {
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
    }
}
