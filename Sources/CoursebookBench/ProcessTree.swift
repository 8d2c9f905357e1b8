import Foundation
#if canImport(Glibc)
import Glibc
#endif

// MARK: The memory of a process tree

/// How the tree's memory is measured, as the table says it.
let treeMemoryMethod = "the sum of the resident memory (RSS) of the measured process and every process it started, still running, read from /proc every \(Int(TreeSampler.interval * 1000)) ms (a child still running its parent's program, between posix_spawn and exec, counted once, with its parent); the peak of those sums"

/// The summed resident memory of the tree below `root` now, in kilobytes. A child whose program
/// is still its parent's has not reached its exec yet: posix_spawn's child runs in its parent's
/// memory until then (a fork's in a copy-on-write copy of it), whose resident size /proc
/// reports for both, so the parent's count already holds it. Counted twice, every start of
/// Pagefind from a large build would show the build's memory doubled for a moment.
func treeResidentKilobytes(of root: pid_t) -> Int {
    var sum = 0
    var waiting: [(pid: pid_t, parentProgram: String?)] = [(root, nil)]
    while let (next, parentProgram) = waiting.popLast() {
        let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(next)/exe")
        if parentProgram == nil || program != parentProgram { sum += residentKilobytes(of: next) }
        let tasks = "/proc/\(next)/task"
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let children = try? String(contentsOfFile: "\(tasks)/\(thread)/children", encoding: .utf8) else { continue }
            waiting += children.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                .map { ($0, program ?? "") }
        }
    }
    return sum
}

/// The resident memory of one process now, in kilobytes (0 when it has ended).
func residentKilobytes(of pid: pid_t) -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// Samples the summed resident memory of a process tree on a thread of its own until stopped;
/// the largest sum seen is the tree's peak.
final class TreeSampler: @unchecked Sendable {
    static let interval = 0.02
    private let lock = NSLock()
    private var running = true
    private var peak = 0
    private let done = DispatchSemaphore(value: 0)

    init(root: pid_t) {
        Thread { [self] in
            while lock.withLock({ running }) {
                let sum = treeResidentKilobytes(of: root)
                lock.withLock { peak = max(peak, sum) }
                Thread.sleep(forTimeInterval: Self.interval)
            }
            done.signal()
        }.start()
    }

    /// Stops sampling (call it before the root is reaped: its pid could be reused) and says
    /// the peak, in kilobytes.
    func stop() -> Int {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak }
    }
}

/// Waits for `pid` to end without reaping it (so that its tree can still be sampled up to its
/// end), then stops the sampler, then reaps it with wait4 for its status and resource use.
func waitMeasured(_ pid: pid_t, sampler: TreeSampler) -> (status: Int32, usage: rusage, treePeak: Int) {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
    let treePeak = sampler.stop()
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    return (status, usage, treePeak)
}

func cpuSeconds(_ usage: rusage) -> Double {
    Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
