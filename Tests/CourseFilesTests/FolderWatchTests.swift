@testable import CourseFiles
import Foundation
import TestSupport
import Testing

struct BurstWindowTests {
    /// A burst ends when it has been quiet long enough, and never later than its longest.
    @Test func quietOrLongest() {
        let start = ContinuousClock.now
        var window = BurstWindow(start: start, quiet: .milliseconds(150), longest: .seconds(1))
        #expect(window.deadline == start + .milliseconds(150))
        window.note(start + .milliseconds(100))
        #expect(window.deadline == start + .milliseconds(250))
        window.note(start + .milliseconds(50))
        #expect(window.deadline == start + .milliseconds(250), "an earlier event does not shorten the wait")
        window.note(start + .milliseconds(950))
        #expect(window.deadline == start + .seconds(1))
    }
}

/// The kernel's notes, read through inotify, on a real folder.
@Suite(.serialized) struct FolderWatchTests {
    /// Writes on another thread after a moment, so that the watch is already asleep.
    func later(_ work: @escaping @Sendable () -> Void) {
        Thread {
            usleep(100_000)
            work()
        }.start()
    }

    /// Not a hidden file (Foundation, too, writes into one and renames it).
    func visible(_ path: String) -> Bool { !(path as NSString).lastPathComponent.hasPrefix(".") }

    /// An editor's save (a scratch file renamed over the lesson), done three times in a row:
    /// one change, naming the lesson alone.
    @Test func aBurstOfSavesIsOneChange() throws {
        let folder = temporaryFolder("folder-watch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = try FolderWatch()
        try watch.watch([folder.path])
        #expect(watch.watchedFolders == [folder.path])
        let lesson = folder.appendingPathComponent("01-a.md").path
        later {
            for step in 0..<3 {
                let scratch = folder.appendingPathComponent(".01-a.md.swp").path
                _ = FileManager.default.createFile(atPath: scratch, contents: Data("step \(step)\n".utf8))
                rename(scratch, lesson)
                usleep(20_000)
            }
        }
        let changes = watch.nextChanges(quiet: .milliseconds(200), isRelevant: visible)
        #expect(changes == [lesson])
    }

    /// A change the caller does not care about neither ends the wait nor is reported; the
    /// one after it is.
    @Test func irrelevantChangesDoNotWake() throws {
        let folder = temporaryFolder("folder-watch-quiet")
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let watch = try FolderWatch()
        try watch.watch([folder.path, sub.path, folder.appendingPathComponent("missing").path])
        #expect(watch.watchedFolders == [folder.path, sub.path])
        later {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(".hidden").path, contents: Data("x".utf8))
            usleep(400_000)
            _ = FileManager.default.createFile(atPath: sub.appendingPathComponent("plan.png").path, contents: Data("x".utf8))
        }
        let started = ContinuousClock.now
        let changes = watch.nextChanges(isRelevant: visible)
        #expect(changes == [sub.appendingPathComponent("plan.png").path])
        #expect(ContinuousClock.now - started > .milliseconds(400), "the hidden file woke the watch")

        // Let go of a folder: its changes are no longer seen.
        try watch.watch([sub.path])
        #expect(watch.watchedFolders == [sub.path])
        later {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("02-b.md").path, contents: Data("x".utf8))
            usleep(200_000)
            try? FileManager.default.removeItem(at: sub.appendingPathComponent("plan.png"))
        }
        #expect(watch.nextChanges(isRelevant: visible) == [sub.appendingPathComponent("plan.png").path])
    }
}
