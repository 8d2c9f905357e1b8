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

    init(pagefind: Pagefind, pagesPerShard: Int = SearchShards.defaultPagesPerShard) {
        self.pagefind = pagefind
        self.pagesPerShard = pagesPerShard
    }

    /// Pagefind where `COURSEBOOK_PAGEFIND` or `PATH` says (see `Pagefind.locate`), in shards
    /// of the size `COURSEBOOK_SEARCH_SHARD_PAGES` says, if it says one.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> SearchIndexer? {
        let size = environment["COURSEBOOK_SEARCH_SHARD_PAGES"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        return Pagefind.locate(environment: environment).map {
            SearchIndexer(pagefind: $0, pagesPerShard: size ?? SearchShards.defaultPagesPerShard)
        }
    }

    /// What `index` made: how many pages the index holds, in how many shards (`SearchShards`),
    /// and how many of those pages Pagefind read in this build; `reused` when every shard is
    /// the one already in place (its pages unchanged, its files verified).
    package struct Outcome: Sendable, Equatable {
        package var pages: Int
        package var reused: Bool
        package var shards = 1
        /// The pages of the shards Pagefind indexed again (0 when `reused`).
        package var indexedPages = 0
        /// How many shards Pagefind indexed again.
        package var indexedShards = 0
    }

    /// The folder of the index inside a site, and the record beside each shard's files of what
    /// it was built from.
    package static let folder = "pagefind"
    package static let recordName = "coursebook-index.sha256"

    /// At most this many pages a shard on average (`COURSEBOOK_SEARCH_SHARD_PAGES` sets
    /// another, for tests and measurements).
    var pagesPerShard = SearchShards.defaultPagesPerShard

    /// The folder of shard `number` inside a site.
    static func shardFolder(_ number: Int) -> String {
        number == 0 ? folder : folder + "/" + SearchShards.folder(number)
    }

    /// Indexes `pages` of `site` (the lesson pages, paths inside it) into `site/pagefind/`, in
    /// shards (`SearchShards`), one Pagefind run after another.
    ///
    /// Pagefind reads only those pages: it is given a folder of one shard's search copies when
    /// every page has one (`copies`: the SHA-256 of each, written into `SearchCopy.folder` of
    /// the site), else of the pages themselves (hard links, copies where links cannot be
    /// made), never the whole-course page, the index page or the limitations page. A shard
    /// of the site in place at `previous` whose record says it was built from bytes
    /// byte-for-byte those Pagefind would read now, and whose files are byte-for-byte those
    /// the record names, is copied instead and Pagefind does not run for it: a changed,
    /// missing or extra file in it, or a changed page of the shard, means a new bundle for
    /// that shard. The list of the shards (`SearchShards.listName`) is written last.
    package func index(site: String, pages: [String], copies: [String: String] = [:],
                       previous: String?) throws(Pagefind.Failure) -> Outcome {
        let read = Self.readDigests(site: site, pages: pages, copies: copies)
        let digests = Dictionary(read.digests, uniquingKeysWith: { first, _ in first })
        let plan = SearchShards(pages: pages, pagesPerShard: pagesPerShard)
        var outcome = Outcome(pages: 0, reused: true, shards: plan.shards.count)
        for (number, members) in plan.shards.enumerated() {
            let shard = members.map { ($0, digests[$0] ?? "") }
            let into = site + "/" + Self.shardFolder(number)
            if let previous, let reused = SearchIndexRecord.reuse(from: previous + "/" + Self.shardFolder(number),
                                                                    pages: shard, into: into) {
                outcome.pages += reused
                continue
            }
            let count = try run(site: site, pages: members, fromCopies: read.fromCopies, into: into, primary: number == 0)
            SearchIndexRecord(pagesIndexed: count, pages: shard, files: SearchIndexRecord.digests(of: into))
                .write(to: into + "/" + Self.recordName)
            outcome.pages += count
            outcome.indexedPages += count
            outcome.indexedShards += 1
            outcome.reused = false
        }
        Self.writeList(plan, site: site)
        return outcome
    }

    /// The shards of the index in place at `previous` taken into `site` when their records
    /// prove them built from `pages` as they are now; the others' files without their
    /// records (stale, until a refresh indexes them again). Nil unless every shard was taken.
    func reuse(site: String, pages: [String], copies: [String: String] = [:], previous: String) -> Outcome? {
        let read = Self.readDigests(site: site, pages: pages, copies: copies)
        let digests = Dictionary(read.digests, uniquingKeysWith: { first, _ in first })
        let plan = SearchShards(pages: pages, pagesPerShard: pagesPerShard)
        var outcome = Outcome(pages: 0, reused: true, shards: plan.shards.count)
        for (number, members) in plan.shards.enumerated() {
            let from = previous + "/" + Self.shardFolder(number), into = site + "/" + Self.shardFolder(number)
            if let reused = SearchIndexRecord.reuse(from: from, pages: members.map { ($0, digests[$0] ?? "") }, into: into) {
                outcome.pages += reused
            } else {
                SearchIndexRecord.carryOver(from: from, into: into)
                outcome.reused = false
            }
        }
        Self.writeList(plan, site: site)
        return outcome.reused ? outcome : nil
    }

    /// The list of the bundles in `site`, which the search page merges into the first: the
    /// shards with a bundle there (a stale index carried over may lack some), each with the ids
    /// of its pages and, when there are several, how many balance pages it was given
    /// (`balance`; see `SearchShards.listText`).
    static func writeList(_ plan: SearchShards, site: String) {
        let bundles = plan.shards.indices.compactMap { number -> (shard: Int, pages: [String])? in
            let bundle = site + "/" + shardFolder(number)
            guard number == 0 || FileManager.default.fileExists(atPath: bundle + "/pagefind-entry.json") else { return nil }
            return (number, pageIDs(inBundle: bundle))
        }
        // One bundle is ranked by its own statistics, which are the whole index's.
        let balance = bundles.count < 2 ? nil : Self.balance(bundles.map { site + "/" + shardFolder($0.shard) })
        let path = site + "/" + folder + "/" + SearchShards.listName
        try? FileManager.default.createDirectory(atPath: site + "/" + folder, withIntermediateDirectories: true)
        try? writeAtomically(Array(SearchShards.listText(bundles, balance: balance).utf8), to: path, keepingPermissions: false)
    }

    /// The ids Pagefind gave the pages of a bundle, which its results carry: the names of the
    /// bundle's fragments (`fragment/ID.pf_fragment`), sorted.
    static func pageIDs(inBundle bundle: String) -> [String] {
        let suffix = ".pf_fragment"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundle + "/fragment")) ?? []
        return names.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// Gives the bundles in `folders` the balance pages that make each one's mean page length
    /// the whole index's (`SearchBalance`), in their metadata, and returns how many each holds.
    /// A bundle whose metadata changes is written under a new name (its entry file names it, and
    /// a browser that kept the old one fetches the new), and its record is signed again for its
    /// files as they now are. Nil when a bundle's metadata cannot be read (another Pagefind, or
    /// a course in several languages): the search page then ranks by the idf alone.
    static func balance(_ folders: [String]) -> [Int]? {
        var bundles: [BundleMeta] = []
        for folder in folders {
            guard let bundle = BundleMeta(folder: folder) else { return nil }
            bundles.append(bundle)
        }
        let balance = SearchBalance(lengths: bundles.map(\.meta.lengths))
        return zip(bundles, balance.pages).map { bundle, pages in
            let balanced = bundle.meta.balanced(pages)
            guard balanced != bundle.meta else { return pages.count }
            return bundle.write(balanced) ? pages.count : bundle.meta.balancePages
        }
    }

    /// A bundle's entry file (`pagefind-entry.json`: Pagefind's version and, for each language,
    /// the hash that names its metadata and its word splitter), read; nil when it does not read.
    static func entry(in folder: String) -> [String: Any]? {
        readFile(atPath: folder + "/pagefind-entry.json").flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
    }

    /// A bundle's entry file and metadata, read from its folder.
    struct BundleMeta {
        var folder: String
        var entry: [String: Any]
        var language: String
        var name: String
        var meta: PagefindMeta

        init?(folder: String) {
            guard let entry = SearchIndexer.entry(in: folder),
                  let languages = entry["languages"] as? [String: Any], languages.count == 1,
                  let (language, value) = languages.first, let hash = (value as? [String: Any])?["hash"] as? String,
                  Self.isName(language), Self.isName(hash),
                  let compressed = readFile(atPath: folder + "/pagefind.\(hash).pf_meta"),
                  let meta = Gzip.decompressed(compressed).flatMap(PagefindMeta.init(bytes:)) else { return nil }
            (self.folder, self.entry, self.language, self.name, self.meta) = (folder, entry, language, hash, meta)
        }

        /// Whether a language or a metadata hash from the entry file can stand in a file name
        /// of the bundle's folder: letters, digits, `_` and `-` (Pagefind's own, `tr_96bb2943a2`),
        /// never a path.
        static func isName(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
        }

        /// Writes `meta` in place of the bundle's, under a name of its own (the language and
        /// the first bytes of its SHA-256, as Pagefind names it), then the entry naming it,
        /// then the record; false when nothing could be changed.
        func write(_ meta: PagefindMeta) -> Bool {
            let bytes = meta.bytes
            var hash = SHA256()
            hash.update(bytes)
            let name = language + "_" + hash.finalize().prefix(10)
            guard let compressed = Gzip.compressed(bytes), var languages = entry["languages"] as? [String: Any],
                  var info = languages[language] as? [String: Any] else { return false }
            info["hash"] = name
            languages[language] = info
            var entry = self.entry
            entry["languages"] = languages
            guard let entryBytes = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return false }
            return SearchIndexRecord.keepingRecord(in: folder) {
                guard (try? writeAtomically(compressed, to: folder + "/pagefind.\(name).pf_meta", keepingPermissions: false)) != nil,
                      (try? writeAtomically(Array(entryBytes), to: folder + "/pagefind-entry.json", keepingPermissions: false)) != nil
                else { return false }
                if name != self.name { try? FileManager.default.removeItem(atPath: folder + "/pagefind.\(self.name).pf_meta") }
                return true
            }
        }
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

    /// The folder Pagefind reads one shard from, inside the staged site, removed after.
    static let shardReading = ".coursebook-search-shard"

    /// Runs Pagefind over a folder of just `pages` (hard links to their search copies when
    /// `fromCopies`, else to the pages), made inside `site` and removed after, writing the
    /// bundle into `into`; the `primary` bundle keeps Pagefind's scripts.
    private func run(site: String, pages: [String], fromCopies: Bool, into: String, primary: Bool) throws(Pagefind.Failure) -> Int {
        let files = FileManager.default
        let reading = site + "/" + Self.shardReading
        let source = fromCopies ? site + "/" + SearchCopy.folder : site
        defer { try? files.removeItem(atPath: reading) }
        do {
            try? files.removeItem(atPath: reading)
            try files.createDirectory(atPath: reading, withIntermediateDirectories: false)
            for page in pages {
                let target = reading + "/" + page
                let folder = (target as NSString).deletingLastPathComponent
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
                if link(source + "/" + page, target) != 0 {
                    try files.copyItem(atPath: source + "/" + page, toPath: target)
                }
            }
        } catch {
            throw Pagefind.Failure(description: "cannot gather the pages to index: \(error.localizedDescription)")
        }
        Self.returnFreedMemory()
        let count = try pagefind.index(site: reading, output: into)
        Self.removeUnloadedFiles(from: into, primary: primary)
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
    /// A shard after the first is searched with the first's scripts and splitter
    /// (`mergeIndex`): it keeps only its index.
    static func removeUnloadedFiles(from folder: String, primary: Bool = true) {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: folder) else { return }
        var splitters: Set<String> = []
        if let languages = entry(in: folder)?["languages"] as? [String: Any] {
            for case let language as [String: Any] in languages.values {
                splitters.insert("wasm.\((language["wasm"] as? String) ?? "unknown").pagefind")
            }
        }
        for name in names {
            let interface = name.hasPrefix("pagefind-") && (name.hasSuffix("ui.js") || name.hasSuffix("ui.css") || name == "pagefind-highlight.js")
            let unusedSplitter = name.hasPrefix("wasm.") && (!primary || !splitters.isEmpty && !splitters.contains(name))
            let script = !primary && (name == "pagefind.js" || name == "pagefind-worker.js")
            if interface || unusedSplitter || script { try? files.removeItem(atPath: folder + "/" + name) }
        }
    }
}
