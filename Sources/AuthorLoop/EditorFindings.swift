package import CourseModel
import CourseChecking
internal import CourseFiles
import Foundation

/// `file:///...` addresses and paths.
package enum FileURI {
    package static func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    /// The path of a `file:` URI, nil for any other scheme.
    package static func path(_ uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.standardizedFileURL.path
    }
}

/// A file a finding may land in, as the editor addresses it.
package struct EditorFile: Sendable {
    package var uri: String
    package var source: SourceText
}

/// A check's findings as the protocol's diagnostics: each at the range it is about (the
/// differing lines of an output block, the compiler's column to the end of its word, the
/// `DRn` of a note), its id as `code`, the compiler's notes and the diff as related information.
package enum EditorFindings {
    /// The files of a course a finding can name (messages name them by their display path).
    package static func file(named shown: String?, in course: Course) -> EditorFile? {
        guard let shown else { return nil }
        if let lesson = course.lessons.first(where: { $0.path == shown }) {
            return EditorFile(uri: FileURI.uri(course.folderPath + "/" + lesson.fileName), source: lesson.source)
        }
        if shown == course.configPath {
            let path = course.folderPath + "/course.json"
            return EditorFile(uri: FileURI.uri(path), source: SourceText(readFile(atPath: path) ?? []))
        }
        if let core = course.coreFiles.first(where: { $0.displayPath == shown }) {
            return EditorFile(uri: FileURI.uri(core.path), source: SourceText(core.text))
        }
        return nil
    }

    /// The check's diagnostics by file URI; the checked lesson is always among them (with none
    /// when it is clean), and a finding that names no file of the course lands on its first line.
    package static func byFile(_ checked: CheckedLesson, encoding: PositionEncoding) -> [String: [JSONValue]] {
        let course = checked.course
        let lessonFile = file(named: checked.lesson.path, in: course)!
        var found: [String: [JSONValue]] = [lessonFile.uri: []]
        for finding in checked.report.diagnostics {
            let named = file(named: finding.location?.file, in: course)
            let target = named ?? lessonFile
            let positions = TextPositions(target.source, encoding: encoding)
            let range = named == nil
                ? TextRange(positions.start(ofLine: 1), positions.end(ofLine: 1))
                : self.range(of: finding, in: checked, positions: positions, isLesson: target.uri == lessonFile.uri)
            found[target.uri, default: []].append(diagnostic(finding, range: range, uri: target.uri, course: course,
                                                            encoding: encoding))
        }
        return found
    }

    /// One finding as a diagnostic.
    package static func diagnostic(_ finding: Diagnostic, range: TextRange, uri: String, course: Course?,
                                   encoding: PositionEncoding) -> JSONValue {
        var related: [JSONValue] = []
        for note in finding.notes {
            if let course, let location = note.location, let file = file(named: location.file, in: course) {
                let positions = TextPositions(file.source, encoding: encoding)
                let start = positions.position(line: location.line, column: max(location.column, 1))
                related.append(["location": ["uri": .string(file.uri), "range": TextRange(start, positions.end(ofLine: location.line)).json],
                                "message": .string(note.message)])
            } else {
                related.append(["location": ["uri": .string(uri), "range": range.json], "message": .string(note.message)])
            }
        }
        if let attachment = finding.attachment, !attachment.isEmpty {
            related.append(["location": ["uri": .string(uri), "range": range.json], "message": .string(attachment)])
        }
        var value: [String: JSONValue] = [
            "range": range.json,
            "severity": .int(severity(finding.severity)),
            "code": .string(finding.id.rawValue),
            "source": "coursebook",
            "message": .string(finding.summary),
        ]
        if !related.isEmpty { value["relatedInformation"] = .array(related) }
        return .object(value)
    }

    /// Error, Warning, Information (the protocol's 1, 2, 3).
    static func severity(_ severity: Diagnostic.Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }

    /// The range a finding is about, in the file `positions` shows.
    static func range(of finding: Diagnostic, in checked: CheckedLesson, positions: TextPositions, isLesson: Bool) -> TextRange {
        guard let location = finding.location, location.line >= 1 else {
            return TextRange(positions.start(ofLine: 1), positions.end(ofLine: 1))
        }
        let line = location.line
        let text = positions.source.text(ofLine: line)
        if isLesson, finding.id == .outputMismatch, let lines = differingLines(at: line, in: checked) {
            return TextRange(positions.start(ofLine: lines.lowerBound), positions.end(ofLine: lines.upperBound))
        }
        if finding.id.rawValue.hasPrefix("limit-note"), let label = CheckedLesson.noteLabel(
            in: text, atColumn: max(location.column, firstLabelColumn(in: text) ?? 1)) {
            return TextRange(positions.position(line: line, column: label.columns.lowerBound),
                             positions.position(line: line, column: label.columns.upperBound))
        }
        if location.column > 1 {
            // The compiler's column, to the end of the word it points at (one character at least).
            let bytes = Array(text.utf8)
            var end = location.column - 1
            while end < bytes.count, CheckedLesson.isWordByte(bytes[end]) { end += 1 }
            if end == location.column - 1 { end = min(end + 1, bytes.count) }
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return TextRange(positions.position(line: line, column: location.column), positions.position(line: line, column: end + 1))
        }
        // A whole line, from its first character that is not a space.
        let indent = text.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
        return TextRange(positions.position(line: line, column: indent + 1), positions.end(ofLine: line))
    }

    private static func firstLabelColumn(in text: String) -> Int? {
        guard let range = text.range(of: "DR") else { return nil }
        return text.utf8.distance(from: text.startIndex, to: range.lowerBound) + 1
    }

    /// The lines of an output block that the run disagrees with: from the first line that
    /// differs to the last, as the diff shows them (the closing fence when the run printed more).
    static func differingLines(at line: Int, in checked: CheckedLesson) -> ClosedRange<Int>? {
        guard let (scenario, _) = checked.scenario(at: line), let expected = scenario.expected,
              let printed = CheckedLesson.printed(checked.results[scenario.block.id]) else { return nil }
        let old = LineDiff.lines(expected.code), new = LineDiff.lines(printed)
        let first = LineDiff.firstDifference(old, new)
        var common = 0
        while common < old.count - first, common < new.count - first, old[old.count - 1 - common] == new[new.count - 1 - common] {
            common += 1
        }
        let lastCodeLine = expected.firstCodeLine + max(expected.codeLineCount - 1, 0)
        let start = min(expected.firstCodeLine + first, lastCodeLine + 1)
        let end = max(start, min(expected.firstCodeLine + old.count - common - 1, lastCodeLine + 1))
        return start...end
    }
}
