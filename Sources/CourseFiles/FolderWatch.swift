import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Changes to files in a set of folders, as the kernel reports them (inotify): the process
/// sleeps until something happens, it never looks at the files in a loop. A burst of events
/// (an editor writing a temporary file and renaming it over the lesson, a `git checkout`) is
/// one change: `nextChanges` returns once the folders have been quiet for a moment.
package final class FolderWatch {
    /// Why the kernel will not watch (no inotify, or the user's limit of watches is reached).
    package struct Unavailable: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    private let descriptor: Int32
    /// The folder of each watch descriptor.
    private var folders: [Int32: String] = [:]

    /// What counts as a change: a file written and closed, created, deleted, or renamed into or
    /// out of a folder; a watched folder that is itself deleted or moved.
    private static let events: UInt32 = UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)

    package init() throws(Unavailable) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw Unavailable(description: "cannot watch files (inotify): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// Watches exactly `wanted` from now on: folders that are new are added, folders no longer
    /// wanted are let go. A folder that does not exist (yet) is left out; one the kernel refuses
    /// is an error.
    package func watch(_ wanted: Set<String>) throws(Unavailable) {
        for (watch, folder) in folders where !wanted.contains(folder) {
            inotify_rm_watch(descriptor, watch)
            folders[watch] = nil
        }
        let watched = Set(folders.values)
        for folder in wanted.sorted() where !watched.contains(folder) {
            let watch = inotify_add_watch(descriptor, folder, Self.events | UInt32(IN_ONLYDIR))
            if watch < 0 {
                if errno == ENOENT || errno == ENOTDIR { continue }
                throw Unavailable(description: "cannot watch \(folder): \(String(cString: strerror(errno)))"
                    + (errno == ENOSPC ? " (the limit fs.inotify.max_user_watches is reached)" : ""))
            }
            folders[watch] = folder
        }
    }

    /// The folders being watched.
    package var watchedFolders: Set<String> { Set(folders.values) }

    /// Sleeps until a file that `isRelevant` accepts changes, then until the folders have been
    /// quiet for `quiet` (or `longest` has passed since that first change), and returns the
    /// paths that changed, sorted. Events for other files (an editor's swap file) neither start
    /// nor end the wait on their own, but they do keep a burst open.
    package func nextChanges(quiet: Duration = .milliseconds(150), longest: Duration = .seconds(1),
                             isRelevant: (String) -> Bool) -> [String] {
        var changed: Set<String> = []
        var window: BurstWindow?
        while true {
            let timeout: Int32
            if let window {
                let left = ContinuousClock.now.duration(to: window.deadline)
                if left <= .zero { break }
                let (seconds, attoseconds) = left.components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            } else {
                timeout = -1
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 { continue }
            let paths = readEvents()
            let now = ContinuousClock.now
            let relevant = paths.filter(isRelevant)
            if window == nil {
                guard !relevant.isEmpty else { continue }
                window = BurstWindow(start: now, quiet: quiet, longest: longest)
            } else {
                window?.note(now)
            }
            changed.formUnion(relevant)
        }
        return changed.sorted()
    }

    /// The paths of the events waiting to be read; a folder's own path when the kernel lost
    /// events (its queue overflowed), so that the caller checks everything again.
    private func readEvents() -> [String] {
        var paths: [String] = []
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, capacity)
            if count <= 0 { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameLength = Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    paths.append(contentsOf: folders.values)
                } else if let folder = folders[event.wd] {
                    if nameLength > 0 {
                        let name = String(cString: buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self))
                        paths.append(folder + "/" + name)
                    } else {
                        paths.append(folder)
                    }
                }
                if event.mask & UInt32(IN_IGNORED) != 0 { folders[event.wd] = nil }
                offset += header + nameLength
            }
        }
        return paths
    }
}

/// When a burst of changes is over: `quiet` after its last event, and never later than
/// `longest` after its first, so that a file written again and again still gets a run.
package struct BurstWindow: Sendable, Equatable {
    package var start: ContinuousClock.Instant
    package var last: ContinuousClock.Instant
    package var quiet: Duration
    package var longest: Duration

    package init(start: ContinuousClock.Instant, quiet: Duration, longest: Duration) {
        self.start = start
        self.last = start
        self.quiet = quiet
        self.longest = longest
    }

    /// Another event of the burst.
    package mutating func note(_ time: ContinuousClock.Instant) {
        last = max(last, time)
    }

    /// When the burst counts as over.
    package var deadline: ContinuousClock.Instant {
        min(last + quiet, start + longest)
    }
}
