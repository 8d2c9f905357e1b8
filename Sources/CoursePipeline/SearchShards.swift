internal import CourseFiles
import Foundation

/// Which lesson pages each Pagefind run indexes. A large course's index is made in shards, one
/// Pagefind run after another, so that the memory of a build is that of one shard's run (a run
/// holds some 0.4 MB for each page it reads: 430 MB for 1000 lessons, 64 MB for 125), and a build
/// after one lesson changed indexes again only that lesson's shard. Each shard is a Pagefind
/// bundle of its own; the search page searches them all as one (Pagefind's `mergeIndex`).
///
/// A page's shard follows from its name alone: the first bytes of the SHA-256 of its path,
/// modulo the number of shards, a power of two just large enough that no shard holds more than
/// `pagesPerShard` pages on average. So a lesson added, removed or renamed moves no other
/// lesson, until the course grows past a power of two, when every shard splits in two (and
/// shrinks back the same way). A shard left empty by chance halves the count, so that every
/// bundle has pages. Pages taken at random keep each shard's word statistics close to the
/// whole course's, which is what Pagefind ranks by within a shard.
struct SearchShards: Equatable {
    /// The pages of each shard, in the order of the course; the first is the primary bundle.
    var shards: [[String]]

    /// Pages per shard, on average at most: 128 keeps one run near 60 MB.
    static let defaultPagesPerShard = 128

    init(pages: [String], pagesPerShard: Int = defaultPagesPerShard) {
        let capacity = max(pagesPerShard, 1)
        var count = 1
        while count * capacity < pages.count { count *= 2 }
        let keys = pages.map(Self.key)
        while true {
            var shards = Array(repeating: [String](), count: count)
            for (page, key) in zip(pages, keys) { shards[Int(key % UInt64(count))].append(page) }
            if count == 1 || shards.allSatisfy({ !$0.isEmpty }) {
                self.shards = shards
                return
            }
            count /= 2
        }
    }

    /// The first eight bytes of the SHA-256 of a page's path, as a number.
    static func key(_ page: String) -> UInt64 {
        var hash = SHA256()
        hash.update(page)
        return hash.finalizeBytes().prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// The folder of shard `number` inside the site's index folder (`SearchIndexer.folder`):
    /// the first is the index folder itself, which also holds Pagefind's scripts.
    static func folder(_ number: Int) -> String { number == 0 ? "" : folderPrefix + "\(number)" }
    static let folderPrefix = "shard-"

    /// The list of the bundles, which the search page reads (`search.js`).
    static let listName = "coursebook-shards.json"

    /// The text of that list, for the bundles in place (`bundles`: each one's shard number and
    /// the ids Pagefind gave its pages, the names of its fragments): `shards`, the folders of the
    /// bundles after the first, inside the index folder, each ending in `/`, which the search page
    /// merges into the first; `pages`, each bundle's page ids, the first bundle's first; and
    /// `balance`, when given, how many balance pages each bundle holds (`SearchBalance`).
    /// Pagefind ranks a result by its own bundle's word statistics; the balance pages make each
    /// bundle's mean page length the whole index's, and with the ids and the counts the search
    /// page knows each result's bundle and its idf, and ranks the results as one index would
    /// (see `search.js`).
    static func listText(_ bundles: [(shard: Int, pages: [String])], balance: [Int]? = nil) -> String {
        let list = List(shards: bundles.dropFirst().map { folder($0.shard) + "/" }, pages: bundles.map(\.pages),
                        balance: balance)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and arrays of them cannot fail.
        return String(decoding: (try? encoder.encode(list)) ?? Data(), as: UTF8.self) + "\n"
    }

    private struct List: Encodable {
        var shards: [String]
        var pages: [[String]]
        /// Left out when nil (one bundle, or a bundle whose metadata could not be read).
        var balance: [Int]?
    }
}
