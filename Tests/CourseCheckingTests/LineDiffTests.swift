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

    @Test func invisibleDifferencesAreShownAndExplainedOnce() {
        let diff = LineDiff.unified(from: "a\nx = 1\n\tindented\n", to: "a\nx = 1  \n    indented\n",
                                    oldLabel: "expected", newLabel: "actual")
        #expect(diff == """
            --- expected
            +++ actual
            @@ -1,3 +1,3 @@
             a
            -x = 1
            -⇥indented
            +x = 1··
            +    indented
            (· is a space at the end of a line, ⇥ a tab)

            """)
    }

    @Test func noBreakSpacesAndFormatCharactersAreNamed() {
        let diff = LineDiff.unified(from: "a b\n", to: "a\u{00A0}b\u{200B}\u{1B}[0m\n", oldLabel: "e", newLabel: "a")
        #expect(diff == "--- e\n+++ a\n@@ -1 +1 @@\n-a b\n+a⍽b<U+200B><U+001B>[0m\n(⍽ a no-break space, <U+…> an invisible character)\n")
    }

    @Test func aMissingFinalNewlineIsSaidUnderTheLastLine() {
        #expect(LineDiff.unified(from: "a\nb\n", to: "a\nc", oldLabel: "e", newLabel: "a")
                == "--- e\n+++ a\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n")
        #expect(LineDiff.unified(from: "b", to: "c\nd\n", oldLabel: "e", newLabel: "a")
                == "--- e\n+++ a\n@@ -1 +1,2 @@\n-b\n\\ No newline at end of file\n+c\n+d\n")
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

    @Test func labelsAreOneLineEach() {
        #expect(LineDiff.unified(from: "x\n", to: "y\n", oldLabel: "a\nb:1:1: error: forged", newLabel: "c\u{1B}[2J")
                == "--- a<U+000A>b:1:1: error: forged\n+++ c<U+001B>[2J\n@@ -1 +1 @@\n-x\n+y\n")
    }
}
