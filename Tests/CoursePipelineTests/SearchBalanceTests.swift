import CourseFiles
@testable import CoursePipeline
import Foundation
import TestSupport
import Testing

/// The balance pages that give every bundle of an index in shards the whole index's mean page
/// length, and the metadata of a bundle they are written into.
struct SearchBalanceTests {
    func mean(_ lengths: [Int]) -> Double { Double(lengths.reduce(0, +)) / Double(lengths.count) }

    @Test func everyBundlesMeanBecomesTheWholeIndexs() {
        let bundles = [[37, 153, 304, 262], [10, 27, 22, 408, 514, 56], [232, 17, 89, 135, 22], [66]]
        let whole = mean(bundles.flatMap { $0 })
        let balance = SearchBalance(lengths: bundles)
        #expect(balance.pages.count == bundles.count)
        for (bundle, pages) in zip(bundles, balance.pages) {
            #expect(!pages.isEmpty && pages.allSatisfy { $0 >= 0 }, "\(pages)")
            // As near as whole numbers allow: within half a word over the bundle's pages.
            #expect(abs(mean(bundle + pages) - whole) <= 0.5 / Double(bundle.count + pages.count), "\(bundle) \(pages)")
        }
    }

    @Test func aBundleLongerThanTheWholeGetsShortPages() {
        // Means 1000 and 100 (whole 550): the first needs pages shorter than its own.
        let balance = SearchBalance(lengths: [[1000, 1000], [100, 100]])
        let first = balance.pages[0]
        #expect(!first.isEmpty && mean([1000, 1000] + first) == 550, "\(first)")
        #expect(mean([100, 100] + balance.pages[1]) == 550, "\(balance.pages[1])")
    }

    @Test func aBundleAtTheMeanOrWithNoWordsGetsNone() {
        #expect(SearchBalance(lengths: [[10, 30], [20]]).pages == [[], []])
        #expect(SearchBalance(lengths: [[0], [0, 0]]).pages == [[], []])
        #expect(SearchBalance(lengths: []).pages == [])
    }

    /// A bundle's metadata as Pagefind writes it: the mark, then CBOR [version, [[id, words],
    /// ...], chunks, filters, sorts, meta fields].
    func metadata(pages: [(String, Int)]) -> [UInt8] {
        func text(_ string: String) -> [UInt8] { CBORReader.encode(major: 3, string.utf8.count) + Array(string.utf8) }
        var bytes = PagefindMeta.mark + CBORReader.encode(major: 4, 6) + text("1.5.2") + CBORReader.encode(major: 4, pages.count)
        for (id, words) in pages { bytes += CBORReader.encode(major: 4, 2) + text(id) + CBORReader.encode(major: 0, words) }
        // One chunk, no filters, no sorts, the title as the one meta field.
        bytes += CBORReader.encode(major: 4, 1) + CBORReader.encode(major: 4, 3) + text("a") + text("z") + text("tr_0123abcd")
        bytes += CBORReader.encode(major: 4, 0) + CBORReader.encode(major: 4, 0) + CBORReader.encode(major: 4, 1) + text("title")
        return bytes
    }

    @Test func theMetadataKeepsAllButItsPagesAndTakesBalancePagesAtTheirEnd() throws {
        let pages = (0..<30).map { ("tr_\($0)", 100 + $0 * 40) }
        let bytes = metadata(pages: pages)
        let meta = try #require(PagefindMeta(bytes: bytes))
        #expect(meta.pages.map(\.id) == pages.map(\.0) && meta.lengths == pages.map(\.1))
        #expect(meta.bytes == bytes)
        let balanced = meta.balanced([70_000, 3])
        #expect(balanced.lengths == meta.lengths)
        #expect(balanced.pages.suffix(2).map(\.id) == ["coursebook-balance-0", "coursebook-balance-1"])
        let written = balanced.bytes
        #expect(written.starts(with: PagefindMeta.mark) && written.suffix(meta.rest.count).elementsEqual(meta.rest))
        // Read back, and balanced again: the old balance pages give way to the new.
        let read = try #require(PagefindMeta(bytes: written))
        #expect(read == balanced)
        #expect(read.balanced([5]).pages.count == 31 && read.balanced([]) == meta)
    }

    @Test func whatIsNotABundlesMetadataIsNotRead() {
        let bytes = metadata(pages: [("tr_1", 12)])
        #expect(PagefindMeta(bytes: Array(bytes.dropFirst(12))) == nil)
        #expect(PagefindMeta(bytes: Array(bytes.prefix(22))) == nil)
        #expect(PagefindMeta(bytes: PagefindMeta.mark + [0x85, 0x61]) == nil)
        // A word count that is not a number.
        var wrong = bytes
        if let at = wrong.firstIndex(of: 12) { wrong[at] = 0x61 }
        #expect(PagefindMeta(bytes: wrong) == nil)
    }

