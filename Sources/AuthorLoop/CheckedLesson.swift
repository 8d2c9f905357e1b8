package import CourseModel
import Foundation

/// One lesson as the editor's last check saw it: the course it was read in (with the editor's
/// unsaved texts), the check's report, and the document version that was checked. Every answer
/// the server gives about the lesson (findings, quick fixes, hovers, lenses) comes from here.
package struct CheckedLesson: Sendable {
    package var course: Course
    package var lessonIndex: Int
    package var report: CheckReport
    /// The editor's version of the text that was checked; nil for the file as saved.
    package var version: Int?
    /// When the check ended.
    package var finished: Date

    package init(course: Course, lessonIndex: Int, report: CheckReport, version: Int?, finished: Date = Date()) {
        self.course = course
        self.lessonIndex = lessonIndex
        self.report = report
        self.version = version
        self.finished = finished
    }

    package var lesson: Lesson { course.lessons[lessonIndex] }

    /// The result of each of the lesson's scenarios, by its block's identity.
    package var results: [Int: ScenarioResult] { report.results(ofLesson: lessonIndex) }

    /// The line of a block's closing fence (its last line when it has none).
    package static func lastLine(of block: CodeBlock) -> Int {
        block.fence == nil ? block.line + max(block.codeLineCount - 1, 0) : block.line + block.codeLineCount + 1
    }

    /// The lesson's scenario whose block, or whose `output` block, holds a 1-based line.
    package func scenario(at line: Int) -> (scenario: Scenario, onOutput: Bool)? {
        for scenario in lesson.scenarios {
            if (scenario.line...Self.lastLine(of: scenario.block)).contains(line) { return (scenario, false) }
            if let output = scenario.expected, (output.line...Self.lastLine(of: output)).contains(line) {
                return (scenario, true)
            }
        }
        return nil
    }

    /// The code block that holds a 1-based line.
    package func block(at line: Int) -> CodeBlock? {
        lesson.codeBlocks.first { ($0.line...Self.lastLine(of: $0)).contains(line) }
    }

    /// The output a scenario printed, as an `output` block holds it (CRLF read as LF).
    package static func printed(_ result: ScenarioResult?) -> String? {
        guard let output = result?.outcome?.completedOutput else { return nil }
        return output.contains("\r\n") ? output.replacingOccurrences(of: "\r\n", with: "\n") : output
    }

    /// The limitation note numbered `number`, in whichever lesson states it.
    package func note(_ number: Int) -> (lesson: Lesson, note: LimitNote)? {
        for lesson in course.lessons {
            if let note = lesson.notes.first(where: { $0.number == number }) { return (lesson, note) }
        }
        return nil
    }

    /// The `DRn` under a 1-based byte column of a line, with its columns (end excluded).
    package static func noteLabel(in line: String, atColumn column: Int) -> (number: Int, columns: Range<Int>)? {
        let bytes = Array(line.utf8)
        var index = 0
        while index + 2 < bytes.count {
            let isStart = bytes[index] == UInt8(ascii: "D") && bytes[index + 1] == UInt8(ascii: "R")
                && (index == 0 || !isWordByte(bytes[index - 1]))
            guard isStart else { index += 1; continue }
            var end = index + 2
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end > index + 2, end == bytes.count || !isWordByte(bytes[end]),
               (index + 1...end).contains(column), let number = Int(String(decoding: bytes[(index + 2)..<end], as: UTF8.self)) {
                return (number, index + 1..<end + 1)
            }
            index = max(end, index + 1)
        }
        return nil
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
