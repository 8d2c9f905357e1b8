/// The names each page template may use, and their kinds: the shapes of the template contexts
/// (PageContexts.swift), each read from a sample of it. A name a context lacks is an unknown
/// placeholder when the templates are loaded; a name it has always has a value.
package enum SiteSchema {
    package static let layout = TemplateSchema(shapeOf: LayoutContext(
        shared: .sample, own: LayoutNames(pageTitle: "", pageDescription: "", content: RenderedHTML(""))))

    package static let index = TemplateSchema(shapeOf: IndexContext(shared: .sample, own: IndexNames(
        lessons: [IndexEntry(number: 1, label: "", numbered: true, title: "", href: "", introduction: RenderedHTML(""),
                             summary: RenderedHTML(""), scenarioCount: "", noteCount: "")],
        description: "", start: .none, scenarioTotal: "", noteTotal: "")))

    package static let lesson = TemplateSchema(shapeOf: LessonContext(shared: .sample, own: LessonNames(
        lesson: PageLesson(number: 1, label: "", numbered: true, title: "", body: RenderedHTML(""),
                           sections: [.sample], scenarioCount: ""),
        previous: .none, next: .none)))

    package static let limitations = TemplateSchema(shapeOf: LimitationsContext(shared: .sample, own: LimitationsNames(
        groups: [NoteGroup(number: 1, title: "", href: "", anchor: "", range: "", notes: [
            LimitationNote(label: "", id: "", href: "", body: RenderedHTML(""), section: "", sectionHref: ""),
        ])])))

    package static let print = TemplateSchema(shapeOf: PrintContext(shared: .sample, own: PrintNames(
        description: "",
        lessons: [PrintedLesson(number: 1, label: "", numbered: true, title: "", id: "", body: RenderedHTML(""),
                                scenarioCount: "")])))

    package static let search = TemplateSchema(shapeOf: SearchContext(shared: .sample, own: SearchNames()))

    /// The names every page template sees.
    package static let shared = TemplateSchema(shapeOf: SharedContext.sample)
}

/// Samples of the contexts, for their shapes: one item in every list.
extension SharedContext {
    static let sample = SharedContext(
        lang: "", courseTitle: "", indexHref: "", limitationsHref: "", aboutNotesHref: "", printHref: "",
        searchHref: "", stylesheet: "", stylesheets: [SheetLink(href: "")], searchScript: "", favicon: "",
        swiftVersion: "", words: EncodedOnce(PageWords(SiteWords.english, footer: "")),
        nav: KeptList([NavEntry(number: 1, label: "", numbered: true, title: "", href: "", current: true,
                                sections: [.sample])], keepingRenderingsBy: []),
        pageMap: [.sample], isIndex: false, isLimitations: false, isPrint: false, isSearch: false)
}

extension MapEntry {
    static let sample = MapEntry(title: "", href: "", notes: [NoteLink(label: "", href: "")])
}
