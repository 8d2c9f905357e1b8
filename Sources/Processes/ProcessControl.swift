import CProcess
import Foundation
import CourseFiles
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every process this run starts, so that none outlives it. Each child leads a process group
/// of its own and is recorded here while it runs. The `coursebook` command also makes itself a
/// child subreaper (`adoptOrphans()`), so that a descendant that leaves its group (`setsid()`)
/// and loses its parent becomes its child, where `endOrphans()` finds and ends it; a library
/// user that has children of its own (a test driving a browser) does not. An interrupted run
/// ends them all with `endAll()`.
package enum ProcessControl {
    /// The children started and not yet waited for, by process ID (each its group's leader).
    private static let children = Locked<Set<pid_t>>([])

    /// Whether this process adopts orphaned descendants and ends them.
    private static let adopting = Atomic<Bool>(false)

    /// Makes this process the subreaper of its descendants: for a process whose every child is
    /// started here (the `coursebook` command).
    package static func adoptOrphans() {
        if coursebook_become_subreaper() == 0 { adopting.store(true, ordering: .relaxed) }
    }

    /// Starts a child with `spawn` and records it, both under the lock, so that `endOrphans()`
    /// never takes a child that has just started for an orphan.
    static func started(_ spawn: () -> (status: Int32, pid: pid_t)) -> (status: Int32, pid: pid_t) {
        children.withLock { children in
            let result = spawn()
            if result.status == 0 { children.insert(result.pid) }
            return result
        }
    }

    /// The child was waited for.
    static func ended(_ pid: pid_t) {
        _ = children.withLock { $0.remove(pid) }
    }

    /// Ends every descendant that is no longer below a child of ours: processes that left
    /// their group and whose parent ended, adopted by this process as subreaper. Repeats until
    /// none is left, since ending one may orphan its own children.
    package static func endOrphans() {
        guard adopting.load(ordering: .relaxed) else { return }
        let me = getpid()
        for _ in 0..<64 {
            let orphans = children.withLock { children -> [pid_t] in
                let found = childrenOf(me).filter { !children.contains($0) }
                for pid in found { kill(pid, SIGKILL) }
                return found
            }
            guard !orphans.isEmpty else { return }
            for pid in orphans {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            }
        }
    }

    /// Set when the run is being stopped: a thread whose child has just ended waits for the
    /// exit instead of reporting the ending (a scenario killed by the stop is no result).
    private static let stopping = Atomic<Bool>(false)

    static func holdIfStopping() {
        while stopping.load(ordering: .relaxed) { pause() }
    }

    /// Ends every process of the run at once: each child's whole group, then the orphans. For
    /// an interrupted run (a signal), which exits right after.
    package static func endAll() {
        stopping.store(true, ordering: .relaxed)
        let groups = children.withLock { Array($0) }
        for pid in groups { kill(-pid, SIGKILL) }
        endOrphans()
    }

    /// The processes whose parent is `parent`, read from `/proc`.
    static func childrenOf(_ parent: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [pid_t] = []
        for entry in entries {
            guard let pid = pid_t(entry), pid != parent,
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // "pid (name) state ppid ...": the name may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == parent { found.append(pid) }
        }
        return found
    }
}
