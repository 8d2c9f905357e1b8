/// The names DocC gives pages and headings, as a course of lesson files answers them: a
/// `doc:ClassesAndStructures` link names `09-classes-and-structures.md`, and
/// `#Defining-a-Class` its heading "Defining a Class". Both sides are compared by their letters
/// and digits alone, case and accents aside (`DocName.key`), so that DocC's camel case, a
/// lesson's kebab case and DocC's anchors (a heading's words joined by `-`, its punctuation
/// dropped) meet.
package enum DocName {
    /// The letters and digits of `text`, lower case, accents folded (`Classes-and-Structures`
    /// is `classesandstructures`). Text with no letter that folds to ASCII (a heading in
    /// Japanese) keeps its own letters and digits, lower case.
    package static func key(_ text: String) -> String {
        let folded = foldedSlug(text).filter { $0 != "-" }
        if !folded.isEmpty { return folded }
        return String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The name DocC would give a lesson file: the file name without its `NN-` and `.md`
    /// (`09-classes-and-structures.md` is `classes-and-structures`).
    package static func lessonName(ofFile fileName: String) -> String {
        var name = Substring(fileName)
        if name.hasSuffix(".md") { name = name.dropLast(3) }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, name.dropFirst(digits.count).first == "-" { name = name.dropFirst(digits.count + 1) }
        return String(name)
    }

    /// DocC's anchor of a heading (its `urlReadableFragment`): the words joined by `-`,
    /// punctuation and backticks dropped, case kept (`Defining a Class` is
    /// `Defining-a-Class`). What messages suggest; matching goes by `key`.
    package static func anchor(ofHeading text: String) -> String {
        let words = text.split { $0.isWhitespace || $0 == "-" || $0 == "\u{2013}" || $0 == "\u{2014}" }
        return words.joined(separator: "-").filter { !($0.isPunctuation && $0 != "-") && $0 != "`" }
    }
}

/// Where a `doc:` link goes in a course, or why it goes nowhere.
package enum DocLinkResolution: Sendable, Equatable {
    /// The lesson at this index of the course.
    case lesson(Int)
    /// A heading of a lesson: the lesson's index and the heading's index in `Lesson.headings`.
    case heading(lesson: Int, heading: Int)
    /// No lesson has the name.
    case noLesson
    /// The lesson (its index) has no heading of that name.
    case noHeading(lesson: Int)
}

/// The lessons of a course by their DocC names, to resolve `doc:` links with: built once per
/// course, asked once per link.
package struct DocLinks: Sendable {
    private var byKey: [String: [Int]] = [:]
    private var headingKeys: [[String]]

    package init(_ lessons: [Lesson]) {
        for (index, lesson) in lessons.enumerated() {
            byKey[DocName.key(DocName.lessonName(ofFile: lesson.fileName)), default: []].append(index)
        }
        headingKeys = lessons.map { $0.headings.map { DocName.key($0.text) } }
    }

    /// The lessons whose names give the same key as `name`, in course order: one, or none, or
    /// (two files such as `01-a-b.md` and `02-ab.md`) several, of which a link goes to the first.
    package func lessons(named name: String) -> [Int] {
        let key = DocName.key(name)
        return key.isEmpty ? [] : byKey[key] ?? []
    }

    /// Where `doc:name#fragment` goes from the lesson at index `from`: an empty name is that
    /// lesson itself (`doc:#Section`). A fragment goes to the first heading whose key is the
    /// fragment's; the title (the lesson's first level-1 heading) counts as one of them.
    package func resolve(name: String, fragment: String?, from: Int) -> DocLinkResolution {
        let lesson: Int
        if name.isEmpty {
            guard fragment != nil else { return .noLesson }
            lesson = from
        } else {
            guard let first = lessons(named: name).first else { return .noLesson }
            lesson = first
        }
        guard let fragment, !fragment.isEmpty else { return .lesson(lesson) }
        let key = DocName.key(fragment)
        guard !key.isEmpty, let heading = headingKeys[lesson].firstIndex(of: key) else { return .noHeading(lesson: lesson) }
        return .heading(lesson: lesson, heading: heading)
    }
}
