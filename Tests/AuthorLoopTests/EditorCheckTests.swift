import CourseFiles
import CourseModel
import CoursePipeline
import Foundation
import TestSupport
import Testing

/// The pipeline's entry point for an editor: one lesson, its unsaved text, never written.
@Suite struct EditorCheckTests {
    func copy() throws -> URL {
        let course = temporaryFolder("editor-check").appendingPathComponent("editor")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("editor"), to: course)
        try? FileManager.default.removeItem(at: course.appendingPathComponent(".coursebook-cache"))
        return course
    }

    @Test func theUnsavedTextIsCheckedAndNotWritten() throws {
        let course = try copy()
        let file = course.appendingPathComponent("03-compile.md")
        let onDisk = try Data(contentsOf: file)
        let unsaved = "# Compile\n\n```swift scenario\nprint(\"yeni\")\n```\n\n```output\nyeni\n```\n"
        let outcome = try Pipeline().check(lesson: "03-compile.md", in: course.path,
                                           unsaved: ["03-compile.md": Array(unsaved.utf8)], options: SharedOptions())
        guard case .checked(let checked, let result) = outcome else {
            Issue.record("cancelled")
            return
        }
        // Only the lesson's scenario ran, and it passed: the unsaved text, not the file's error.
        #expect(result.report.results.map(\.status) == [.passed])
        #expect(result.report.diagnostics.map(\.id) == [])
        #expect(checked.lessons.map(\.fileName) == ["01-output.md", "02-notes.md", "03-compile.md"])
        #expect(try Data(contentsOf: file) == onDisk)
    }

    @Test func aLessonNotYetSavedIsALessonOfTheCourse() throws {
        let course = try copy()
        let outcome = try Pipeline().check(lesson: "04-new.md", in: course.path,
                                           unsaved: ["04-new.md": Array("# New\n\nDR3. A third note.\n".utf8)], options: SharedOptions())
        guard case .checked(let checked, let result) = outcome else {
            Issue.record("cancelled")
            return
        }
        #expect(checked.lessons.last?.fileName == "04-new.md")
        #expect(result.report.diagnostics.map(\.id) == [])
        #expect(!FileManager.default.fileExists(atPath: course.appendingPathComponent("04-new.md").path))
    }

    @Test func aCancelledCheckRunsNothing() throws {
        let course = try copy()
        let cancelled = Cancellation()
        cancelled.cancel()
        let outcome = try Pipeline().check(lesson: "01-output.md", in: course.path, unsaved: [:], options: SharedOptions(),
                                           cancellation: cancelled)
        guard case .cancelled = outcome else {
            Issue.record("not cancelled: \(outcome)")
            return
        }
        // Nothing ran, so nothing was kept.
        let cache = course.appendingPathComponent(".coursebook-cache").path
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []
        #expect(kept.filter { !$0.hasPrefix(".") } == [])
    }
}
