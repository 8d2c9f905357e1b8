import BackgroundWork
import CourseFiles
import CourseModel
import HTMLText
import LessonParsing

/// A lesson's body, and its notes as the limitations page shows them.
struct RenderedLesson: Sendable {
    var body: LessonBody
    /// Each note's HTML by its number.
    var notes: [Int: String]
}

/// Where the links of a lesson lead, known before any page is made: the lesson that states
/// each note, every heading's anchor (`doc:` links name them from other lessons) and the
/// glossary's terms.
struct CourseLinks: Sendable {
    let course: Course
    /// The lesson (its index) that states each note, by the note's number.
    let noteLesson: [Int: Int]
    /// Each lesson's headings' anchors.
    let headingAnchors: [[String?]]
    let docLinks: DocLinks
    let glossaryIndex: Int?
    let glossary: Glossary?

    /// The glossary's terms are read from its page's tables before any lesson links to them
    /// (its document renders the same blocks again later: the first rendering settles them, its
    /// `doc:` links too). On its page the terms take their anchors before the headings, so its
    /// headings' anchors are known only then; a `doc:` link of the glossary to one of its own
    /// headings goes where the heading's words alone would put it.
    init(course: Course, documents: [LessonDocument]) {
        var noteLesson: [Int: Int] = [:]
        for (index, lesson) in course.lessons.enumerated() {
            for note in lesson.notes { noteLesson[note.number] = index }
        }
        var anchors = zip(course.lessons, documents).map { lesson, document in
            AnchorNamer.headingAnchors(of: lesson, footnoteLabels: document.footnoteLabels)
        }
        let docLinks = DocLinks(course.lessons)
        let glossaryIndex = course.config.glossary.flatMap { name in course.lessons.firstIndex { $0.fileName == name } }
        var glossary: Glossary?
        if let index = glossaryIndex {
            let lesson = course.lessons[index]
            let found = Glossary(
                blocks: documents[index].renderBlocks(
                    mentionHref: Self.noteHref(from: index, noteLesson: noteLesson, course: course),
                    references: .site(course, anchors: anchors, docLinks: docLinks, from: index)),
                page: SitePages.pageHref(lesson), language: course.config.language,
                reserved: Set(lesson.notes.flatMap { ["dr\($0.number)", "dr\($0.number)-label"] } + ["main", "footnotes"]))
            anchors[index] = AnchorNamer.headingAnchors(of: lesson, footnoteLabels: documents[index].footnoteLabels,
                                                        reserving: found.anchors)
            glossary = found
        }
        self.course = course
        self.noteLesson = noteLesson
        self.headingAnchors = anchors
        self.docLinks = docLinks
        self.glossaryIndex = glossaryIndex
        self.glossary = glossary
    }

    /// The href of note n from lesson `index`'s page, nil when the course has no such note.
    func noteHref(from index: Int) -> @Sendable (Int) -> String? {
        Self.noteHref(from: index, noteLesson: noteLesson, course: course)
    }

    private static func noteHref(from index: Int, noteLesson: [Int: Int], course: Course) -> @Sendable (Int) -> String? {
        { number in
            guard let owner = noteLesson[number] else { return nil }
            return owner == index ? "#dr\(number)" : "\(SitePages.pageHref(course.lessons[owner]))#dr\(number)"
        }
    }

    /// Where lesson `index`'s `doc:` links go.
    func references(from index: Int) -> CourseReferences {
        .site(course, anchors: headingAnchors, docLinks: docLinks, from: index)
    }
}

