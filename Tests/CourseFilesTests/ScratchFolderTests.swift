import CourseFiles
import Foundation
import Testing

struct ScratchFolderTests {
    /// Two folders asked for with one prefix are two folders, each named by the prefix and
    /// the six characters `mkdtemp` chose, for this user alone; none is made where there is
    /// no parent folder.
    @Test func aNewFolderOfItsOwnEachTime() throws {
        let parent = NSTemporaryDirectory() + "/coursebook-scratch-test-\(getpid())"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let first = try #require(makeScratchFolder(prefix: parent + "/making-"))
        let second = try #require(makeScratchFolder(prefix: parent + "/making-"))
        #expect(first != second)
        for folder in [first, second] {
            #expect(folder.hasPrefix(parent + "/making-"))
            #expect(folder.count == (parent + "/making-").count + 6)
            var info = stat()
            #expect(stat(folder, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFDIR)
            #expect(info.st_mode & 0o777 == 0o700)
        }
        #expect(makeScratchFolder(prefix: parent + "/missing/making-") == nil)
    }
}
