import BackgroundWork
import CourseModel
import HTMLText

/// The pages of a course whose lessons' bodies are made: each page's context, rendered with its
/// template inside the layout.
struct CoursePages: Sendable {
    let course: Course
    let words: SiteWords
    let templates: TemplateSet
    let frame: SiteFrame
    let lessons: [RenderedLesson]
    /// How many scenarios of each lesson passed.
    let verified: [Int]

    init(course: Course, report: CheckReport, words: SiteWords, templates: TemplateSet, lessons: [RenderedLesson],
         assets: SiteAssets, search: Bool) {
        self.course = course
        self.words = words
        self.templates = templates
        self.lessons = lessons
        frame = SiteFrame(course: course, words: words, swiftVersion: report.swiftVersion, layout: templates.layout,
                          bodies: lessons.map(\.body), assets: assets, search: search)
        var passed = [Int](repeating: 0, count: course.lessons.count)
        for result in report.results where result.status == .passed { passed[result.lessonIndex] += 1 }
        verified = passed
    }

    /// The layout's context around a page's content.
    func layout(_ shared: SharedContext, title: String, content: String, description: String = "") -> TemplateRecord {
        var shared = shared
        shared.stylesheets = frame.stylesheets(PageStyles(content: content))
        return TemplateEncoding.record(LayoutContext(
            shared: shared, own: LayoutNames(pageTitle: title, pageDescription: description, content: RenderedHTML(content))))
    }

    func title(_ lesson: Lesson) -> String { lesson.title ?? lesson.slug }

    func label(_ number: Int) -> String {
        SitePages.label(of: course.lessons[number], number: number, course: course, words: words)
    }

    func isNumbered(_ number: Int) -> Bool { course.config.labels[course.lessons[number].fileName] == nil }

    /// A page with no scenario (a glossary) says nothing of them.
    func scenarioCount(_ number: Int) -> String {
        course.lessons[number].scenarios.isEmpty ? "" : words.scenarioCount(verified[number])
    }

    func indexPage() -> SiteFile {
        let shared = frame.shared(on: .index)
        let context = TemplateEncoding.record(IndexContext(shared: shared, own: IndexNames(
            lessons: course.lessons.enumerated().map { number, lesson in
                IndexEntry(number: number + 1, label: label(number), numbered: isNumbered(number), title: title(lesson),
                           href: SitePages.pageHref(lesson),
                           introduction: RenderedHTML(lessons[number].body.introduction),
                           summary: RenderedHTML(lessons[number].body.summary),
                           scenarioCount: scenarioCount(number),
                           noteCount: lesson.notes.isEmpty ? "" : words.noteCount(lesson.notes.count))
            },
            description: course.config.description ?? "",
            start: course.lessons.first.map { PageLink(title: title($0), href: SitePages.pageHref($0)) } ?? .none,
            scenarioTotal: words.scenarioCount(verified.reduce(0, +)),
            noteTotal: noteTotal)))
        let layout = layout(shared, title: course.config.title, content: templates.index.render(context),
                            description: course.config.description ?? "")
        return SiteFile(path: SitePages.indexPage, bytes: Array(templates.layout.render(layout).utf8))
    }

    private var noteTotal: String {
        let count = course.lessons.map(\.notes.count).reduce(0, +)
        return count == 0 ? "" : words.noteCount(count)
    }

    /// Lesson `number`'s page, and what the search index reads in its place (`SearchCopy`)
    /// when `searchCopy`.
    func lessonPage(_ number: Int, searchCopy: Bool) -> (page: SiteFile, searchCopy: SiteFile?) {
        let lesson = course.lessons[number], body = lessons[number].body
        func link(_ other: Int) -> PageLink {
            guard course.lessons.indices.contains(other) else { return .none }
            return PageLink(title: title(course.lessons[other]), href: SitePages.pageHref(course.lessons[other]))
        }
        let shared = frame.shared(on: .lesson(number))
        let context = TemplateEncoding.record(LessonContext(shared: shared, own: LessonNames(
            lesson: PageLesson(number: number + 1, label: label(number), numbered: isNumbered(number), title: title(lesson),
                               body: RenderedHTML(body.html), sections: frame.pageMap(ofLesson: number),
                               scenarioCount: scenarioCount(number)),
            previous: link(number - 1), next: link(number + 1))))
        // What a search engine shows of the page: the lesson's lead, or its first sentence.
        let layout = layout(shared, title: "\(title(lesson)) · \(course.config.title)",
                            content: templates.lesson.render(context), description: plainText(ofHTML: body.summary))
        let path = SitePages.pageName(lesson)
        let page = SiteFile(path: path, bytes: Array(templates.layout.render(layout).utf8))
        guard searchCopy else { return (page, nil) }
        return (page, SiteFile(path: path, bytes: Array(templates.layout.render(SearchCopy.values(layout)).utf8)))
    }

