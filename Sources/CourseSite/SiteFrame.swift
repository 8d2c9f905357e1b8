import BackgroundWork
import CourseFiles
import CourseModel

extension PageWords {
    /// The words the templates show; `footer` is said of the whole course (whether it refuses
    /// programs), so it is given.
    init(_ words: SiteWords, footer: String) {
        self.init(
            contents: words.contents, lessons: words.lessons, lesson: words.lesson, onThisPage: words.onThisPage,
            previous: words.previous, next: words.next, home: words.home, limitations: words.limitations,
            limitationsIntro: words.limitationsIntro, allLimitations: words.allLimitations,
            backToLesson: words.backToLesson, skipToContent: words.skipToContent, footer: footer, start: words.start,
            aboutNotesTitle: words.aboutNotesTitle, aboutNotes: words.aboutNotes,
            notesByLesson: words.notesByLesson, inSection: words.inSection,
            search: words.search, searchPlaceholder: words.searchPlaceholder, searchButton: words.searchButton,
            searchResults: words.searchResults, searchNothing: words.searchNothing,
            searchNeedsScript: words.searchNeedsScript, searchNeedsServer: words.searchNeedsServer,
            searchClose: words.searchClose, backToTop: words.backToTop,
            wholeCourse: words.wholeCourse, wholeCourseLink: words.wholeCourseLink)
    }
}

/// What every page shows around its own content: the names every template sees, with the
/// navigation (every lesson, on every page), the page maps and the part sheets. The
/// navigation's entries are encoded once; only the current one differs from page to page.
struct SiteFrame: Sendable {
    private var shared: SharedContext
    /// Each lesson's page map: its sections, each with the notes that stand in it (notes
    /// before the first section come first, under the lesson's title).
    private var pageMaps: [[MapEntry]]
    private var navEntries: [NavEntry]
    /// The lessons that state notes: number, title, href, anchor and the range of their notes.
    let noteGroups: [NoteGroup]
    /// The whole course's page map: its lessons.
    private var lessonEntries: [MapEntry]
    /// The site's assets, for the sheets a page links.
    private let assets: SiteAssets
    /// The part sheets some page has linked so far: a site ships those and no other.
    let linkedParts = Locked<Set<String>>([])

    init(course: Course, words: SiteWords, swiftVersion: String, layout: Template, bodies: [LessonBody],
         assets: SiteAssets, search: Bool) {
        self.assets = assets
        pageMaps = zip(course.lessons, bodies).map(Self.pageMap)
        navEntries = course.lessons.enumerated().map { index, lesson in
            NavEntry(number: index + 1, label: SitePages.label(of: lesson, number: index, course: course, words: words),
                     numbered: course.config.labels[lesson.fileName] == nil, title: lesson.title ?? lesson.slug,
                     href: SitePages.pageHref(lesson), current: false, sections: [])
        }
        noteGroups = course.lessons.enumerated().compactMap { number, lesson in
            guard let first = lesson.notes.first, let last = lesson.notes.last else { return nil }
            return NoteGroup(number: number + 1, title: lesson.title ?? lesson.slug, href: SitePages.pageHref(lesson),
                             anchor: "lesson-\(number + 1)",
                             range: first.number == last.number ? first.label : "\(first.label)–\(last.label)", notes: [])
        }
        let refuses = course.lessons.contains { $0.scenarios.contains { $0.expectation.kind == .errors } }
        shared = SharedContext(
            lang: course.config.language,
            courseTitle: course.config.title,
            indexHref: SitePages.indexPage,
            limitationsHref: SitePages.hasLimitationsPage(course) ? SitePages.limitationsPage : "",
            aboutNotesHref: "\(SitePages.limitationsPage)#\(SitePages.aboutNotesAnchor)",
            printHref: SitePages.printPage,
            searchHref: search ? SitePages.searchPage : "",
            stylesheet: assets.href(PageStyles.base) ?? "assets/style.css",
            stylesheets: [],
            searchScript: assets.href("search.js") ?? "",
            favicon: SitePages.favicon,
            swiftVersion: swiftVersion,
            words: EncodedOnce(PageWords(words, footer: refuses ? words.footerWithRefusals(swiftVersion) : words.footer(swiftVersion))),
            // Each entry is rendered once for all the pages that list it as it is (all but its
            // own), by the layout's blocks (on every core: a thousand entries).
            nav: KeptList(navEntries, keepingRenderingsBy: [layout]),
            pageMap: [], isIndex: false, isLimitations: false, isPrint: false, isSearch: false)
        lessonEntries = course.lessons.map { MapEntry(title: $0.title ?? $0.slug, href: "#\($0.slug)", notes: []) }
    }

    private static func pageMap(_ lesson: Lesson, _ body: LessonBody) -> [MapEntry] {
        func noteLinks(_ numbers: [Int]) -> [NoteLink] {
            numbers.map { NoteLink(label: "DR\($0)", href: "#dr\($0)") }
        }
        var entries: [MapEntry] = []
        if !body.leadingNotes.isEmpty {
            entries.append(MapEntry(title: lesson.title ?? lesson.slug, href: "#main", notes: noteLinks(body.leadingNotes)))
        }
        entries += body.sections.map { MapEntry(title: $0.title, href: "#\($0.anchor)", notes: noteLinks($0.notes)) }
        return entries
    }

    /// Lesson `index`'s page map.
    func pageMap(ofLesson index: Int) -> [MapEntry] { pageMaps[index] }

    /// The layout's `stylesheets`: where in the site each part sheet a page links is.
    func stylesheets(_ styles: PageStyles) -> [SheetLink] {
        linkedParts.withLock { $0.formUnion(styles.files) }
        return styles.files.compactMap { file in assets.href(file).map(SheetLink.init) }
    }

    /// What a page sees of the site.
    enum Page {
        case index, lesson(Int), limitations, print, search
    }

    /// The names every template sees, on `page`.
    func shared(on page: Page) -> SharedContext {
        var values = shared
        switch page {
        case .lesson(let current):
            var entry = navEntries[current]
            entry.current = true
            entry.sections = pageMaps[current]
            values.nav = shared.nav.replacing(current, with: entry)
            values.pageMap = pageMaps[current]
        case .limitations:
            values.pageMap = noteGroups.map { MapEntry(title: $0.title, href: "#\($0.anchor)", notes: []) }
            values.isLimitations = true
        case .print:
            values.pageMap = lessonEntries
            values.isPrint = true
        case .index:
            values.isIndex = true
        case .search:
            values.isSearch = true
        }
        return values
    }
}
