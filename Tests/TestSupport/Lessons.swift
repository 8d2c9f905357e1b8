import BackgroundWork
import CourseModel
import Foundation
import LessonParsing

/// A lesson read from text the way the loader reads a file.
package func lesson(_ text: String, path: String = "lessons/01-test.md") -> (Lesson, [Diagnostic]) {
    let name = (path as NSString).lastPathComponent
    return LessonAssembly.assemble(fileName: name, path: path, source: SourceText(text),
                                   elements: LessonMarkdown.parse(text, counts: WorkCounts()).elements)
}

/// A course of the given lessons (text), with one core file that is never compiled.
package func course(_ lessons: [String], core: String = "struct Core {}\n") -> (Course, [Diagnostic]) {
    var read: [Lesson] = []
    var diagnostics: [Diagnostic] = []
    for (index, text) in lessons.enumerated() {
        let (one, found) = lesson(text, path: "lessons/0\(index + 1)-lesson.md")
        read.append(one)
        diagnostics += found
    }
    let coreFile = CoreFile(name: "Core.swift", path: "/nowhere/Core.swift",
                            displayPath: "Sources/Core.swift", text: core)
    return (Course(folder: "lessons", folderPath: "/nowhere/lessons",
                   config: CourseConfig(title: "T", language: "en", core: ["../Sources/Core.swift"]),
                   coreFiles: [coreFile], lessons: read), diagnostics)
}

extension Array where Element == Diagnostic {
    /// The findings' kinds, by their stable names.
    package var ids: [String] { map(\.id.rawValue) }
}
