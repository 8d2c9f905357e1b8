import CourseModel

/// The rules of limitation notes: numbered from DR1 through the whole course in lesson order,
/// no gap, no repeat; every measured section states a note of its own or cites an earlier one;
/// every mention names a real note.
package enum LimitNoteRules {
    package static func check(_ lessons: [Lesson], policy: LimitNotePolicy = .required) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seen: [Int: SourceLocation] = [:]
        /// Where each note stands in the course: its lesson and its line.
        var place: [Int: (lesson: Int, line: Int)] = [:]
        var highest = 0

        for (lessonIndex, lesson) in lessons.enumerated() {
            for note in lesson.notes {
                let here = lesson.location(line: note.line)
                if let first = seen[note.number] {
                    diagnostics.append(.error(
                        .limitNoteRepeated, "\(note.label) repeats a number already used",
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
                    diagnostics.append(.error(.limitNoteGap, summary, at: here))
                } else if note.number <= highest {
                    diagnostics.append(.error(
                        .limitNoteOrder,
                        "\(note.label) comes after DR\(highest); notes are numbered in course order",
                        at: here))
                }
                seen[note.number] = here
                place[note.number] = (lessonIndex, note.line)
                highest = max(highest, note.number)
            }
        }

        for (lessonIndex, lesson) in lessons.enumerated() {
            for section in lesson.sections {
                let measures = lesson.scenarios.contains { !$0.isSkipped && section.lines.contains($0.line) }
                let states = lesson.notes.contains { section.lines.contains($0.line) }
                // A limit every measurement shares is written once and cited: a mention of a
                // note that stands before the section counts as the section's own.
                let cites = lesson.mentions.contains { mention in
                    guard section.lines.contains(mention.line), let note = place[mention.number] else { return false }
                    return note.lesson < lessonIndex || (note.lesson == lessonIndex && note.line < section.heading.line)
                }
                if policy == .required, measures, !states, !cites {
                    diagnostics.append(.warning(
                        .sectionWithoutLimitNote,
                        "section '\(section.heading.text)' holds a scenario but no limitation note; say what the measurement did not cover ('DRn. ...') or cite an earlier note ('DRn')",
                        at: lesson.location(line: section.heading.line)))
                }
            }
            for mention in lesson.mentions where seen[mention.number] == nil {
                diagnostics.append(.warning(
                    .limitNoteUnknown,
                    "DR\(mention.number) is mentioned, but the course has no such limitation note",
                    at: lesson.location(line: mention.line)))
            }
        }
        return diagnostics
    }
}
