import CourseModel

/// What the search index reads in place of a lesson page: the page as the built-in layout
/// renders it with no navigation (the contents, listed twice, and the page map are left
/// empty; the article and everything else are the page's own bytes). Pagefind indexes only
/// what stands inside the article (`data-pagefind-body`): the lists of links around it add
/// nothing to the index, and they are most of a page's bytes in a large course (a thousand
/// lessons listed twice on each of a thousand pages: 300 KB a page). The index made from the
/// copies is byte for byte the one made from the pages (`SearchCopyTests` runs Pagefind on
/// both). A layout of the course's own may put anything around the article, so its pages are
/// read as they are.
package enum SearchCopy {
    /// The folder of the copies inside the staged site, removed before the site is put in
    /// place: Pagefind is given this folder and nothing else.
    package static let folder = ".coursebook-search-pages"

    /// Whether the lesson pages of a site made with `templates` get copies.
    static func applies(to templates: TemplateSet) -> Bool { templates.layoutIsBuiltIn }

    /// The layout's values for the copy of the page the `layout` values make.
    static func values(_ layout: TemplateRecord) -> TemplateRecord {
        var values = layout
        values["nav"] = .list([])
        values["pageMap"] = .list([])
        return values
    }
}
