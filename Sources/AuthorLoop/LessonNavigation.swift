package import CourseModel
import CourseChecking
import Foundation

/// What an editor shows about a checked lesson besides its findings: hovers, the places a
/// definition goes to, the outline, and the lenses above scenarios.
package enum LessonNavigation {
    // MARK: Hover

    /// The hover at a 1-based line and byte column: on an `output` block, what the run printed
    /// (and the diff when they differ) and how it was obtained; on a `DRn`, the note's text; on
    /// a scenario, its verdict.
    package static func hover(line: Int, column: Int, in checked: CheckedLesson) -> String? {
        let lesson = checked.lesson
        if let (scenario, onOutput) = checked.scenario(at: line) {
            let result = checked.results[scenario.block.id]
            return onOutput ? outputHover(scenario, result: result, in: checked) : verdictHover(scenario, result: result)
        }
        if let label = CheckedLesson.noteLabel(in: lesson.source.text(ofLine: line), atColumn: column),
           checked.block(at: line) == nil {
            guard let (noteLesson, note) = checked.note(label.number) else {
                return "**DR\(label.number)**: no limitation note of the course has this number."
            }
            return "**\(note.label)** (\(noteLesson.fileName), line \(note.line))\n\n\(note.text)"
        }
        return nil
    }

    static func outputHover(_ scenario: Scenario, result: ScenarioResult?, in checked: CheckedLesson) -> String {
        var parts: [String] = []
        guard let result else { return "The scenario at line \(scenario.line) has not run yet." }
        if let printed = CheckedLesson.printed(result) {
            parts.append("**What the run printed**\n\n" + fenced(printed, language: "text"))
            if let expected = scenario.expected, !sameIgnoringFinalNewline(expected.code, printed) {
                let diff = LineDiff.unified(from: expected.code, to: printed, oldLabel: "expected (line \(expected.line))",
                                            newLabel: "actual")
                parts.append("**Diff from the block to the run**\n\n" + fenced(diff, language: "diff"))
            }
        } else {
            parts.append(verdictHover(scenario, result: result))
        }
        parts.append(howObtained(result, report: checked.report, finished: checked.finished))
        return parts.joined(separator: "\n\n")
    }

    /// `from the cache · Swift 6.3.1 · checked at 14:02:31`, or `ran in 0.12 s · ...`.
    static func howObtained(_ result: ScenarioResult, report: CheckReport, finished: Date) -> String {
        let how: String
        if result.fromCache {
            how = "from the cache"
        } else if let duration = result.duration {
            how = "ran in " + seconds(duration)
        } else {
            how = "compiled and run in this check"
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return "\(how) · Swift \(report.swiftVersion) · checked at \(formatter.string(from: finished))"
    }

    static func verdictHover(_ scenario: Scenario, result: ScenarioResult?) -> String {
        let head = "**Scenario at line \(scenario.line)**" + (scenario.caption.map { ": \($0)" } ?? "")
        guard let result else {
            return head + "\n\n" + (scenario.isSkipped ? "skipped: shown, not run" : "not checked yet")
        }
        var text = head + "\n\n" + lens(result)
        for finding in result.findings {
            text += "\n\n" + finding.summary
            if let attachment = finding.attachment, !attachment.isEmpty { text += "\n\n" + fenced(attachment, language: "text") }
        }
        return text
    }

    /// A fenced block whose fence no line of `text` closes.
    static func fenced(_ text: String, language: String) -> String {
        var longest = 0
        for line in text.split(separator: "\n") {
            let run = line.drop { $0 == " " }.prefix { $0 == "`" }.count
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return fence + language + "\n" + text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + fence
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f s", value)
    }

    // MARK: Code lenses

    /// What the lens above a scenario says: `✓ passed · 0.12 s`, `✓ passed · cached`,
    /// `✗ output differs` ...
    package static func lens(_ result: ScenarioResult) -> String {
        switch result.status {
        case .skipped:
            return "skipped: not run"
        case .passed:
            if result.fromCache { return "✓ passed · cached" }
            return result.duration.map { "✓ passed · " + seconds($0) } ?? "✓ passed"
        case .failed:
            let ids = Set(result.findings.map(\.id))
            if ids.contains(.outputMismatch) { return "✗ output differs" }
            if ids.contains(.compileError) || ids.contains(.coreCompileError) { return "✗ does not compile" }
            if ids.contains(.scenarioTimeout) { return "✗ ran past the time limit" }
            if ids.contains(.scenarioOutputCap) { return "✗ printed too much" }
            if ids.contains(.scenarioCrashed) { return "✗ crashed" }
            if result.scenario.expected == nil { return "✗ no output block" }
            return "✗ failed"
        }
    }

    /// A lens above every scenario of the lesson.
    package static func lenses(_ checked: CheckedLesson, positions: TextPositions) -> [JSONValue] {
        let results = checked.results
        return checked.lesson.scenarios.map { scenario in
            let title = results[scenario.block.id].map(lens) ?? (scenario.isSkipped ? "skipped: not run" : "not checked")
            let line = TextRange(positions.start(ofLine: scenario.line), positions.end(ofLine: scenario.line))
            return ["range": line.json, "command": ["title": .string(title), "command": ""]]
        }
    }

    // MARK: Definition

    /// Where a definition goes: a file's absolute path and a 1-based line.
    package struct Target: Sendable, Equatable {
        package var path: String
        package var line: Int
    }

    /// The definition at a 1-based line and byte column: a `DRn` goes to its note (in any
    /// lesson), a link to a lesson (and heading) to that place, DocC's `<doc:Name#Section>` too,
    /// a `swift core` listing to its core file.
    package static func definition(line: Int, column: Int, in checked: CheckedLesson) -> Target? {
        let lesson = checked.lesson, course = checked.course
        if let block = checked.block(at: line) {
            guard case .coreListing = block.role,
                  case .success(let file) = CoreListingRules.coreFile(for: block, in: lesson, coreFiles: course.coreFiles)
            else { return nil }
            return Target(path: file.path, line: 1)
        }
        let text = lesson.source.text(ofLine: line)
        let link = link(at: column, line: line, text: text, in: lesson)
        if let link, case .fragment = link.target, link.destination.count > 1,
           let heading = headingLine(anchor: String(link.destination.dropFirst()), in: lesson) {
            return Target(path: course.folderPath + "/" + lesson.fileName, line: heading)
        }
        if let link, case let .doc(name, fragment) = link.target,
           let from = course.lessons.firstIndex(where: { $0.fileName == lesson.fileName }) {
            switch DocLinks(course.lessons).resolve(name: name, fragment: fragment, from: from) {
            case .lesson(let index):
                return Target(path: course.folderPath + "/" + course.lessons[index].fileName, line: 1)
            case let .heading(index, heading):
                return Target(path: course.folderPath + "/" + course.lessons[index].fileName,
                              line: course.lessons[index].headings[heading].line)
            case .noLesson, .noHeading:
                return nil
            }
        }
        if let link, case .relative(let path, let fragment) = link.target {
            let name = (path as NSString).lastPathComponent
            if let target = course.lessons.first(where: { $0.fileName == name }), !path.contains("/") {
                return Target(path: course.folderPath + "/" + target.fileName,
                              line: fragment.flatMap { headingLine(anchor: $0, in: target) } ?? 1)
            }
            let file = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: course.folderPath + "/")).standardizedFileURL.path
            return FileManager.default.fileExists(atPath: file) ? Target(path: file, line: 1) : nil
        }
        if let label = CheckedLesson.noteLabel(in: text, atColumn: column), let (noteLesson, note) = checked.note(label.number) {
            return Target(path: course.folderPath + "/" + noteLesson.fileName, line: note.line)
        }
        return nil
    }

    /// The link whose text or destination holds the column: from its `[` (or `![`) to the `)`
    /// that closes its destination on the same line.
    static func link(at column: Int, line: Int, text: String, in lesson: Lesson) -> LessonLink? {
        let bytes = Array(text.utf8)
        return lesson.links.last { link in
            guard link.line == line, link.column <= column else { return false }
            var end = link.column - 1
            var depth = 0
            while end < bytes.count {
                if bytes[end] == UInt8(ascii: "(") { depth += 1 }
                if bytes[end] == UInt8(ascii: ")") { depth -= 1; if depth <= 0 { break } }
                end += 1
            }
            return column <= end + 1
        }
    }

    /// The line of the heading a page anchor names, the way the site names its headings
    /// (the title has none; a repeated slug gets `-2`, `-3` ...; a note's id is never taken).
    static func headingLine(anchor: String, in lesson: Lesson) -> Int? {
        var used = Set(lesson.notes.flatMap { ["dr\($0.number)", "dr\($0.number)-label"] } + ["main", "footnotes"])
        var sawTitle = false
        for heading in lesson.headings {
            if heading.level == 1, !sawTitle { sawTitle = true; continue }
            let slug = foldedSlug(heading.text).isEmpty ? "bolum" : foldedSlug(heading.text)
            var candidate = slug
            var number = 2
            while used.contains(candidate) { candidate = "\(slug)-\(number)"; number += 1 }
            used.insert(candidate)
            if candidate == anchor { return heading.line }
        }
        return nil
    }

    // MARK: Document symbols

    /// The lesson's outline: its headings nested by level, each holding the scenarios (named by
    /// their captions) and the limitation notes under it.
    package static func symbols(_ checked: CheckedLesson, positions: TextPositions) -> [JSONValue] {
        let lesson = checked.lesson
        let lastLine = max(lesson.source.lineCount, 1)
        struct Node {
            var name: String, detail: String, kind: Int, first: Int, last: Int, level: Int
            var children: [Int] = []
        }
        var nodes: [Node] = []
        var roots: [Int] = []
        var open: [Int] = []
        func add(_ node: Node) -> Int {
            nodes.append(node)
            let index = nodes.count - 1
            if let parent = open.last { nodes[parent].children.append(index) } else { roots.append(index) }
            return index
        }
        // Headings, scenarios and notes in line order.
        var items: [(line: Int, order: Int, make: () -> Void)] = []
        for (index, heading) in lesson.headings.enumerated() {
            let end = lesson.headings[(index + 1)...].first { $0.level <= heading.level }.map { $0.line - 1 } ?? lastLine
            items.append((heading.line, 0, {
                while let top = open.last, nodes[top].level >= heading.level { open.removeLast() }
                let made = add(Node(name: heading.text.isEmpty ? "(heading)" : heading.text, detail: String(repeating: "#", count: heading.level),
                                    kind: heading.level == 1 ? 2 : 3, first: heading.line, last: max(end, heading.line), level: heading.level))
                open.append(made)
            }))
        }
        for scenario in lesson.scenarios {
            let last = CheckedLesson.lastLine(of: scenario.expected ?? scenario.block)
            items.append((scenario.line, 1, {
                _ = add(Node(name: scenario.caption ?? "scenario at line \(scenario.line)",
                             detail: scenario.isSkipped ? "scenario (skipped)" : "scenario", kind: 12,
                             first: scenario.line, last: last, level: 99))
            }))
        }
        for note in lesson.notes {
            let words = note.text.split(separator: " ").prefix(8).joined(separator: " ")
            items.append((note.line, 1, {
                _ = add(Node(name: note.label, detail: words, kind: 14, first: note.line, last: note.line, level: 99))
            }))
        }
        for item in items.sorted(by: { ($0.line, $0.order) < ($1.line, $1.order) }) { item.make() }

        func json(_ index: Int) -> JSONValue {
            let node = nodes[index]
            let range = TextRange(positions.start(ofLine: node.first), positions.end(ofLine: node.last))
            let selection = TextRange(positions.start(ofLine: node.first), positions.end(ofLine: node.first))
            return ["name": .string(node.name), "detail": .string(node.detail), "kind": .int(node.kind),
                    "range": range.json, "selectionRange": selection.json, "children": .array(node.children.map(json))]
        }
        return roots.map(json)
    }
}
