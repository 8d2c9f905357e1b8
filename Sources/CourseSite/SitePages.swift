import BackgroundWork
import CourseFiles
import CourseModel
import Foundation
import HTMLText
import LessonParsing

/// What the pages are made from: the checked course, each lesson's parsed document, what the
/// Swift parser learned of each block, the templates and the words.
package struct SiteInput: Sendable {
    package var course: Course
    package var documents: [LessonDocument]
    package var report: CheckReport
    /// What the Swift parser learned of each block: its highlighted HTML comes from here.
    package var facts: CourseFacts
    package var templates: TemplateSet
    package var words: SiteWords
    /// Whether the site gets a search index (Pagefind is installed): only then do its pages
    /// offer a search field and a search page.
    package var search: Bool
    /// The scenarios' change diagrams, drawn (or found in the store) lesson by lesson as the
    /// pages are made; nil: drawn with the pages, kept nowhere.
    package var diagrams: DrawnDiagrams?

    package init(course: Course, documents: [LessonDocument], report: CheckReport,
                 facts: CourseFacts, templates: TemplateSet, words: SiteWords, search: Bool = false,
                 diagrams: DrawnDiagrams? = nil) {
        self.course = course
        self.documents = documents
        self.report = report
        self.facts = facts
        self.templates = templates
        self.words = words
        self.search = search
        self.diagrams = diagrams
    }
}

/// The pages of a checked course: an index, one page per lesson, the limitations page, the
/// whole course on one page, the search page (when the site is indexed) and the assets.
/// Course, report, templates and words in; files out, rendered on every core and handed to a
/// sink one by one. Every link is relative and every page sits at the top of the site, so the
/// site works from disk and under any path.
package enum SitePages {
    package static let indexPage = "index.html"
    package static let limitationsPage = "limitations.html"

    /// Whether the site has a limitations page: only a course with limitation notes (a book
    /// that measures nothing, `"limitNotes": "optional"`, may have none).
    package static func hasLimitationsPage(_ course: Course) -> Bool {
        course.lessons.contains { !$0.notes.isEmpty }
    }
    package static let printPage = "print.html"
    package static let searchPage = "search.html"
    /// The anchor of the limitations page's explanation of what a limitation note is.
    package static let aboutNotesAnchor = "about-notes"
    /// The site's icon, inside every page's `<head>`, so that it costs no request (and the
    /// browser asks for no `/favicon.ico`): a check mark, for outputs verified by running them.
    package static let favicon = "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 32 32%22%3E%3Crect width=%2232%22 height=%2232%22 rx=%227%22 fill=%22%231d5f8a%22/%3E%3Cpath d=%22M9 16.5l4.5 4.5L23 11%22 fill=%22none%22 stroke=%22%23fff%22 stroke-width=%223.4%22 stroke-linecap=%22round%22 stroke-linejoin=%22round%22/%3E%3C/svg%3E"

    package static func pageName(_ lesson: Lesson) -> String { Lesson.pageName(ofFile: lesson.fileName) }

    /// How a link names a lesson's page (percent-encoded).
    package static func pageHref(_ lesson: Lesson) -> String { Lesson.pageHref(ofFile: lesson.fileName) }

    /// Renders every file into `sink`; returns how many pages and assets it made. The lessons'
    /// bodies are made first (`lessonBodies`), on every core, then the pages from them: the
    /// index, the lessons (on every core, each handed to the sink as soon as it is made), the
    /// limitations page, the whole course, the search page, and the assets some page links.
    /// Given an input no one else holds (`consume`), what a lesson's body is made from is freed
    /// as soon as the body is made.
    @discardableResult
    package static func render(_ input: consuming SiteInput, into sink: any SiteSink) throws(SiteWriteError) -> (pages: Int, assets: Int) {
        let course = typeset(input.course)
        let lessons = lessonBodies(&input, course: course)
        let templates = input.templates
        // The search page's script only for a site that has a search page.
        let assets = SiteAssets(input.search ? templates.assets : templates.assets.filter { $0.key != "search.js" })
        let pages = CoursePages(course: course, report: input.report, words: input.words, templates: templates,
                                lessons: lessons, assets: assets, search: input.search)
        try sink.add(pages.indexPage())
        let searchCopies = input.search && SearchCopy.applies(to: templates)
        let failures = Array(course.lessons.indices).concurrentMap { number -> SiteWriteError? in
            let made = pages.lessonPage(number, searchCopy: searchCopies)
            do throws(SiteWriteError) {
                try sink.add(made.page)
                if let copy = made.searchCopy { try sink.addSearchCopy(copy) }
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
        if hasLimitationsPage(course) { try sink.add(pages.limitationsPage()) }
        try pages.writePrintPage(to: sink)
        var made = course.lessons.count + (hasLimitationsPage(course) ? 3 : 2)
        if input.search {
            try sink.add(pages.searchPage())
            made += 1
        }
        // A part sheet no page links is not sent (a course without a refusal has no use for
        // their styles).
        let linked = pages.frame.linkedParts.withLock { $0 }
        let unlinked = Set(PageStyles.parts.map(\.file).filter { !linked.contains($0) }.compactMap(assets.href))
        let shipped = assets.files.filter { !unlinked.contains($0.path) }
        for file in shipped { try sink.add(file) }
        return (made, shipped.count)
    }

    /// Every file of the site, collected: for tests and small courses.
    package static func files(_ input: SiteInput) throws(SiteWriteError) -> [SiteFile] {
        let sink = CollectingSink()
        try render(input, into: sink)
        return sink.files
    }
}

extension SitePages {
    /// What a page says it is above its title: the label `course.json` gives its file (a
    /// summary, a glossary, an appendix), else "Lesson N" in the course's language.
    static func label(of lesson: Lesson, number: Int, course: Course, words: SiteWords) -> String {
        course.config.labels[lesson.fileName] ?? "\(words.lesson) \(number + 1)"
    }
}

extension SitePages {
    /// The course with its title and description from course.json set as the lessons' prose
    /// is (smart quotes in the header as in the text).
    static func typeset(_ course: Course) -> Course {
        guard course.config.typography == .smart else { return course }
        var course = course
        course.config.title = SmartTypography.typeset(course.config.title)
        course.config.description = course.config.description.map(SmartTypography.typeset)
        return course
    }
}

