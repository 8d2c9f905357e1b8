import CourseFiles
import CourseModel
import Processes
import Foundation

/// How the compiler's commands run: in `sandbox` (a sandbox of their own, see
/// `Sandbox.compilerProcess`) when scenarios run in one, else plainly under the launcher; each
/// process held to `memory` (`--compile-memory-limit`).
package struct CompilerConfinement: Sendable {
    var sandbox: Sandbox?
    var memory: Int
    var temporarySpace: Int

    package init(placement: Sandbox.Placement, limits: ScenarioLimits) {
        sandbox = placement.sandbox
        memory = limits.compilerMemory
        temporarySpace = limits.temporarySpace
    }
}

/// One command of a compile (the driver, a job of its plan, the linker), run as the
/// compiler's `confinement` says.
extension SwiftCompiler {
    /// How one command (the driver, or a job of its plan) ended and what it printed.
    struct Ran: Sendable {
        var termination: Termination
        var standardOutput: [UInt8]
        var standardError: [UInt8]
        var timedOut: Bool
        /// It reached the memory limit: the launcher stopped it, or an allocation failed.
        var outOfMemory = false
    }

    /// Runs `command` (a program and its arguments) to its end or the deadline, as
    /// `confinement` says (`jobs`: how many compiler jobs it runs at once); nil when it cannot
    /// start.
    func run(_ command: [String], in workingDirectory: String, until deadline: ContinuousClock.Instant?,
             jobs: Int = 1) -> Ran? {
        var watcher = CollectingWatcher(timeLimit: deadline.map { max($0 - ContinuousClock.now, .zero) })
        var child: ChildProcess
        if let confinement, let sandbox = confinement.sandbox {
            child = sandbox.compilerProcess(command, workingDirectory: workingDirectory, toolchain: toolchainFolder,
                                            writable: [workingDirectory] + (moduleCache.map { [$0] } ?? []),
                                            memory: confinement.memory, totalMemory: confinement.memory * jobs,
                                            space: confinement.temporarySpace)
        } else if let confinement, let launcher = Launcher.path {
            child = ChildProcess(executable: launcher,
                                 arguments: ["--memory", String(confinement.memory), String(ChildProcess.endingDescriptor)] + command,
                                 workingDirectory: workingDirectory, reportsEnding: true)
        } else {
            child = ChildProcess(executable: command[0], arguments: Array(command.dropFirst()), workingDirectory: workingDirectory)
        }
        child.cancellation = cancellation
        guard let termination = try? child.run(watching: &watcher) else { return nil }
        let failedAllocation = !termination.isSuccess && confinement != nil
            && Self.allocationFailures.contains { String(decoding: watcher.standardError, as: UTF8.self).contains($0) }
        return Ran(termination: termination, standardOutput: watcher.standardOutput,
                   standardError: watcher.standardError, timedOut: watcher.timedOut,
                   outOfMemory: watcher.limit == "memory" || failedAllocation)
    }

    /// What the compiler's tools print when an allocation fails under the memory limit: LLVM's
    /// allocator, the Swift runtime (in a macro's plugin), a thread that could not get its stack.
    static let allocationFailures = ["LLVM ERROR: out of memory", "Fatal error: failed to allocate ",
                                     "std::bad_alloc", "what():  Resource temporarily unavailable"]
}
