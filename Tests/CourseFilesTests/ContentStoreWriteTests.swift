import CourseFiles
import Foundation
import Testing

/// A store that cannot be written goes on (the next run does the work again) and keeps why,
/// for the command to say.
struct ContentStoreWriteTests {
    @Test func theFirstWriteThatFailsIsKept() throws {
        let root = NSTemporaryDirectory() + "/coursebook-store-write-\(getpid())"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }

        // Written and read back: nothing to say.
        let store = ContentStore(folder: root + "/store")
        store.write([("kept", Array("a".utf8))], suffix: "out")
        #expect(store.read("kept", suffix: "out") == Array("a".utf8))
        #expect(store.writeProblem == nil)

        // An entry whose name a folder holds (a rename cannot replace it): not written, and said,
        // also by the store it was copied from (the runner writes through copies of its cache,
        // the check asks the one it holds).
        let copy = store
        try FileManager.default.createDirectory(atPath: root + "/store/blocked.out/inside", withIntermediateDirectories: true)
        copy.write([("blocked", Array("b".utf8)), ("after", Array("c".utf8))], suffix: "out")
        #expect(store.writeProblem == "cannot write in \(root)/store: Is a directory", "\(store.writeProblem ?? "none")")
        #expect(store.read("after", suffix: "out") == Array("c".utf8))

        // A folder that cannot be made (a file stands where its parent would be).
        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        let below = ContentStore(folder: root + "/file/store")
        below.write([("k", Array("e".utf8))], suffix: "out")
        #expect(below.writeProblem == "cannot make \(root)/file/store: Not a directory", "\(below.writeProblem ?? "none")")
        #expect(below.problem == nil)
    }
}
