@testable import CourseChecking
import CourseModel
import Foundation
import Testing

/// Output patterns (listings.md, section 6): how a block is read, what `...`, a glob and an
/// unordered block stand for, what `--update` writes in place of one that no longer matches
/// (and that it then matches), and that hostile patterns end in `.tooCostly`, never a hang.
struct PatternMatchTests {
    func compare(_ block: String, _ output: String, unordered: Bool = false) -> PatternMatch.Verdict {
        OutputExpectation.compare(block, output, unordered: unordered)
    }

    @Test func readingTheLines() {
        let pattern = OutputPattern(reading: "plain\n...\ntook * ms (glob)\n ...\n... (glob)\na\\*b\\?c\\\\d\\e (glob)\n")
        #expect(pattern.lines.map(\.kind) == [
            .literal, .anyLines, .glob([.text("took "), .anyRun, .text(" ms")]), .literal, .glob([.text("...")]),
            .glob([.text("a*b?c\\d\\e")]),
        ])
        #expect(pattern.lines[2].text == "took * ms (glob)")
        #expect(OutputPattern(reading: "a**b? (glob)\n").lines[0].kind == .glob([.text("a"), .anyRun, .text("b"), .oneCharacter]))
        #expect(!OutputPattern(reading: "a\n... more\n(glob)\n").hasPatterns)
        #expect(OutputPattern(reading: "a\n", unordered: true).hasPatterns)
    }

    @Test func anyLinesStandsForAnyRunOfLinesNoneIncluded() {
        #expect(compare("start\n...\nend\n", "start\nend\n") == .matches)
        #expect(compare("start\n...\nend\n", "start\n1\n2\n3\nend\n") == .matches)
        #expect(compare("...\n", "") == .matches)
        #expect(compare("...\n", "a\nb\n") == .matches)
        #expect(compare("start\n...\nend\n", "start\n1\n") == .differs)
        #expect(compare("start\n...\nend\n", "1\nend\n") == .differs)
        // Several, with a line that repeats: the walk goes back to the last `...`.
        #expect(compare("...\nx\n...\nx\ny\n", "x\nx\nz\nx\nx\ny\n") == .matches)
        #expect(compare("...\nx\n...\nx\ny\n", "x\ny\n") == .differs)
        // `...` is a whole line: with anything beside it, it is itself.
        #expect(compare(" ...\n", "anything\n") == .differs)
        #expect(compare(" ...\n", " ...\n") == .matches)
    }

    @Test func aGlobStandsForALineWithWildcards() {
        #expect(compare("took * ms (glob)\n", "took 12 ms\n") == .matches)
        #expect(compare("took * ms (glob)\n", "took  ms\n") == .matches)
        #expect(compare("took * ms (glob)\n", "took 12 s\n") == .differs)
        #expect(compare("id ???? (glob)\n", "id 1a2b\n") == .matches)
        #expect(compare("id ???? (glob)\n", "id 1a2\n") == .differs)
        #expect(compare("*a*b*c* (glob)\n", "xxaxxbxxcxx\n") == .matches)
        #expect(compare("*a*b*c* (glob)\n", "xxaxxcxxbxx\n") == .differs)
        // `?` is one character, as Swift counts them; characters compare byte for byte.
        #expect(compare("caf? (glob)\n", "café\n") == .matches)
        #expect(compare("café (glob)\n", "cafe\u{301}\n") == .differs)
        // Escapes: the characters themselves.
        #expect(compare("2 \\* 3 = 6 (glob)\n", "2 * 3 = 6\n") == .matches)
        #expect(compare("2 \\* 3 = 6 (glob)\n", "2 x 3 = 6\n") == .differs)
        #expect(compare("why\\? (glob)\n", "why?\n") == .matches)
        #expect(compare("why\\? (glob)\n", "whyX\n") == .differs)
        #expect(compare("C:\\\\* (glob)\n", "C:\\Windows\n") == .matches)
        // A glob is one line: `*` never spans a line end.
        #expect(compare("a*b (glob)\n", "a\nb\n") == .differs)
        // The mark is not part of the line; a line without it is compared as written.
        #expect(compare("took * ms\n", "took 12 ms\n") == .differs)
        #expect(compare("took * ms\n", "took * ms\n") == .matches)
    }

    @Test func howALiteralPatternLineIsWritten() {
        #expect(OutputPattern.literalLine("plain *") == "plain *")
        #expect(OutputPattern.literalLine("...") == "... (glob)")
        #expect(OutputPattern.literalLine("a*b? (glob)") == "a\\*b\\? (glob) (glob)")
        for line in ["...", "a*b? (glob)", "back\\slash (glob)", " (glob)"] {
            #expect(compare(OutputPattern.literalLine(line) + "\n", line + "\n") == .matches, "\(line)")
            #expect(compare(OutputPattern.literalLine(line) + "\n", line + "x\n") == .differs, "\(line)")
        }
    }

    @Test func unorderedLinesAreAMultiset() {
        #expect(compare("a\nb\nc\n", "c\na\nb\n", unordered: true) == .matches)
        #expect(compare("a\nb\nb\n", "b\na\nb\n", unordered: true) == .matches)
        #expect(compare("a\nb\nb\n", "b\na\na\n", unordered: true) == .differs)
        #expect(compare("a\nb\n", "b\na\nc\n", unordered: true) == .differs)
        #expect(compare("a\nb\nc\n", "b\na\n", unordered: true) == .differs)
        #expect(compare("a\nb\n", "b\na\n") == .differs)
        // Globs take what the literal lines leave, by a matching: the greedy choice would fail.
        #expect(compare("k* (glob)\nkey 1\n", "key 1\nkey 2\n", unordered: true) == .matches)
        #expect(compare("?1 (glob)\n?? (glob)\n", "a2\nb1\n", unordered: true) == .matches)
        #expect(compare("x? (glob)\nx? (glob)\n", "x1\ny2\n", unordered: true) == .differs)
        // `...` lets the other lines be.
        #expect(compare("b\n...\n", "a\nb\nc\n", unordered: true) == .matches)
        #expect(compare("d\n...\n", "a\nb\nc\n", unordered: true) == .differs)
    }

    @Test func theFinalNewlineDoesNotCount() {
        #expect(compare("a\n...\n", "a\nb") == .matches)
        #expect(compare("a\nb\n", "a\nb") == .matches)
        #expect(compare("a (glob)\n", "a") == .matches)
    }

    // MARK: --update

    func rewritten(_ block: String, _ output: String, unordered: Bool = false) -> String {
        let written = OutputExpectation.rewritten(block, toStandFor: output, unordered: unordered)
        // What it writes stands for the output, so a second --update changes nothing.
        #expect(compare(written, output, unordered: unordered) == .matches, "\(written)")
        return written
    }

    @Test func updateKeepsEveryPatternLineThatStillMatches() {
        // Without patterns: the output itself, as always.
        #expect(rewritten("a\nb\n", "a\nc") == "a\nc")
        // A changed line gives way to the line printed in its place; `...` goes on standing for its lines.
        #expect(rewritten("start\n...\nend\n", "start\n1\n2\nfinish\n") == "start\n...\nfinish\n")
        #expect(rewritten("took * ms (glob)\ncount 3\n", "took 9 ms\ncount 4\n") == "took * ms (glob)\ncount 4\n")
        // A line printed where the pattern has none is written out; lines no longer printed go.
        #expect(rewritten("a\n...\nz\n", "a\nb\nz\nextra\n") == "a\n...\nz\nextra\n")
        #expect(rewritten("a\ngone\n...\n", "a\n") == "a\n...\n")
        #expect(rewritten("head\n... \n", "head\n... \nmore\n") == "head\n... \nmore\n")
        // Lines written out that would read as patterns are written to stand for themselves.
        #expect(rewritten("...\nend\n", "x\n...\nstop (glob)\n") == "...\nstop (glob) (glob)\n")
        #expect(rewritten("a (glob)\n", "...\n") == "... (glob)\n")
    }

    @Test func updateOfAnUnorderedBlock() {
        // Lines that kept a partner stay where they are; a lost one gives way to a line left over.
        #expect(rewritten("c\nb\na\n", "a\nB\nc\n", unordered: true) == "c\nB\na\n")
        #expect(rewritten("a\nb\n", "b\na\nc\nd\n", unordered: true) == "a\nb\nc\nd\n")
        #expect(rewritten("a\nb\nc\n", "c\n", unordered: true) == "c\n")
        #expect(rewritten("k* (glob)\n...\ngone\n", "x\nkey\ny\n", unordered: true) == "k* (glob)\n...\nx\n")
        #expect(rewritten("k* (glob)\n...\ngone\n", "key\n", unordered: true) == "k* (glob)\n...\n")
        // The line left over most like the lost one takes its place, whatever the order printed.
        #expect(rewritten("pears: 0\napples: 3\n...\n", "plums: 12\napples: 4\npears: 0\n", unordered: true)
                == "pears: 0\napples: 4\n...\n")
    }

    // MARK: Hostile input

    /// Patterns that make a backtracking matcher take exponential time end quickly: here in
    /// quadratic time within the budget, or with `.tooCostly` beyond it.
    @Test func pathologicalPatternsEndQuickly() {
        let clock = ContinuousClock()
        let start = clock.now
        // The classic: a*a*a*...b against aaaa...a.
        let stars = String(repeating: "a*", count: 40) + "b (glob)\n"
        #expect(compare(stars, String(repeating: "a", count: 60) + "\n") == .differs)
        #expect(compare(String(repeating: "a*", count: 40) + "a (glob)\n", String(repeating: "a", count: 60) + "\n") == .matches)
        // Many `...` with lines that almost match, against many lines.
        let dots = String(repeating: "...\nx\n", count: 30) + "y\n"
        #expect(compare(dots, String(repeating: "x\n", count: 400)) == .differs)
        // Beyond the budget: a long glob against long lines, many times over.
        // (after each `*`, a run of a's that almost matches, at every place of a line)
        let glob = "*" + String(repeating: "a", count: 2000) + "b (glob)\n"
        let block = String(repeating: "...\n" + glob, count: 20)
        let output = String(repeating: String(repeating: "a", count: 5000) + "\n", count: 200)
        #expect(compare(block, output) == .tooCostly)
        #expect(compare(block, output, unordered: true) == .tooCostly)
        // --update falls back to the output, written line by line, rather than run on.
        let written = OutputExpectation.rewritten(block, toStandFor: output)
        #expect(written == output)
        #expect(clock.now - start < .seconds(30))
    }

    @Test func theBudgetBoundsEveryStep() {
        let pattern = OutputPattern(reading: "...\nz*z*z*y (glob)\n")
        let lines = Array(repeating: Substring("zzzzzzzzzzzzzzzzzzzz"), count: 100)
        #expect(PatternMatch.compare(pattern, lines, budget: 100) == .tooCostly)
        #expect(PatternMatch.compare(pattern, lines) == .differs)
    }
}
