package import CourseFiles
package import CourseModel
import LessonParsing

/// What an editor's check of one lesson came to: the course as it was read (unsaved texts in
/// place of their files) and the check of that lesson, or nothing when a newer edit made it
/// pointless before it ended.
package enum EditorCheck: Sendable {
    case checked(course: Course, checked: Pipeline.Checked)
    case cancelled
}

extension Pipeline {
    /// `NN-slug.md`: what the course's folder holds as lessons.
    package static func isLessonFileName(_ name: String) -> Bool { CourseLoader.isLessonFileName(name) }

    /// The check `coursebook lsp` runs for one lesson an editor shows: `check LESSON.md` on the
    /// course as the editor holds it. The course is read whole from its folder, with the texts
    /// in `unsaved` (by file name) instead of their files, so rules that span the course are
    /// judged on all of it; only the lesson's scenarios run, through the same cache as `check`;
    /// only the findings that land in it (or in course.json and the core) are kept. Nothing is
    /// written: no lesson, no report. A `cancellation` stops it wherever it is (see the run
    /// step).
    package func check(lesson fileName: String, in folder: String, unsaved: [String: [UInt8]],
                       options: SharedOptions,
                       cancellation: Cancellation? = nil) throws(PipelineError) -> EditorCheck {
        var shared = options
        shared.course = folder
        var context = PipelineContext(.check, options: shared)
        context.lessons = [fileName]
        context.unsaved = unsaved
        context.cancellation = cancellation
        context.writes = false
        do {
            try run(PipelineStep.check, &context)
            return .checked(course: context.loaded.course, checked: context.checked!)
        } catch where error.status == .interrupted && error.diagnostic.id == .checkCancelled {
            return .cancelled
        }
    }
}
