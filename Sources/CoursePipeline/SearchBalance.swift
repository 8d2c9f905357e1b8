/// The statistics of an index in shards made those of one index. Pagefind scores a page in a
/// bundle by BM25 with that bundle's statistics: the share of its pages that hold the word (the
/// idf) and their mean length. The search page takes each score from its bundle's idf to the
/// whole index's (`search.js`); the mean length it cannot take back, since a page's score sums
/// several words (the forms of a word that Pagefind's prefix match finds) and the title's
/// boost. So each bundle is given pages of its own, holding no word (`balance pages`, which no
/// search can find), whose lengths bring its mean length to the whole index's: each bundle's
/// scores are then the whole index's, but for the idf, which the page takes back.
struct SearchBalance: Equatable {
    /// For each bundle, the lengths of its balance pages.
    var pages: [[Int]]

    /// At most this many more balance pages than the fewest that can do it, to find the count
    /// whose mean comes nearest the whole index's (the lengths are whole numbers).
    static let countsTried = 64

    /// The balance of bundles whose pages are `lengths` long (each bundle's real pages, as
    /// Pagefind counted their words). A bundle whose mean is already the whole's gets none.
    init(lengths: [[Int]]) {
        let total = lengths.reduce(0) { $0 + $1.reduce(0, +) }, count = lengths.reduce(0) { $0 + $1.count }
        pages = lengths.map { bundle in Self.pages(for: bundle, total: total, count: count) }
    }

    /// The balance pages for one bundle of the whole index's `count` pages of `total` words:
    /// `k` pages whose `sum` words make the bundle's mean (own + sum) / (n + k) the whole's,
    /// total / count, as nearly as whole numbers can, the fewest pages that come nearest.
    static func pages(for bundle: [Int], total: Int, count: Int) -> [Int] {
        let own = bundle.reduce(0, +), n = bundle.count
        guard total > 0, count > 0, n > 0, own * count != total * n else { return [] }
        // sum = total (n + k) / count − own ≥ 0, so k ≥ (own · count − total · n) / total.
        let fewest = max(1, (own * count - total * n + total - 1) / total)
        // How far the bundle's mean would be from the whole's, in words, with k pages whose
        // lengths sum to a whole number.
        func miss(_ k: Int) -> Double {
            let exact = Double(total * (n + k)) / Double(count)
            return abs(exact - exact.rounded()) / Double(n + k)
        }
        let k = (fewest..<(fewest + countsTried)).min { miss($0) < miss($1) } ?? fewest
        let sum = max(0, Int((Double(total * (n + k)) / Double(count)).rounded()) - own)
        return (0..<k).map { sum / k + ($0 < sum % k ? 1 : 0) }
    }
}

/// A Pagefind bundle's metadata (`pagefind.HASH.pf_meta`, after gzip and Pagefind's
/// `pagefind_dcd` mark): CBOR, an array of the generator's version, the pages (each an array
/// of its id and its word count), then the index chunks, filters, sorts and meta fields, which
/// are kept as they are. Only the pages are read and written: the balance pages are added at
/// their end, where no word of the index points (a page is found only through the words that
/// name its number).
struct PagefindMeta: Equatable {
    static let mark = Array("pagefind_dcd".utf8)
    /// The ids of balance pages begin so; Pagefind's own are a language and a hash (`tr_8a4fd4f`).
    static let balancePrefix = "coursebook-balance-"

    /// The bytes before the pages (the array's head and the version).
    var head: [UInt8]
    var pages: [(id: String, words: Int)]
    /// The bytes after the pages.
    var rest: [UInt8]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.head == rhs.head && lhs.rest == rhs.rest && lhs.pages.elementsEqual(rhs.pages, by: ==)
    }

    /// The word counts of the bundle's own pages, not its balance pages.
    var lengths: [Int] { pages.filter { !$0.id.hasPrefix(Self.balancePrefix) }.map(\.words) }

    /// How many balance pages it holds.
    var balancePages: Int { pages.count { $0.id.hasPrefix(Self.balancePrefix) } }

    /// The metadata with `balance` pages of those lengths in place of any it had.
    func balanced(_ balance: [Int]) -> PagefindMeta {
        var meta = self
        meta.pages = pages.filter { !$0.id.hasPrefix(Self.balancePrefix) }
            + balance.enumerated().map { (Self.balancePrefix + "\($0.offset)", $0.element) }
        return meta
    }

    /// Reads the decompressed file; nil when it is not such a file.
    init?(bytes: [UInt8]) {
        guard bytes.starts(with: Self.mark) else { return nil }
        var reader = CBORReader(bytes: bytes, at: Self.mark.count)
        guard let top = reader.head(), top.major == 4, top.value >= 2,
              let version = reader.head(), version.major == 3, reader.skip(version.value),
              let list = reader.head(), list.major == 4 else { return nil }
        head = Array(bytes[Self.mark.count..<list.start])
        pages = []
        for _ in 0..<list.value {
            guard let pair = reader.head(), pair.major == 4, pair.value == 2,
                  let id = reader.head(), id.major == 3, let text = reader.text(id.value),
                  let words = reader.head(), words.major == 0 else { return nil }
            pages.append((text, words.value))
        }
        rest = Array(bytes[reader.at...])
    }

    /// The decompressed file, mark first.
    var bytes: [UInt8] {
        var out = Self.mark + head + CBORReader.encode(major: 4, pages.count)
        for page in pages {
            let id = Array(page.id.utf8)
            out += CBORReader.encode(major: 4, 2) + CBORReader.encode(major: 3, id.count) + id
                + CBORReader.encode(major: 0, page.words)
        }
        return out + rest
    }
}

/// The little of CBOR (RFC 8949) a bundle's metadata needs: heads of definite length, text.
struct CBORReader {
    let bytes: [UInt8]
    var at: Int

    /// The next item's major type and its argument (a count, a length or a number).
    mutating func head() -> (major: UInt8, value: Int, start: Int)? {
        guard at < bytes.count else { return nil }
        let start = at, major = bytes[at] >> 5, info = Int(bytes[at] & 31)
        at += 1
        if info < 24 { return (major, info, start) }
        guard (24...27).contains(info) else { return nil }
        let size = 1 << (info - 24)
        guard at + size <= bytes.count else { return nil }
        let value = bytes[at..<(at + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        at += size
        guard value <= UInt64(Int32.max) else { return nil }
        return (major, Int(value), start)
    }

    mutating func skip(_ count: Int) -> Bool {
        guard at + count <= bytes.count else { return false }
        at += count
        return true
    }

    mutating func text(_ count: Int) -> String? {
        guard at + count <= bytes.count else { return nil }
        defer { at += count }
        return String(validating: bytes[at..<(at + count)], as: UTF8.self)
    }

    /// A head in its shortest form, as Pagefind's encoder writes it.
    static func encode(major: UInt8, _ value: Int) -> [UInt8] {
        let type = major << 5
        switch value {
        case ..<24: return [type | UInt8(value)]
        case ..<0x100: return [type | 24, UInt8(value)]
        case ..<0x10000: return [type | 25, UInt8(value >> 8), UInt8(value & 0xff)]
        default: return [type | 26] + (0..<4).reversed().map { UInt8((value >> ($0 * 8)) & 0xff) }
        }
    }
}