    /// The limitations page: what a note is, an index by lesson, then every note with its
    /// section and a link back to its place.
    func limitationsPage() -> SiteFile {
        let shared = frame.shared(on: .limitations)
        let context = TemplateEncoding.record(LimitationsContext(shared: shared, own: LimitationsNames(
            groups: frame.noteGroups.map { group in
                var group = group
                let lesson = course.lessons[group.number - 1], rendered = lessons[group.number - 1]
                let sectionOf = rendered.body.sectionOfNote
                group.notes = lesson.notes.map { note in
                    let section = sectionOf[note.number]
                    return LimitationNote(
                        label: note.label, id: "dr\(note.number)", href: "\(SitePages.pageHref(lesson))#dr\(note.number)",
                        body: RenderedHTML(rendered.notes[note.number] ?? escapeHTML(note.text)),
                        section: section?.title ?? "",
                        sectionHref: section.map { "\(SitePages.pageHref(lesson))#\($0.anchor)" } ?? "")
                }
                return group
            })))
        let layout = layout(shared, title: "\(words.limitations) · \(course.config.title)",
                            content: templates.limitations.render(context), description: words.limitationsIntro)
        return SiteFile(path: SitePages.limitationsPage, bytes: Array(templates.layout.render(layout).utf8))
    }

    /// The whole course on one page: every lesson's body, its anchors made unique. The page is
    /// as large as all the lessons together, so it is never held whole: each body is relinked
    /// when the template reaches it, written and dropped, and the page goes to `sink` in chunks
    /// as the layout and the page template are rendered.
    func writePrintPage(to sink: any SiteSink) throws(SiteWriteError) {
        var shared = frame.shared(on: .print)
        let lessonPages = Set(course.lessons.map(SitePages.pageHref))
        let own = PrintNames(description: course.config.description ?? "", lessons: course.lessons.enumerated().map { number, lesson in
            let body = lessons[number].body.html, slug = lesson.slug
            return PrintedLesson(
                number: number + 1, label: label(number), numbered: isNumbered(number), title: title(lesson), id: slug,
                // Relinking keeps every byte outside the attributes it changes: empty only when
                // the body is.
                body: RenderedHTML(DeferredHTML(isEmpty: body.isEmpty, making: {
                    WholeCourse.relinked(body, lesson: slug, lessonPages: lessonPages)
                })),
                scenarioCount: scenarioCount(number))
        })
        let context = TemplateEncoding.record(PrintContext(shared: shared, own: own))
        // The whole course holds what its header and every lesson hold.
        let header = TemplateEncoding.record(PrintContext(shared: shared, own: PrintNames(description: own.description, lessons: [])))
        shared.stylesheets = frame.stylesheets(PageStyles(contents: [templates.print.render(header)] + lessons.map(\.body.html)))
        let print = templates.print
        let layout = TemplateEncoding.record(LayoutContext(shared: shared, own: LayoutNames(
            pageTitle: "\(words.wholeCourse) · \(course.config.title)", pageDescription: course.config.description ?? "",
            content: RenderedHTML(DeferredHTML(isEmpty: print.rendersNothing(context)) { write in
                print.render(context, writing: write)
            }))))
        try sink.addStreamed(path: SitePages.printPage) { write in templates.layout.render(layout, writing: write) }
    }

    func searchPage() -> SiteFile {
        let shared = frame.shared(on: .search)
        let context = TemplateEncoding.record(SearchContext(shared: shared, own: SearchNames()))
        let layout = layout(shared, title: "\(words.search) · \(course.config.title)", content: templates.search.render(context))
        return SiteFile(path: SitePages.searchPage, bytes: Array(templates.layout.render(layout).utf8))
    }
}
