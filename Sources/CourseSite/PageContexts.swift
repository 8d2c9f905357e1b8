/// The template contexts: what each page template is rendered with, and, read from their
/// samples, the names it may use (`SiteSchema`). A property's name is a template's name, its
/// type the kind (see `TemplateEncoding`). The manual's template reference (docs/site.md) lists
/// the same names; `SiteSchemaTests` holds the two together.

/// A page template's context: the names every page template sees, and the page's own.
struct PageContext<Own: Encodable & Sendable>: Encodable, Sendable {
    var shared: SharedContext
    var own: Own

    /// The two sets of names side by side in one record (a name in both is a mistake the
    /// encoder stops at).
    func encode(to encoder: any Encoder) throws {
        try shared.encode(to: encoder)
        try own.encode(to: encoder)
    }
}

typealias LayoutContext = PageContext<LayoutNames>
typealias IndexContext = PageContext<IndexNames>
typealias LessonContext = PageContext<LessonNames>
typealias LimitationsContext = PageContext<LimitationsNames>
typealias PrintContext = PageContext<PrintNames>
typealias SearchContext = PageContext<SearchNames>

/// The names every page template sees.
struct SharedContext: Encodable, Sendable {
    var lang: String
    var courseTitle: String
    var indexHref: String
    /// Empty for a course without limitation notes (it has no limitations page).
    var limitationsHref: String
    var aboutNotesHref: String
    var printHref: String
    /// Empty for a site without a search index.
    var searchHref: String
    var stylesheet: String
    /// The part sheets the page needs: given to the layout, empty for the page templates.
    var stylesheets: [SheetLink]
    var searchScript: String
    var favicon: String
    var swiftVersion: String
    /// The same on every page: encoded once.
    var words: EncodedOnce<PageWords>
    var nav: KeptList<NavEntry>
    var pageMap: [MapEntry]
    var isIndex: Bool
    var isLimitations: Bool
    var isPrint: Bool
    var isSearch: Bool
}

/// The words the templates show, in the course's language (`SiteWords`).
struct PageWords: Encodable, Sendable {
    var contents, lessons, lesson, onThisPage, previous, next, home, limitations: String
    var limitationsIntro, allLimitations, backToLesson, skipToContent, footer, start: String
    var aboutNotesTitle, aboutNotes, notesByLesson, inSection: String
    var search, searchPlaceholder, searchButton, searchResults: String
    var searchNothing, searchNeedsScript, searchNeedsServer, searchClose, backToTop: String
    var wholeCourse, wholeCourseLink: String
}

struct SheetLink: Encodable, Sendable {
    var href: String
}

/// A page's title and where it is; both empty for none (the lesson before the first).
struct PageLink: Encodable, Sendable {
    var title: String
    var href: String

    static let none = PageLink(title: "", href: "")
}

/// A lesson in the navigation.
struct NavEntry: Encodable, Sendable {
    var number: Int
    /// "Lesson N", or what `course.json`'s `labels` calls the page.
    var label: String
    /// No for a labelled page.
    var numbered: Bool
    var title: String
    var href: String
    var current: Bool
    /// The current lesson's page map; empty for the others.
    var sections: [MapEntry]
}

/// A page map's entry: a section (or a lesson) and the limitation notes that stand in it.
struct MapEntry: Encodable, Sendable {
    var title: String
    var href: String
    var notes: [NoteLink]
}

struct NoteLink: Encodable, Sendable {
    var label: String
    var href: String
}

/// The layout's own names, around the page's content.
struct LayoutNames: Encodable, Sendable {
    var pageTitle: String
    /// Empty for none.
    var pageDescription: String
    var content: RenderedHTML
}

struct IndexNames: Encodable, Sendable {
    var lessons: [IndexEntry]
    var description: String
    /// The first lesson.
    var start: PageLink
    var scenarioTotal: String
    /// Empty for a course without limitation notes.
    var noteTotal: String
}

/// A lesson on the index.
struct IndexEntry: Encodable, Sendable {
    var number: Int
    var label: String
    var numbered: Bool
    var title: String
    var href: String
    /// The whole first paragraph.
    var introduction: RenderedHTML
    /// The first sentence, or the lead.
    var summary: RenderedHTML
    /// Empty for a page without scenarios (a glossary).
    var scenarioCount: String
    /// Empty for a page without notes.
    var noteCount: String
}

struct LessonNames: Encodable, Sendable {
    var lesson: PageLesson
    var previous: PageLink
    var next: PageLink
}

/// The lesson a lesson page shows.
struct PageLesson: Encodable, Sendable {
    var number: Int
    var label: String
    var numbered: Bool
    var title: String
    var body: RenderedHTML
    /// Its page map.
    var sections: [MapEntry]
    /// Empty when the page has no scenario.
    var scenarioCount: String
}

struct LimitationsNames: Encodable, Sendable {
    var groups: [NoteGroup]
}

/// A lesson that states limitation notes, on the limitations page.
struct NoteGroup: Encodable, Sendable {
    var number: Int
    var title: String
    var href: String
    /// `lesson-N`.
    var anchor: String
    /// `DR1–DR9`.
    var range: String
    var notes: [LimitationNote]
}

struct LimitationNote: Encodable, Sendable {
    var label: String
    var id: String
    var href: String
    var body: RenderedHTML
    /// Empty for a note before the lesson's first section.
    var section: String
    var sectionHref: String
}

struct PrintNames: Encodable, Sendable {
    var description: String
    var lessons: [PrintedLesson]
}

/// A lesson on the whole-course page.
struct PrintedLesson: Encodable, Sendable {
    var number: Int
    var label: String
    var numbered: Bool
    var title: String
    /// The lesson's name, its anchor on the page.
    var id: String
    /// Its body, anchors prefixed, made when the template reaches it.
    var body: RenderedHTML
    var scenarioCount: String
}

/// The search page has only the names every page has.
struct SearchNames: Encodable, Sendable {}