    /// A bundle changed by the build keeps a record that held before the change, signed again
    /// for its files after it; a record that did not hold is not made to.
    @Test func aChangedBundleKeepsOnlyARecordThatHeld() throws {
        let root = temporaryFolder("balance-record")
        defer { try? FileManager.default.removeItem(at: root) }
        let secret = Array("a secret of this user".utf8)
        let pages = [("01-a.html", String(repeating: "a", count: 64))]
        func bundle(_ name: String) throws -> String {
            let folder = root.appendingPathComponent(name).path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("meta one".utf8).write(to: URL(fileURLWithPath: folder + "/pagefind.tr_1.pf_meta"))
            SearchIndexRecord(pagesIndexed: 1, pages: pages, files: SearchIndexRecord.digests(of: folder))
                .write(to: folder + "/" + SearchIndexer.recordName, secret: secret)
            return folder
        }
        func reusable(_ folder: String) -> Bool {
            SearchIndexRecord.reuse(from: folder, pages: pages, into: folder + "-copy", secret: secret) != nil
        }
        func rename(in folder: String) -> Bool {
            (try? FileManager.default.moveItem(atPath: folder + "/pagefind.tr_1.pf_meta", toPath: folder + "/pagefind.tr_2.pf_meta")) != nil
        }

        let held = try bundle("held")
        #expect(reusable(held))
        #expect(SearchIndexRecord.keepingRecord(in: held, secret: secret) { rename(in: held) })
        #expect(reusable(held))

        let tampered = try bundle("tampered")
        try Data("meta two".utf8).write(to: URL(fileURLWithPath: tampered + "/pagefind.tr_1.pf_meta"))
        #expect(!reusable(tampered))
        #expect(SearchIndexRecord.keepingRecord(in: tampered, secret: secret) { rename(in: tampered) })
        #expect(!reusable(tampered))

        let failed = try bundle("failed")
        #expect(!SearchIndexRecord.keepingRecord(in: failed, secret: secret) { false })
        #expect(reusable(failed))
    }

    /// A bundle on disk as Pagefind leaves it: its entry file and its metadata, gzip.
    func bundle(in root: URL, language: String = "tr", hash: String = "tr_0123abcd", pages: [(String, Int)]) throws -> String {
        let folder = root.appendingPathComponent("bundle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let entry = #"{"version":"1.5.2","languages":{"\#(language)":{"hash":"\#(hash)","wasm":"tr","page_count":\#(pages.count)}}}"#
        try Data(entry.utf8).write(to: URL(fileURLWithPath: folder + "/pagefind-entry.json"))
        let compressed = try #require(Gzip.compressed(metadata(pages: pages)))
        try Data(compressed).write(to: URL(fileURLWithPath: folder + "/pagefind.\(hash).pf_meta"))
        return folder
    }

    @Test func aBalancedBundleIsWrittenUnderItsNewNameAndItsEntryNamesIt() throws {
        let root = temporaryFolder("balance-write")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try bundle(in: root, pages: [("tr_1", 100), ("tr_2", 300)])
        let read = try #require(SearchIndexer.BundleMeta(folder: folder))
        #expect(read.language == "tr" && read.name == "tr_0123abcd" && read.meta.lengths == [100, 300])
        #expect(read.write(read.meta.balanced([50])))
        let again = try #require(SearchIndexer.BundleMeta(folder: folder))
        #expect(again.name != "tr_0123abcd" && again.name.hasPrefix("tr_") && again.meta == read.meta.balanced([50]))
        #expect(again.meta.balancePages == 1 && again.entry["version"] as? String == "1.5.2")
        #expect(!FileManager.default.fileExists(atPath: folder + "/pagefind.tr_0123abcd.pf_meta"))
    }

    /// What the entry file names becomes a path: a name that is not Pagefind's is not read.
    @Test func anEntryWhoseNamesAreNotNamesIsNotRead() throws {
        let root = temporaryFolder("balance-names")
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(SearchIndexer.BundleMeta(folder: try bundle(in: root, language: "../tr", pages: [("tr_1", 10)])) == nil)
        #expect(SearchIndexer.BundleMeta(folder: try bundle(in: root, hash: "tr_1", pages: [("tr_1", 10)])) != nil)
        let outside = try bundle(in: root, pages: [("tr_1", 10)])
        let entry = #"{"languages":{"tr":{"hash":"../../\#(URL(fileURLWithPath: outside).lastPathComponent)/pagefind.tr_0123abcd"}}}"#
        let folder = try bundle(in: root, pages: [("tr_1", 10)])
        try Data(entry.utf8).write(to: URL(fileURLWithPath: folder + "/pagefind-entry.json"))
        #expect(SearchIndexer.BundleMeta(folder: folder) == nil)
        #expect(!SearchIndexer.BundleMeta.isName("") && !SearchIndexer.BundleMeta.isName("a/b") && SearchIndexer.BundleMeta.isName("en-US_9f"))
    }
}
