/// The rules of limitation notes: numbered from DR1 through the whole course in lesson order,
/// no gap, no repeat; every measured section states one; every mention names a real note.
package enum LimitNoteRules {
    package static func check(_ lessons: [Lesson]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seen: [Int: SourceLocation] = [:]
        var highest = 0

        for lesson in lessons {
            for note in lesson.notes {
                let here = lesson.location(line: note.line)
                if let first = seen[note.number] {
                    diagnostics.append(.error(
                        "limit-note-repeated", "\(note.label) repeats a number already used",
                        at: here, notes: [.init("\(note.label) is first here", at: first)]))
                    continue
                }
                if note.number > highest + 1 {
                    let missing = highest + 1 == note.number - 1
                        ? "DR\(highest + 1) is missing"
                        : "DR\(highest + 1) to DR\(note.number - 1) are missing"
                    let summary = highest == 0
                        ? "\(note.label) is the course's first limitation note, but numbering starts at DR1"
                        : "\(note.label) follows DR\(highest): \(missing)"
                    diagnostics.append(.error("limit-note-gap", summary, at: here))
                } else if note.number <= highest {
                    diagnostics.append(.error(
                        "limit-note-order",
                        "\(note.label) comes after DR\(highest); notes are numbered in course order",
                        at: here))
                }
                seen[note.number] = here
                highest = max(highest, note.number)
            }
        }

        for lesson in lessons {
            for section in lesson.sections {
                let measures = lesson.scenarios.contains { !$0.isSkipped && section.lines.contains($0.line) }
                let states = lesson.notes.contains { section.lines.contains($0.line) }
                if measures, !states {
                    diagnostics.append(.warning(
                        "section-without-limit-note",
                        "section '\(section.heading.text)' holds a scenario but no limitation note; say what the measurement did not cover ('DRn. ...')",
                        at: lesson.location(line: section.heading.line)))
                }
            }
            for mention in lesson.mentions where seen[mention.number] == nil {
                diagnostics.append(.warning(
                    "limit-note-unknown",
                    "DR\(mention.number) is mentioned, but the course has no such limitation note",
                    at: lesson.location(line: mention.line)))
            }
        }
        return diagnostics
    }
}
