import BackgroundWork
import CourseModel
import LessonParsing

/// What the fuzz targets share: a lesson read from bytes the way the loader reads a file.
/// (Built by scripts/fuzz with swiftc -sanitize=fuzzer; not part of the package.)
func fuzzLesson(_ bytes: [UInt8], typography: Typography = .plain) -> (Lesson, LessonDocument, [Diagnostic])? {
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    let document = LessonMarkdown.parse(text, typography: typography, lessonPages: ["02-b.md": "02-b.html"],
                                        counts: WorkCounts())
    let (lesson, findings) = LessonAssembly.assemble(fileName: "01-a.md", path: "01-a.md", source: SourceText(bytes),
                                                     elements: document.elements)
    return (lesson, document, findings)
}

/// Stops the run with the input saved: a property does not hold.
func violated(_ property: String, _ details: @autoclosure () -> String) -> Never {
    fatalError("property violated: \(property)\n\(details())")
}
