internal import CourseModel
internal import CourseSite
internal import CourseFiles
import Foundation
import Processes

/// The site's search index, made by Pagefind (`pip install pagefind-bin`), a static search
/// engine that stems Turkish among other languages: it reads the staged pages and writes
/// `pagefind/` beside them, before the site is swapped into place. Pagefind is optional:
/// without it the site has no search page and no search field, and `build` says so.
package struct SearchIndexer: Sendable {
    /// The program that makes the index, and how long it may take.
    package var pagefind: Pagefind

    init(pagefind: Pagefind) {
        self.pagefind = pagefind
    }

    /// Pagefind where `COURSEBOOK_PAGEFIND` or `PATH` says (see `Pagefind.locate`).
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> SearchIndexer? {
        Pagefind.locate(environment: environment).map(SearchIndexer.init(pagefind:))
    }

    /// What `index` made: how many pages the index holds, and whether it is the one already in
    /// place (its pages unchanged, its files verified) rather than a new one.
    package struct Outcome: Sendable, Equatable {
        package var pages: Int
        package var reused: Bool
    }

    /// The folder of the index inside a site, and the record beside its files of what it was
    /// built from.
    package static let folder = "pagefind"
    package static let recordName = "coursebook-index.sha256"

    /// Indexes `pages` of `site` (the lesson pages, paths inside it) into `site/pagefind/`.
    ///
    /// Pagefind reads only those pages: it is given a folder of their search copies when every
    /// page has one (`copies`: the SHA-256 of each, written into `SearchCopy.folder` of the
    /// site), else a folder of hard links to them (copies where links cannot be made), never
    /// the whole-course page, the index page or the limitations page. When the site in place at
    /// `previous` has an index whose record says it was built from bytes byte-for-byte those
    /// Pagefind would read now, and whose files are byte-for-byte those the record names, that
    /// index is copied instead and Pagefind does not run: a changed, missing or extra file in
    /// it, or a changed page, means a new index.
    package func index(site: String, pages: [String], copies: [String: String] = [:],
                       previous: String?) throws(Pagefind.Failure) -> Outcome {
        let read = Self.readDigests(site: site, pages: pages, copies: copies)
        if let previous, let reused = SearchIndexRecord.reuse(from: previous + "/" + Self.folder, pages: read.digests,
                                                                into: site + "/" + Self.folder) {
            return Outcome(pages: reused, reused: true)
        }
        let count = try run(site: site, pages: pages, fromCopies: read.fromCopies)
        SearchIndexRecord(pagesIndexed: count, pages: read.digests,
                          files: SearchIndexRecord.digests(of: site + "/" + Self.folder))
            .write(to: site + "/" + Self.folder + "/" + Self.recordName)
        return Outcome(pages: count, reused: false)
    }

    /// The index in place at `previous` taken into `site` when its record proves it was built
    /// from `pages` as they are now; else its files without their record (stale, until a
    /// refresh), and nil.
    func reuse(site: String, pages: [String], copies: [String: String] = [:], previous: String) -> Outcome? {
        let read = Self.readDigests(site: site, pages: pages, copies: copies)
        if let reused = SearchIndexRecord.reuse(from: previous + "/" + Self.folder, pages: read.digests,
                                                into: site + "/" + Self.folder) {
            return Outcome(pages: reused, reused: true)
        }
        SearchIndexRecord.carryOver(from: previous + "/" + Self.folder, into: site + "/" + Self.folder)
        return nil
    }

    /// The SHA-256 of what Pagefind reads for each page, in the order of `pages`: its search
    /// copy's when every page has one (then nothing is read back), else the page's own bytes.
    static func readDigests(site: String, pages: [String], copies: [String: String]) -> (digests: [(String, String)], fromCopies: Bool) {
        if !pages.isEmpty, pages.allSatisfy({ copies[$0] != nil }) {
            return (pages.map { ($0, copies[$0]!) }, true)
        }
        return (pages.map { page in
            (page, readFile(atPath: site + "/" + page).map { SearchIndexRecord.digest($0) } ?? "")
        }, false)
    }

    /// Runs Pagefind over a folder of just `pages` (their search copies, already in it, when
    /// `fromCopies`), made inside `site` and removed after.
    private func run(site: String, pages: [String], fromCopies: Bool) throws(Pagefind.Failure) -> Int {
        let files = FileManager.default
        let reading = site + "/" + SearchCopy.folder
        defer { try? files.removeItem(atPath: reading) }
        do {
            if !fromCopies {
                try? files.removeItem(atPath: reading)
                try files.createDirectory(atPath: reading, withIntermediateDirectories: false)
            }
            for page in pages where !fromCopies {
                let target = reading + "/" + page
                let folder = (target as NSString).deletingLastPathComponent
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
                if link(site + "/" + page, target) != 0 {
                    try files.copyItem(atPath: site + "/" + page, toPath: target)
                }
            }
        } catch {
            throw Pagefind.Failure(description: "cannot gather the pages to index: \(error.localizedDescription)")
        }
        Self.returnFreedMemory()
        let count = try pagefind.index(site: reading, output: site + "/" + Self.folder)
        Self.removeUnloadedFiles(from: site + "/" + Self.folder)
        return count
    }

    /// Gives back to the system what coursebook freed (`malloc_trim`), before Pagefind starts:
    /// the pages were made on every core, and the allocator kept their memory (a quarter of a
    /// gigabyte after 1000 lessons) while Pagefind's own peak came on top of it.
    static func returnFreedMemory() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(trim, to: Trim.self)(0) }
        #endif
    }

    /// Pagefind writes its ready-made search interfaces (about 400 KB of scripts and styles)
    /// and a word-splitter for every language beside the index; the site's own search loads
    /// only `pagefind.js`, its worker, the entry file, the index and the splitter of the
    /// languages indexed. The rest is removed, so that the site ships only what a page loads.
    static func removeUnloadedFiles(from folder: String) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: folder) else { return }
        var splitters: Set<String> = []
        if let entry = files.contents(atPath: folder + "/pagefind-entry.json"),
           let object = try? JSONSerialization.jsonObject(with: entry) as? [String: Any],
           let languages = object["languages"] as? [String: Any] {
            for case let language as [String: Any] in languages.values {
                splitters.insert("wasm.\((language["wasm"] as? String) ?? "unknown").pagefind")
            }
        }
        for name in names {
            let interface = name.hasPrefix("pagefind-") && (name.hasSuffix("ui.js") || name.hasSuffix("ui.css") || name == "pagefind-highlight.js")
            let unusedSplitter = name.hasPrefix("wasm.") && !splitters.isEmpty && !splitters.contains(name)
            if interface || unusedSplitter { try? files.removeItem(atPath: folder + "/" + name) }
        }
    }
}
