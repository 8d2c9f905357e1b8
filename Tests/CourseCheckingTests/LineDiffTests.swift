@testable import CourseChecking
import CourseModel
import TestSupport
import Testing

struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.unified(from: "a\nb\n", to: "a\nb\n", oldLabel: "x", newLabel: "y") == "")
    }

    @Test func oneChangedLine() {
        let diff = LineDiff.unified(from: "a\nb\nc\n", to: "a\nB\nc\n", oldLabel: "expected", newLabel: "actual")
        #expect(diff == """
            --- expected
            +++ actual
            @@ -1,3 +1,3 @@
             a
            -b
            +B
             c

            """)
    }

    @Test func hunksKeepThreeLinesOfContextAndSplitWhenFarApart() {
        let old = (1...20).map(String.init).joined(separator: "\n")
        var newLines = (1...20).map(String.init)
        newLines[1] = "two"
        newLines[17] = "eighteen"
        let diff = LineDiff.unified(from: old, to: newLines.joined(separator: "\n"), oldLabel: "a", newLabel: "b")
        #expect(diff == """
            --- a
            +++ b
            @@ -1,5 +1,5 @@
             1
            -2
            +two
             3
             4
             5
            @@ -15,6 +15,6 @@
             15
             16
             17
            -18
            +eighteen
             19
             20

            """)
    }

    @Test func additionsAndRemovalsAtTheEnds() {
        #expect(LineDiff.unified(from: "", to: "x\n", oldLabel: "a", newLabel: "b") == "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n")
        #expect(LineDiff.unified(from: "x\ny\n", to: "y\n", oldLabel: "a", newLabel: "b") == "--- a\n+++ b\n@@ -1,2 +1 @@\n-x\n y\n")
    }

    @Test func editsAreAShortestScript() {
        let old = ["a", "b", "c", "a", "b", "b", "a"]
        let new = ["c", "b", "a", "b", "a", "c"]
        let edits = LineDiff.edits(old, new)
        let changes = edits.filter { if case .same = $0 { false } else { true } }.count
        #expect(changes == 5)
        // Applying the script gives both texts back.
        #expect(edits.compactMap { if case .same(let l) = $0 { l } else if case .removed(let l) = $0 { l } else { nil } } == old)
        #expect(edits.compactMap { if case .same(let l) = $0 { l } else if case .added(let l) = $0 { l } else { nil } } == new)
    }

    @Test func aRunawayDiffStaysCheap() {
        let old = (0..<5000).map { "old \($0)" }
        let new = (0..<5000).map { "new \($0)" }
        let edits = LineDiff.edits(old, new)
        #expect(edits.count == 10000)
    }

    @Test func firstDifference() {
        #expect(LineDiff.firstDifference(["a", "b"], ["a", "c"]) == 1)
        #expect(LineDiff.firstDifference(["a"], ["a", "c"]) == 1)
        #expect(LineDiff.firstDifference([], []) == 0)
    }
}
