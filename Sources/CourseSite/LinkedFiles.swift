import CourseModel

/// The files a course's lessons link to, as the site carries them: each at its path inside
/// the course folder, unless the site writes a file of its own there.
package enum LinkedFiles {
    /// Names at the top of the site that coursebook writes itself.
    static let ownNames: Set<String> = [
        SitePages.indexPage, SitePages.limitationsPage, SitePages.printPage, SitePages.searchPage, SiteWriter.marker,
    ]
    /// Folders at the top of the site that coursebook fills itself.
    static let ownFolders: Set<String> = ["assets", "pagefind"]

    /// Whether the site writes a file of its own at `path` (or a folder that holds it).
    package static func isTaken(_ path: String, by course: Course) -> Bool {
        let first = path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? path
        if path.contains("/") { return ownFolders.contains(first) || ownNames.contains(first) }
        return ownNames.contains(path) || ownFolders.contains(path)
            || course.lessons.contains { SitePages.pageName($0) == path }
    }
}