extension SitePages {
    /// Each lesson's body and its notes as the limitations page shows them, on every core. Each
    /// lesson's diagrams are drawn (or read from the store) when its body is made; its parsed
    /// document, facts and diagrams are taken out of `input` and let go as soon as the body is
    /// made, so the bodies never stand beside all of what they were made from.
    static func lessonBodies(_ input: inout SiteInput, course: Course) -> [RenderedLesson] {
        let report = input.report, words = input.words
        let facts = LessonParts(input.facts.takeLessons())
        let diagrams = input.diagrams
            ?? DiagramDrawer(storeFolder: nil, toolVersion: CoursebookVersion.current)
                .diagrams(of: report, words: words.diagram, lessons: course.lessons.count)
        let links = CourseLinks(course: course, documents: input.documents)
        let documents = LessonParts(input.documents)
        input.diagrams = nil
        input.documents = []
        let coreNames = course.coreFiles.map(\.name)
        let coreShownBefore = coreFilesShownBefore(course)
        let aboutNotesHref = "\(limitationsPage)#\(aboutNotesAnchor)"
        return Array(course.lessons.indices).concurrentMap { index in
            let lesson = course.lessons[index]
            let document = documents.take(index), lessonDiagrams = diagrams.lesson(index), lessonFacts = facts.take(index)
            let context = LessonBody.Context(
                words: words, swiftVersion: report.swiftVersion,
                languageMode: { report.languageMode(of: $0, in: course.config) },
                results: report.results(ofLesson: index),
                highlighted: { block in lessonFacts[block.id]?.highlighted ?? escapeHTML(block.shownCode) },
                diagrams: { block in lessonDiagrams[block] ?? "" },
                coreFileNames: coreNames, coreShownBefore: coreShownBefore[index],
                noteHref: links.noteHref(from: index),
                aboutNotesHref: aboutNotesHref,
                headingAnchors: links.headingAnchors.indices.contains(index) ? links.headingAnchors[index] : [],
                references: links.references(from: index),
                glossary: links.glossary, isGlossary: index == links.glossaryIndex)
            let body = LessonBody(lesson, document: document, context: context)
            // On the limitations page every note is on the same page; a footnote a note cites
            // stays on its lesson's page.
            let notes = lesson.notes.isEmpty ? [:]
                : document.renderNotes(mentionHref: { links.noteLesson[$0] == nil ? nil : "#dr\($0)" })
                    .mapValues { BidiTokens.inHTML(footnotesPointing(to: pageHref(lesson), in: $0)) }
            return RenderedLesson(body: body, notes: notes)
        }
    }

    /// A core file is listed open only the first time the course shows it: for each lesson, the
    /// core files the lessons before it show.
    static func coreFilesShownBefore(_ course: Course) -> [Set<String>] {
        let coreNames = course.coreFiles.map(\.name)
        var shownBefore: [Set<String>] = []
        var coreShown: Set<String> = []
        for lesson in course.lessons {
            shownBefore.append(coreShown)
            for block in lesson.codeBlocks {
                if case .coreListing(let name) = block.role {
                    coreShown.insert(name ?? (coreNames.count == 1 ? coreNames[0] : ""))
                }
            }
        }
        return shownBefore
    }
}

/// A note's HTML for another page: its footnote references link to the footnotes on the
/// lesson's page and lose their ids, which belong to that page.
func footnotesPointing(to page: String, in html: String) -> String {
    guard html.contains("data-footnote-ref") else { return html }
    var result = html.replacingOccurrences(of: "href=\"#fn-", with: "href=\"\(page)#fn-")
    while let start = result.range(of: " id=\"fnref-") {
        guard let end = result[start.upperBound...].firstIndex(of: "\"") else { break }
        result.removeSubrange(start.lowerBound...end)
    }
    return result
}

/// Each lesson's share of something large (its parsed document, its drawn diagrams), handed
/// out once: what is taken is held by the taker alone, and freed when the taker is done.
/// Taken from several threads at once.
final class LessonParts<Part: Sendable>: Sendable {
    private let parts: Locked<[Part?]>

    init(_ parts: [Part]) {
        self.parts = Locked(parts.map(Optional.some))
    }

    /// Lesson `index`'s part; a second taking of it is a mistake.
    func take(_ index: Int) -> Part {
        guard let part = parts.withLock({ parts in parts[index].take() }) else {
            preconditionFailure("lesson \(index)'s part taken twice")
        }
        return part
    }
}
