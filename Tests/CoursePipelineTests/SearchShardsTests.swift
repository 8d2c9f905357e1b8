@testable import CoursePipeline
import Foundation
import Testing

/// Which pages each Pagefind run indexes (`SearchShards`): a lesson's shard follows from its
/// name, so that a lesson added or removed moves no other.
struct SearchShardsTests {
    func names(_ count: Int) -> [String] { (1...count).map { "lesson-\($0).html" } }

    @Test func aCourseUpToTheSizeOfAShardIsOneShard() {
        #expect(SearchShards(pages: names(128)).shards == [names(128)])
        #expect(SearchShards(pages: []).shards == [[]])
        #expect(SearchShards(pages: names(129)).shards.count == 2)
    }

    @Test func aThousandLessonsAreEightShardsOfAboutAHundredAndTwentyFive() {
        let shards = SearchShards(pages: names(1000)).shards
        #expect(shards.count == 8)
        #expect(shards.allSatisfy { (90...160).contains($0.count) }, "\(shards.map(\.count))")
        // Every page once, each shard in the order of the course.
        #expect(shards.flatMap { $0 }.sorted() == names(1000).sorted())
        #expect(shards.allSatisfy { shard in shard == names(1000).filter(shard.contains) })
    }

    /// A lesson added in the middle of the course lands in one shard; the others keep their
    /// pages, and so their index. Removed again, everything is as it was.
    @Test func aLessonAddedInTheMiddleMovesNoOther() {
        let before = names(1000)
        var after = before
        after.insert("a-new-lesson.html", at: 500)
        let old = SearchShards(pages: before).shards, new = SearchShards(pages: after).shards
        #expect(old.count == new.count)
        let changed = zip(old, new).filter { $0 != $1 }
        #expect(changed.count == 1)
        #expect(changed.first.map { $0.1.filter { $0 != "a-new-lesson.html" } == $0.0 } == true)
        #expect(SearchShards(pages: after.filter { $0 != "a-new-lesson.html" }).shards == old)
    }

    /// Past a power of two, each shard splits in two: a page goes to shard k or k + count.
    @Test func aCourseThatDoublesSplitsEachShardInTwo() {
        let small = SearchShards(pages: names(256)).shards, large = SearchShards(pages: names(257)).shards
        #expect(small.count == 2 && large.count == 4)
        for (number, shard) in small.enumerated() {
            #expect(Set(shard).isSubset(of: Set(large[number] + large[number + 2])))
        }
    }

    /// No shard is left without pages (Pagefind makes no bundle of nothing): the count halves.
    @Test func noShardIsEmpty() {
        for count in [2, 3, 5, 9, 17, 33] {
            let shards = SearchShards(pages: names(count), pagesPerShard: 1).shards
            #expect(shards.allSatisfy { !$0.isEmpty }, "\(count): \(shards)")
            #expect(shards.flatMap { $0 }.count == count)
        }
    }

    @Test func theListNamesTheShardsAfterTheFirstAndThePagesOfEach() {
        #expect(SearchShards.listText([(0, ["en_1a", "en_2b"])]) == "{\"pages\":[[\"en_1a\",\"en_2b\"]],\"shards\":[]}\n")
        // A shard with no bundle in place (a stale index carried over) is left out; the others
        // keep their own folders.
        #expect(SearchShards.listText([(0, ["tr_1"]), (1, ["tr_2"]), (3, [])])
                == "{\"pages\":[[\"tr_1\"],[\"tr_2\"],[]],\"shards\":[\"shard-1/\",\"shard-3/\"]}\n")
        #expect(SearchIndexer.shardFolder(0) == "pagefind" && SearchIndexer.shardFolder(3) == "pagefind/shard-3")
        // With the number of balance pages of each bundle (`SearchBalance`).
        #expect(SearchShards.listText([(0, ["tr_1", "tr_3"]), (1, ["tr_2"])], balance: [3, 0])
                == "{\"balance\":[3,0],\"pages\":[[\"tr_1\",\"tr_3\"],[\"tr_2\"]],\"shards\":[\"shard-1/\"]}\n")
    }

    @Test func theListIsJSONWhateverTheIdsHold() throws {
        let odd = "a\"b\\c\u{1}ç"
        let text = SearchShards.listText([(0, [odd]), (2, ["x"])])
        let list = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(list["pages"] as? [[String]] == [[odd], ["x"]])
        #expect(list["shards"] as? [String] == ["shard-2/"])
    }
}
