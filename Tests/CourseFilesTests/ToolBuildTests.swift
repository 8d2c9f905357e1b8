import CourseFiles
import Foundation
import Testing

/// Cache keys name the build that wrote them: a rebuilt program (another file, or the same
/// file written again) does not take what the older one kept.
struct ToolBuildTests {
    @Test func aRebuiltProgramHasAnotherIdentity() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("toolbuild-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("one build".utf8).write(to: URL(fileURLWithPath: file))
        let first = ToolBuild.identity(of: file)
        #expect(first == ToolBuild.identity(of: file))
        // The same size, written again a second later: another build.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 1)], ofItemAtPath: file)
        #expect(ToolBuild.identity(of: file) != first)
        try Data("two builds".utf8).write(to: URL(fileURLWithPath: file))
        #expect(ToolBuild.identity(of: file) != first)
        #expect(ToolBuild.identity(of: file + "-missing") == "unknown")
    }

    @Test func theKeyVersionNamesTheRunningBuild() {
        #expect(ToolBuild.identity != "unknown")
        #expect(ToolBuild.keyVersion("0.1.0") == "0.1.0 build \(ToolBuild.identity)")
    }
}
