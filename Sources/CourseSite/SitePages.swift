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

    /// Renders every file into `sink`; returns how many pages and assets it made. Each lesson's
    /// diagrams are drawn (or read from the store) when its body is made; its parsed document,
    /// facts and diagrams are let go as soon as the body is made: given an
    /// input no one else holds (`consume`), they are freed then, and the bodies never stand
    /// beside all of what they were made from.
    @discardableResult
    package static func render(_ input: consuming SiteInput, into sink: any SiteSink) throws(SiteWriteError) -> (pages: Int, assets: Int) {
        let course = typeset(input.course)
        let report = input.report, words = input.words, templates = input.templates
        let swiftVersion = report.swiftVersion
        var notesByLesson: [Int: Int] = [:]
        for (index, lesson) in course.lessons.enumerated() {
            for note in lesson.notes { notesByLesson[note.number] = index }
        }
        let noteLesson = notesByLesson
        let coreNames = course.coreFiles.map(\.name)
        /// The href of note n from lesson `index`'s page, nil when the course has no such note.
        @Sendable func noteHref(from index: Int) -> @Sendable (Int) -> String? {
            { number in
                guard let owner = noteLesson[number] else { return nil }
                return owner == index ? "#dr\(number)" : "\(pageHref(course.lessons[owner]))#dr\(number)"
            }
        }
        let facts = LessonParts(input.facts.takeLessons())
        let diagrams = input.diagrams
            ?? DiagramDrawer(storeFolder: nil, toolVersion: CoursebookVersion.current)
                .diagrams(of: report, words: words.diagram, lessons: course.lessons.count)
        // Every heading's anchor, known before any page is made: `doc:` links name them from
        // other lessons.
        var headingAnchors = zip(course.lessons, input.documents).map { lesson, document in
            AnchorNamer.headingAnchors(of: lesson, footnoteLabels: document.footnoteLabels)
        }
        let docLinks = DocLinks(course.lessons)
        // The glossary's terms, read from its page's tables before any lesson links to them
        // (its document renders the same blocks again later: the first rendering settles them,
        // its `doc:` links too). On its page the terms take their anchors before the headings,
        // so its headings' anchors are known only then; a `doc:` link of the glossary to one
        // of its own headings goes where the heading's words alone would put it.
        let glossaryIndex = course.config.glossary.flatMap { name in course.lessons.firstIndex { $0.fileName == name } }
        let glossary = glossaryIndex.map { index in
            Glossary(blocks: input.documents[index].renderBlocks(
                        mentionHref: noteHref(from: index),
                        references: .site(course, anchors: headingAnchors, docLinks: docLinks, from: index)),
                     page: pageHref(course.lessons[index]), language: course.config.language,
                     reserved: Set(course.lessons[index].notes.flatMap { ["dr\($0.number)", "dr\($0.number)-label"] } + ["main", "footnotes"]))
        }
        if let glossaryIndex, let glossary {
            headingAnchors[glossaryIndex] = AnchorNamer.headingAnchors(
                of: course.lessons[glossaryIndex], footnoteLabels: input.documents[glossaryIndex].footnoteLabels,
                reserving: glossary.anchors)
        }
        let allAnchors = headingAnchors
        let documents = LessonParts(input.documents)
        input.diagrams = nil
        input.documents = []
        // The search page's script only for a site that has a search page.
        let assets = SiteAssets(input.search ? templates.assets : templates.assets.filter { $0.key != "search.js" })
        let aboutNotesHref = "\(limitationsPage)#\(aboutNotesAnchor)"

        // A core file is listed open only the first time the course shows it.
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

        let coreShownBefore = shownBefore

        // Each lesson's body and its notes as the limitations page shows them, on every core.
        let lessonIndices = Array(course.lessons.indices)
        let rendered = lessonIndices.concurrentMap { index -> (body: LessonBody, notes: [Int: String]) in
            let lesson = course.lessons[index]
            let document = documents.take(index), lessonDiagrams = diagrams.lesson(index), lessonFacts = facts.take(index)
            let context = LessonBody.Context(
                words: words, swiftVersion: swiftVersion,
                languageMode: { report.languageMode(of: $0, in: course.config) },
                results: report.results(ofLesson: index),
                highlighted: { block in lessonFacts[block.id]?.highlighted ?? escapeHTML(block.shownCode) },
                diagrams: { block in lessonDiagrams[block] ?? "" },
                coreFileNames: coreNames, coreShownBefore: coreShownBefore[index],
                noteHref: noteHref(from: index),
                aboutNotesHref: aboutNotesHref,
                headingAnchors: allAnchors.indices.contains(index) ? allAnchors[index] : [],
                references: .site(course, anchors: allAnchors, docLinks: docLinks, from: index),
                glossary: glossary, isGlossary: index == glossaryIndex)
            let body = LessonBody(lesson, document: document, context: context)
            // On the limitations page every note is on the same page; a footnote a note cites
            // stays on its lesson's page.
            let notes = lesson.notes.isEmpty ? [:]
                : document.renderNotes(mentionHref: { noteLesson[$0] == nil ? nil : "#dr\($0)" })
                    .mapValues { BidiTokens.inHTML(footnotesPointing(to: pageHref(lesson), in: $0)) }
            return (body, notes)
        }
        var passed = [Int](repeating: 0, count: course.lessons.count)
        for result in report.results where result.status == .passed { passed[result.lessonIndex] += 1 }
        let verified = passed

        let common = CommonValues(course: course, words: words, swiftVersion: swiftVersion, layout: templates.layout,
                                  bodies: rendered.map(\.body), assets: assets, search: input.search)
        @Sendable func layoutValues(_ title: String, _ values: TemplateRecord, content: String, description: String = "") -> TemplateRecord {
            var layout = values
            layout["pageTitle"] = .text(title)
            layout["pageDescription"] = .text(description)
            layout["content"] = .html(content)
            layout["stylesheets"] = common.stylesheets(PageStyles(content: content))
            return layout
        }
        @Sendable func page(_ title: String, _ values: TemplateRecord, content: String, description: String = "") -> SiteFile {
            SiteFile(path: "", bytes: Array(templates.layout.render(layoutValues(title, values, content: content, description: description)).utf8))
        }
        let searchCopies = input.search && SearchCopy.applies(to: templates)
        @Sendable func title(_ lesson: Lesson) -> String { lesson.title ?? lesson.slug }

        // The index.
        var index = common.values(current: nil, isIndex: true)
        index["lessons"] = .list(course.lessons.enumerated().map { number, lesson in
            [
                "number": .text(String(number + 1)),
                "label": .text(SitePages.label(of: lesson, number: number, course: course, words: words)),
                "numbered": .bool(course.config.labels[lesson.fileName] == nil),
                "title": .text(title(lesson)),
                "href": .text(pageHref(lesson)),
                "introduction": .html(rendered[number].body.introduction),
                "summary": .html(rendered[number].body.summary),
                // A page with no scenario (a glossary) or no note says nothing of them.
                "scenarioCount": .text(lesson.scenarios.isEmpty ? "" : words.scenarioCount(verified[number])),
                "noteCount": .text(lesson.notes.isEmpty ? "" : words.noteCount(lesson.notes.count)),
            ]
        })
        index["description"] = .text(course.config.description ?? "")
        index["start"] = course.lessons.first.map { .record(["title": .text(title($0)), "href": .text(pageHref($0))]) }
            ?? .record(["title": .text(""), "href": .text("")])
        index["scenarioTotal"] = .text(words.scenarioCount(verified.reduce(0, +)))
        let noteTotal = course.lessons.map(\.notes.count).reduce(0, +)
        index["noteTotal"] = .text(noteTotal == 0 ? "" : words.noteCount(noteTotal))
        var indexFile = page(course.config.title, index, content: templates.index.render(index),
                             description: course.config.description ?? "")
        indexFile.path = indexPage
        try sink.add(indexFile)

        // The lessons, on every core, each handed to the sink as soon as it is made.
        let failures = lessonIndices.concurrentMap { number -> SiteWriteError? in
            let lesson = course.lessons[number]
            var values = common.values(current: number)
            func link(_ other: Int) -> TemplateValue {
                guard course.lessons.indices.contains(other) else { return .record(["title": .text(""), "href": .text("")]) }
                let target = course.lessons[other]
                return .record(["title": .text(title(target)), "href": .text(pageHref(target))])
            }
            let body = rendered[number].body
            values["lesson"] = .record([
                "number": .text(String(number + 1)),
                "label": .text(SitePages.label(of: lesson, number: number, course: course, words: words)),
                "numbered": .bool(course.config.labels[lesson.fileName] == nil),
                "title": .text(title(lesson)),
                "body": .html(body.html),
                "sections": values["pageMap"] ?? .list([]),
                "scenarioCount": .text(lesson.scenarios.isEmpty ? "" : words.scenarioCount(verified[number])),
            ])
            values["previous"] = link(number - 1)
            values["next"] = link(number + 1)
            // What a search engine shows of the page: the lesson's lead, or its first sentence.
            let layout = layoutValues("\(title(lesson)) · \(course.config.title)", values, content: templates.lesson.render(values),
                                      description: plainText(ofHTML: body.summary))
            let file = SiteFile(path: pageName(lesson), bytes: Array(templates.layout.render(layout).utf8))
            do throws(SiteWriteError) {
                try sink.add(file)
                if searchCopies {
                    try sink.addSearchCopy(SiteFile(path: file.path, bytes: Array(templates.layout.render(SearchCopy.values(layout)).utf8)))
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }

        // The limitations page: what a note is, an index by lesson, then every note with its
        // section and a link back to its place.
        var limitations = common.values(current: nil, isLimitations: true)
        limitations["groups"] = .list(common.noteGroups.map { group in
            var group = group
            let number = Int(SitePages.text(group["number"])) ?? 1
            let lesson = course.lessons[number - 1]
            let bodies = rendered[number - 1].notes
            let sectionOf = rendered[number - 1].body.sectionOfNote
            group["notes"] = .list(lesson.notes.map { note in
                let section = sectionOf[note.number]
                return [
                    "label": .text(note.label),
                    "id": .text("dr\(note.number)"),
                    "href": .text("\(pageHref(lesson))#dr\(note.number)"),
                    "body": .html(bodies[note.number] ?? escapeHTML(note.text)),
                    "section": .text(section?.title ?? ""),
                    "sectionHref": .text(section.map { "\(pageHref(lesson))#\($0.anchor)" } ?? ""),
                ]
            })
            return group
        })
        if hasLimitationsPage(course) {
            var limitationsFile = page("\(words.limitations) · \(course.config.title)", limitations,
                                       content: templates.limitations.render(limitations), description: words.limitationsIntro)
            limitationsFile.path = limitationsPage
            try sink.add(limitationsFile)
        }

        // The whole course on one page: every lesson's body, its anchors made unique. The page
        // is as large as all the lessons together, so it is never held whole: each body is
        // relinked when the template reaches it, written and dropped, and the page goes to the
        // sink in chunks as the layout and the page template are rendered.
        var whole = common.values(current: nil, isPrint: true)
        let lessonPages = Set(course.lessons.map(pageHref))
        whole["description"] = index["description"]
        whole["lessons"] = .list(course.lessons.enumerated().map { number, lesson in
            let body = rendered[number].body.html, slug = lesson.slug
            return [
                "number": .text(String(number + 1)),
                "label": .text(SitePages.label(of: lesson, number: number, course: course, words: words)),
                "numbered": .bool(course.config.labels[lesson.fileName] == nil),
                "title": .text(title(lesson)),
                "id": .text(slug),
                // Relinking keeps every byte outside the attributes it changes: empty only when
                // the body is.
                "body": .deferred(DeferredHTML(isEmpty: body.isEmpty, making: {
                    WholeCourse.relinked(body, lesson: slug, lessonPages: lessonPages)
                })),
                "scenarioCount": .text(lesson.scenarios.isEmpty ? "" : words.scenarioCount(verified[number])),
            ]
        })
        let wholeContent = whole
        var wholeLayout = whole
        wholeLayout["pageTitle"] = .text("\(words.wholeCourse) · \(course.config.title)")
        wholeLayout["pageDescription"] = .text(course.config.description ?? "")
        wholeLayout["content"] = .deferred(DeferredHTML(isEmpty: templates.print.rendersNothing(wholeContent)) { write in
            templates.print.render(wholeContent, writing: write)
        })
        // The whole course holds what its header and every lesson hold.
        var wholeHeader = wholeContent
        wholeHeader["lessons"] = .list([])
        wholeLayout["stylesheets"] = common.stylesheets(PageStyles(contents: [templates.print.render(wholeHeader)] + rendered.map(\.body.html)))
        let wholeValues = wholeLayout
        try sink.addStreamed(path: printPage) { write in templates.layout.render(wholeValues, writing: write) }

        var pages = course.lessons.count + (hasLimitationsPage(course) ? 3 : 2)
        if input.search {
            let values = common.values(current: nil, isSearch: true)
            var searchFile = page("\(words.search) · \(course.config.title)", values, content: templates.search.render(values))
            searchFile.path = searchPage
            try sink.add(searchFile)
            pages += 1
        }

        // A part sheet no page links is not sent (a course without a refusal has no use for
        // their styles).
        let linked = common.linkedParts.withLock { $0 }
        let unlinked = Set(PageStyles.parts.map(\.file).filter { !linked.contains($0) }.compactMap(assets.href))
        let shipped = assets.files.filter { !unlinked.contains($0.path) }
        for file in shipped { try sink.add(file) }
        return (pages, shipped.count)
    }

    /// Every file of the site, collected: for tests and small courses.
    package static func files(_ input: SiteInput) throws(SiteWriteError) -> [SiteFile] {
        let sink = CollectingSink()
        try render(input, into: sink)
        return sink.files
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

/// The values every page template sees. The navigation lists every lesson on every page; its
/// entries are made once and only the current one differs from page to page.
extension SitePages {
    /// What a page says it is above its title: the label `course.json` gives its file (a
    /// summary, a glossary, an appendix), else "Lesson N" in the course's language.
    static func label(of lesson: Lesson, number: Int, course: Course, words: SiteWords) -> String {
        course.config.labels[lesson.fileName] ?? "\(words.lesson) \(number + 1)"
    }
}

private struct CommonValues: Sendable {
    var shared: TemplateRecord
    var navEntries: [TemplateRecord]
    /// Each lesson's page map: its sections, each with the notes that stand in it (notes
    /// before the first section come first, under the lesson's title).
    var pageMaps: [TemplateValue]
    /// The lessons that state notes: number, title, href, anchor and the range of their notes.
    var noteGroups: [TemplateRecord]
    var lessonEntries: TemplateValue
    /// The site's assets, for the sheets a page links.
    var assets: SiteAssets
    /// The part sheets some page has linked so far: a site ships those and no other.
    let linkedParts = Locked<Set<String>>([])

    init(course: Course, words: SiteWords, swiftVersion: String, layout: Template, bodies: [LessonBody], assets: SiteAssets,
         search: Bool) {
        self.assets = assets
        func noteLinks(_ numbers: [Int]) -> TemplateValue {
            .list(numbers.map { ["label": .text("DR\($0)"), "href": .text("#dr\($0)")] })
        }
        pageMaps = zip(course.lessons, bodies).map { lesson, body in
            var entries: [TemplateRecord] = []
            if !body.leadingNotes.isEmpty {
                entries.append(["title": .text(lesson.title ?? lesson.slug), "href": .text("#main"),
                                "notes": noteLinks(body.leadingNotes)])
            }
            entries += body.sections.map {
                ["title": .text($0.title), "href": .text("#\($0.anchor)"), "notes": noteLinks($0.notes)]
            }
            return .list(entries)
        }
        // Each entry is rendered once for all the pages that list it as it is (all but its own),
        // by the layout's blocks (on every core: a thousand entries).
        navEntries = Array(course.lessons.enumerated()).concurrentMap { index, lesson in
            let entry: TemplateRecord = [
                "number": .text(String(index + 1)),
                "label": .text(SitePages.label(of: lesson, number: index, course: course, words: words)),
                "numbered": .bool(course.config.labels[lesson.fileName] == nil),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(SitePages.pageHref(lesson)),
                "current": .bool(false),
                "sections": .list([]),
            ]
            return entry.keepingRenderings(by: [layout])
        }
        noteGroups = course.lessons.enumerated().compactMap { number, lesson in
            guard let first = lesson.notes.first, let last = lesson.notes.last else { return nil }
            return [
                "number": .text(String(number + 1)),
                "title": .text(lesson.title ?? lesson.slug),
                "href": .text(SitePages.pageHref(lesson)),
                "anchor": .text("lesson-\(number + 1)"),
                "range": .text(first.number == last.number ? first.label : "\(first.label)–\(last.label)"),
            ]
        }
        lessonEntries = .list(course.lessons.enumerated().map { index, lesson in
            ["title": .text(lesson.title ?? lesson.slug), "href": .text("#\(lesson.slug)"), "notes": .list([])]
        })
        shared = [
            "lang": .text(course.config.language),
            "courseTitle": .text(course.config.title),
            "indexHref": .text(SitePages.indexPage),
            "limitationsHref": .text(SitePages.hasLimitationsPage(course) ? SitePages.limitationsPage : ""),
            "aboutNotesHref": .text("\(SitePages.limitationsPage)#\(SitePages.aboutNotesAnchor)"),
            "printHref": .text(SitePages.printPage),
            "searchHref": .text(search ? SitePages.searchPage : ""),
            "stylesheet": .text(assets.href(PageStyles.base) ?? "assets/style.css"),
            "stylesheets": .list([]),
            "searchScript": .text(assets.href("search.js") ?? ""),
            "favicon": .text(SitePages.favicon),
            "swiftVersion": .text(swiftVersion),
            "words": .record([
                "contents": .text(words.contents), "lessons": .text(words.lessons),
                "lesson": .text(words.lesson), "onThisPage": .text(words.onThisPage),
                "previous": .text(words.previous), "next": .text(words.next),
                "home": .text(words.home), "limitations": .text(words.limitations),
                "limitationsIntro": .text(words.limitationsIntro),
                "allLimitations": .text(words.allLimitations),
                "backToLesson": .text(words.backToLesson),
                "skipToContent": .text(words.skipToContent),
                "footer": .text(course.lessons.contains { $0.scenarios.contains { $0.expectation.kind == .errors } }
                    ? words.footerWithRefusals(swiftVersion) : words.footer(swiftVersion)),
                "start": .text(words.start),
                "aboutNotesTitle": .text(words.aboutNotesTitle),
                "aboutNotes": .text(words.aboutNotes),
                "notesByLesson": .text(words.notesByLesson),
                "inSection": .text(words.inSection),
                "search": .text(words.search),
                "searchPlaceholder": .text(words.searchPlaceholder),
                "searchButton": .text(words.searchButton),
                "searchResults": .text(words.searchResults),
                "searchNothing": .text(words.searchNothing),
                "searchNeedsScript": .text(words.searchNeedsScript),
                "searchNeedsServer": .text(words.searchNeedsServer),
                "searchClose": .text(words.searchClose),
                "backToTop": .text(words.backToTop),
                "wholeCourse": .text(words.wholeCourse),
                "wholeCourseLink": .text(words.wholeCourseLink),
            ]),
        ]
    }

    /// The layout's `stylesheets`: where in the site each part sheet a page links is.
    func stylesheets(_ styles: PageStyles) -> TemplateValue {
        linkedParts.withLock { $0.formUnion(styles.files) }
        return .list(styles.files.compactMap { file in assets.href(file).map { ["href": .text($0)] } })
    }

    func values(current: Int?, isIndex: Bool = false, isLimitations: Bool = false, isPrint: Bool = false,
                isSearch: Bool = false) -> TemplateRecord {
        var nav = navEntries
        var values = shared
        if let current {
            nav[current]["current"] = .bool(true)
            nav[current]["sections"] = pageMaps[current]
            values["pageMap"] = pageMaps[current]
        } else if isLimitations {
            values["pageMap"] = .list(noteGroups.map {
                ["title": $0["title"]!, "href": .text("#\(SitePages.text($0["anchor"]))"), "notes": .list([])]
            })
        } else if isPrint {
            values["pageMap"] = lessonEntries
        } else {
            values["pageMap"] = .list([])
        }
        values["nav"] = .list(nav)
        values["isIndex"] = .bool(isIndex)
        values["isLimitations"] = .bool(isLimitations)
        values["isPrint"] = .bool(isPrint)
        values["isSearch"] = .bool(isSearch)
        return values
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

    /// The text of a template value, empty for anything else.
    static func text(_ value: TemplateValue?) -> String {
        if case .text(let text)? = value { return text }
        return ""
    }
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
