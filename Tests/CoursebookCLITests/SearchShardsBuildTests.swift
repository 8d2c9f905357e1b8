import Foundation
import Processes
import TestSupport
import Testing

/// A course indexed in shards (`COURSEBOOK_SEARCH_SHARD_PAGES` makes them small here): one
/// Pagefind run a shard, each shard a bundle of its own, and a build after one changed lesson
/// runs Pagefind only on that lesson's shard.
struct SearchShardsBuildTests {
    /// A course of `count` lessons of prose, no scenario, each with a word of its own.
    func course(_ count: Int, at folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{ "title": "Shards", "language": "en", "limitNotes": "optional" }"#
            .write(to: folder.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        for number in 1...count {
            try "# Lesson \(number)\n\nThe word of this lesson is shardword\(number).\n"
                .write(to: folder.appendingPathComponent(String(format: "%02d-lesson.md", number)), atomically: true, encoding: .utf8)
        }
    }

    @Test func eachShardIsIndexedAloneAndOnlyAChangedOneAgain() throws {
        guard let pagefind = findOnPath("pagefind") else {
            Issue.record("pagefind is not installed: 'make' installs it (pip install pagefind-bin)")
            return
        }
        let root = temporaryFolder("search-shards")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("course")
        try course(12, at: folder)
        // A Pagefind that notes each run and how many pages it was given.
        let runs = root.appendingPathComponent("runs")
        let wrapper = root.appendingPathComponent("pagefind")
        try """
            #!/bin/sh
            echo "run $(ls "$2" | wc -l)" >> '\(runs.path)'
            exec '\(pagefind)' "$@"
            """.write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        func pagesPerRun() -> [Int] {
            ((try? String(contentsOf: runs, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int($0.split(separator: " ")[1]) }
        }
        let environment = ["COURSEBOOK_PAGEFIND": wrapper.path, "COURSEBOOK_SEARCH_SHARD_PAGES": "4"]
        let out = root.appendingPathComponent("site")
        let cache = root.appendingPathComponent("cache")
        func build() throws -> CommandResult {
            try coursebook(["build", folder.path, "--out", out.path, "--cache-dir", cache.path], environment: environment)
        }

        let first = try build()
        #expect(first.status == 0, "\(first)")
        let firstRuns = pagesPerRun()
        let shards = firstRuns.count
        #expect(shards >= 2 && firstRuns.reduce(0, +) == 12 && firstRuns.allSatisfy { $0 < 12 }, "\(firstRuns)")
        #expect(first.standardOutput.hasSuffix("search: pagefind indexed 12 pages (\(shards) shards)\n"), "\(first)")
        let index = out.appendingPathComponent("pagefind")
        let list = try String(contentsOf: index.appendingPathComponent("coursebook-shards.json"), encoding: .utf8)
        // The shards after the first, and the ids of every bundle's pages: those its results
        // carry, the names of its fragments, every page in one bundle.
        let listed = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: Any]
        #expect(listed?["shards"] as? [String] == (1..<shards).map { "shard-\($0)/" }, "\(list)")
        let ids = listed?["pages"] as? [[String]] ?? []
        #expect(ids.count == shards && ids.map(\.count) == firstRuns && Set(ids.joined()).count == 12, "\(list)")
        for (number, pages) in ids.enumerated() {
            let fragments = index.appendingPathComponent(number == 0 ? "fragment" : "shard-\(number)/fragment")
            #expect(pages.map { $0 + ".pf_fragment" } == (try FileManager.default.contentsOfDirectory(atPath: fragments.path)).sorted(), "shard \(number)")
        }
        // Each shard after the first is only an index: it is searched with the first's scripts.
        for number in 1..<shards {
            let shard = index.appendingPathComponent("shard-\(number)")
            #expect(FileManager.default.fileExists(atPath: shard.appendingPathComponent("pagefind-entry.json").path))
            #expect(FileManager.default.fileExists(atPath: shard.appendingPathComponent("coursebook-index.sha256").path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: shard.path)
                .allSatisfy { !$0.hasPrefix("wasm.") && !$0.hasSuffix(".js") }, "shard \(number)")
        }
        #expect(FileManager.default.fileExists(atPath: index.appendingPathComponent("pagefind.js").path))

        let unchanged = try build()
        #expect(unchanged.standardOutput.hasSuffix("search: the index of 12 pages (\(shards) shards) is the one in place (its pages unchanged, its files verified)\n"), "\(unchanged)")
        #expect(pagesPerRun().count == shards)

        // One changed lesson: Pagefind reads its shard alone; the index holds its new word.
        let lesson = folder.appendingPathComponent("07-lesson.md")
        try "# Lesson 7\n\nThe word of this lesson is now zanzibarquokka.\n".write(to: lesson, atomically: true, encoding: .utf8)
        let changed = try build()
        #expect(changed.status == 0, "\(changed)")
        let afterEdit = pagesPerRun()
        #expect(afterEdit.count == shards + 1, "\(afterEdit)")
        let reindexed = afterEdit.last ?? 0
        #expect(firstRuns.contains(reindexed) && reindexed < 12, "\(afterEdit)")
        #expect(changed.standardOutput.hasSuffix("search: pagefind indexed \(reindexed) of 12 pages (1 of \(shards) shards, where pages changed); the other shards are the ones in place (their pages unchanged, their files verified)\n"), "\(changed)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".coursebook-search-shard").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".coursebook-search-pages").path))

        // A tampered file of one shard after the first: that shard alone is indexed again.
        let tampered = index.appendingPathComponent("shard-1/pagefind-entry.json")
        try Data("{}".utf8).write(to: tampered)
        let again = try build()
        #expect(again.status == 0, "\(again)")
        #expect(pagesPerRun().count == shards + 2)
        #expect(try String(contentsOf: tampered, encoding: .utf8) != "{}")
    }

    /// The search page ranks the results of an index in shards as one index ranks them. Every
    /// lesson is as long as the others (so each shard's average page length is the course's) and
    /// says "lantern" a number of times of its own: one index ranks them by that number, and so
    /// must the shards, though Pagefind's own order of their merged results (each scored by its
    /// own shard's word statistics) does not.
    @Test func resultsAcrossShardsRankAsInOneIndex() throws {
        guard let chromium = searchTools() else { return }
        let root = temporaryFolder("search-ranking")
        defer { try? FileManager.default.removeItem(at: root) }
        let times = [3, 0, 1, 5, 0, 2, 4, 0, 8, 6, 0, 9, 0, 10, 7, 11]
        let (one, sharded) = try builtBothWays(times.enumerated().map { index, count in
            "# Lesson \(index + 1)\n\n\((Array(repeating: "lantern", count: count) + Array(repeating: "river", count: 24 - count)).joined(separator: " ")).\n"
        }, in: root)
        let listed = try String(contentsOf: sharded.appendingPathComponent("pagefind/coursebook-shards.json"), encoding: .utf8)
        #expect(listed.contains("shard-1/"), "\(listed)")

        let browser = try Browser(chromium)
        func searchPage(_ site: URL) throws -> [String] {
            let server = try StaticServer(root: site)
            try browser.open(server.url("search.html"))
            return try browser.searchResults(for: "lantern")
        }
        let byTimes = times.indices.filter { times[$0] > 0 }.sorted { times[$0] > times[$1] }
            .map { String(format: "%02d-lesson.html", $0 + 1) }
        #expect(try searchPage(one) == byTimes)
        #expect(try searchPage(sharded) == byTimes)

        // Pagefind's own order of the shards' merged results, from a module of its own (the
        // page's is already set up): not that of one index, so the fixture tests the ranking.
        let raw = try browser.evaluate("""
            (async () => {
              const folder = new URL('pagefind/', location.href);
              const list = await fetch(new URL('coursebook-shards.json', folder)).then((response) => response.json());
              const found = await import(new URL('pagefind.js?raw', folder).href);
              const options = { baseUrl: '/' };
              await found.options(options);
              await found.init();
              for (const shard of list.shards) await found.mergeIndex(new URL(shard, folder).href, options);
              const search = await found.search('lantern');
              return (await Promise.all(search.results.map((entry) => entry.data()))).map((data) => data.url.replace(/^\\//, ''));
            })()
            """) as? [String] ?? []
        #expect(Set(raw) == Set(byTimes) && raw != byTimes, "\(raw)")
    }

    /// The same across shards whose pages are of many lengths, and of which some hold the word
    /// in their title too: Pagefind weighs a page's length against its own bundle's mean, so
    /// each bundle is given pages of no word that make its mean the course's (the balance
    /// pages, counted in `coursebook-shards.json`), and the results rank as in one index (as
    /// they do not when the bundles keep their own means).
    @Test func resultsOfPagesOfManyLengthsRankAsInOneIndex() throws {
        guard let chromium = searchTools() else { return }
        let root = temporaryFolder("search-lengths")
        defer { try? FileManager.default.removeItem(at: root) }
        let lanterns = [3, 1, 5, 2, 4, 8, 6, 0, 10, 7, 11, 0, 9, 12, 0, 13]
        let rivers = [5, 150, 20, 300, 60, 12, 400, 35, 220, 80, 9, 260, 45, 500, 15, 120]
        let titled = [2, 5, 9, 12, 15]
        let (one, sharded) = try builtBothWays(lanterns.indices.map { index in
            // Some lessons say "lanternlight" too, which the word finds (a word that begins with
            // it): a page's score sums the words it holds that the query finds.
            let words = Array(repeating: "lantern", count: lanterns[index]) + Array(repeating: "river", count: rivers[index])
                + (index % 3 == 0 ? ["lanternlight", "lanternlight"] : [])
            return "# \(titled.contains(index) ? "Lantern" : "Lesson") \(index + 1)\n\n\(words.joined(separator: " ")).\n"
        }, in: root)
        let listed = try JSONSerialization.jsonObject(with: Data(contentsOf: sharded.appendingPathComponent("pagefind/coursebook-shards.json"))) as? [String: Any]
        let pages = listed?["pages"] as? [[String]] ?? [], balance = listed?["balance"] as? [Int] ?? []
        #expect(pages.count >= 4 && balance.count == pages.count && balance.contains { $0 > 0 }, "\(String(describing: listed))")
        let oneListed = try String(contentsOf: one.appendingPathComponent("pagefind/coursebook-shards.json"), encoding: .utf8)
        #expect(!oneListed.contains("balance"), "\(oneListed)")

        let browser = try Browser(chromium)
        func searchPage(_ site: URL, _ query: String) throws -> [String] {
            let server = try StaticServer(root: site)
            try browser.open(server.url("search.html"))
            return try browser.searchResults(for: query)
        }
        let inOne = try searchPage(one, "lantern")
        #expect(inOne.count == 12 && Set(inOne.prefix(titled.count)) == Set(titled.map { String(format: "%02d-lesson.html", $0 + 1) }), "\(inOne)")
        let inShards = try searchPage(sharded, "lantern")
        #expect(inShards == inOne, "\(inShards) against \(inOne)")
        #expect(try searchPage(sharded, "river") == (try searchPage(one, "river")))
    }

    /// Pagefind and Chromium, which the ranking tests need: Chromium's path, or nil (and an
    /// issue recorded) when either is missing.
    func searchTools() -> String? {
        guard findOnPath("pagefind") != nil else {
            Issue.record("pagefind is not installed: 'make' installs it (pip install pagefind-bin)")
            return nil
        }
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            Issue.record("chromium is not installed: 'make' installs it (Debian package chromium)")
            return nil
        }
        return chromium
    }

    /// A course "Lanterns" of `lessons` (each one lesson's Markdown) in `root`, built as one
    /// index and in shards of two pages.
    func builtBothWays(_ lessons: [String], in root: URL) throws -> (one: URL, sharded: URL) {
        let folder = root.appendingPathComponent("course")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{ "title": "Lanterns", "language": "en", "limitNotes": "optional" }"#
            .write(to: folder.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        for (index, lesson) in lessons.enumerated() {
            try lesson.write(to: folder.appendingPathComponent(String(format: "%02d-lesson.md", index + 1)), atomically: true, encoding: .utf8)
        }
        func built(pagesPerShard: Int) throws -> URL {
            let out = root.appendingPathComponent("site-\(pagesPerShard)")
            let result = try coursebook(["build", folder.path, "--out", out.path, "--cache-dir", root.appendingPathComponent("cache").path],
                                        environment: ["COURSEBOOK_SEARCH_SHARD_PAGES": "\(pagesPerShard)"])
            #expect(result.status == 0, "\(result)")
            return out
        }
        return (try built(pagesPerShard: 100), try built(pagesPerShard: 2))
    }
}
