import Foundation
import Testing

/// Output patterns through the binary (`Tests/Fixtures/patterns`): `...`, globs and unordered
/// blocks check green; a line that no longer matches fails with a diff of that line only;
/// `--update` rewrites only such lines and keeps every pattern that still matches, and a
/// second `--update` changes nothing; a hostile pattern is a finding, never a hang.
@Suite(.serialized) struct PatternsTests {
    func copy() throws -> (root: URL, lesson: URL) {
        let root = temporaryFolder("patterns")
        let course = root.appendingPathComponent("patterns")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("patterns"), to: course)
        return (root, course.appendingPathComponent("01-patterns.md"))
    }

    func edit(_ lesson: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: lesson, encoding: .utf8)
        try #require(text.contains(old), "\(lesson.lastPathComponent) holds no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: lesson, atomically: true, encoding: .utf8)
    }

    @Test func theFixtureChecksGreen() throws {
        let (root, _) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try coursebook(["check", "patterns", "--strict", "--no-cache"], in: root)
        #expect(result == CommandResult(status: 0, standardOutput: "compiled 4 scenarios (2 swiftc runs), cache not used\n4 passed, 0 failed\n",
                                        standardError: ""), "\(result)")
    }

    @Test func aLineThatNoLongerMatchesIsTheWholeDiff() throws {
        let (root, lesson) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        try edit(lesson, "T-1\nT-0\n", "T-01\nT-0\n")
        try edit(lesson, "ratio: 3.14285714285714? (glob)", "ratio: 3.14? (glob)")
        try edit(lesson, "```output unordered\n2\n3\n5\n7\n", "```output unordered\n2\n3\n5\n11\n")
        let result = try coursebook(["check", "patterns", "--no-cache"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError == """
            patterns/01-patterns.md:21:1: error: output of the scenario at line 9 differs from its 'output' block at line 17
            --- expected (patterns/01-patterns.md:17)
            +++ actual (the block's patterns kept where they still match)
            @@ -1,6 +1,6 @@
             T-10
             T-9
             ...
            -T-01
            +T-1
             T-0
             Liftoff!
            patterns/01-patterns.md:39:1: error: output of the scenario at line 28 differs from its 'output' block at line 37
            --- expected (patterns/01-patterns.md:37)
            +++ actual (the block's patterns kept where they still match)
            @@ -1,3 +1,3 @@
             probe at ObjectIdentifier(0x*) (glob)
            -ratio: 3.14? (glob)
            +ratio: 3.142857142857143
             2 \\* 3 = 6\\? (glob)
            patterns/01-patterns.md:57:1: error: output of the scenario at line 45 differs from its 'output' block at line 53
            --- expected (patterns/01-patterns.md:53)
            +++ actual (the block's patterns kept where they still match)
            @@ -1,4 +1,4 @@
             2
             3
             5
            -11
            +7

            """, "\(result)")
        #expect(result.standardOutput.hasSuffix("3 errors, 0 warnings\n1 passed, 3 failed\n"), "\(result)")
    }

    @Test func updateKeepsThePatternsThatStillMatch() throws {
        let (root, lesson) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let original = try String(contentsOf: lesson, encoding: .utf8)
        try edit(lesson, "T-1\nT-0\n", "T-01\nT-0\n")
        try edit(lesson, "apples: 3\np* (glob)", "apples: 4\np* (glob)")
        let updated = try coursebook(["check", "patterns", "--update", "--no-cache"], in: root)
        #expect(updated == CommandResult(status: 0, standardOutput: """
            patterns/01-patterns.md:17: updated the output block of the scenario at line 9
            patterns/01-patterns.md:69: updated the output block of the scenario at line 60
            compiled 4 scenarios (2 swiftc runs), cache not used
            4 passed, 0 failed

            """, standardError: ""), "\(updated)")
        // Only the two lines that no longer matched changed; every `...`, glob and unordered line stayed.
        #expect(try String(contentsOf: lesson, encoding: .utf8) == original)
        let again = try coursebook(["check", "patterns", "--update", "--no-cache"], in: root)
        #expect(again.status == 0 && again.standardError.isEmpty && !again.standardOutput.contains("updated"), "\(again)")
        #expect(try String(contentsOf: lesson, encoding: .utf8) == original)
    }

    @Test func aHostilePatternIsAFindingNotAHang() throws {
        let (root, lesson) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        let glob = "*" + String(repeating: "a", count: 3000) + "b (glob)\n"
        try edit(lesson, "for second in stride(from: 10, through: 0, by: -1) {\n    print(\"T-\\(second)\")\n}",
                 "for _ in 0..<200 { print(String(repeating: \"a\", count: 4000)) }")
        try edit(lesson, "T-10\nT-9\n...\nT-1\nT-0\nLiftoff!\n", String(repeating: "...\n" + glob, count: 10))
        let result = try coursebook(["check", "patterns/01-patterns.md", "--no-cache", "--update"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError == "patterns/01-patterns.md:15:1: error: the patterns of the 'output' block at line 15 take more than 10000000 steps to compare with what the scenario at line 9 printed; write fewer '...' lines or globs with fewer '*'\n", "\(result)")
    }

    /// The JSON report says which output blocks are unordered, and the merge of shards holds
    /// their statuses to the same comparison (an unordered block compared in order would
    /// make the passed shard inconsistent).
    @Test func reportsCarryTheUnorderedBlocks() throws {
        let (root, _) = try copy()
        defer { try? FileManager.default.removeItem(at: root) }
        for shard in 1...2 {
            let run = try coursebook(["check", "patterns", "--shard", "\(shard)/2", "--report", "shard-\(shard).json", "--no-cache"], in: root)
            #expect(run.status == 0, "\(run)")
        }
        let json = try String(contentsOf: root.appendingPathComponent("shard-2.json"), encoding: .utf8)
        #expect(json.contains("\"unordered\" : true"), "\(json)")
        #expect(try String(contentsOf: root.appendingPathComponent("shard-1.json"), encoding: .utf8).contains("\"unordered\" : false"))
        let merged = try coursebook(["merge-reports", "shard-1.json", "shard-2.json", "--report", "merged.json"], in: root)
        #expect(merged.status == 0, "\(merged)")
        #expect(try String(contentsOf: root.appendingPathComponent("merged.json"), encoding: .utf8).contains("\"unordered\" : true"))
    }
}
