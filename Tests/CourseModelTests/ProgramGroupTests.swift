import CourseModel
import Testing

/// A group's program (listings.md, section 4): its blocks concatenated, where each line comes
/// from, and its output split at this run's markers, which printed text cannot forge.
struct ProgramGroupTests {
    let parts = [
        ScenarioPart(code: "var a = 1\nprint(a)\n", firstLine: 5, columnOffsets: [0, 0]),
        ScenarioPart(code: "a += 1", firstLine: 12, columnOffsets: [2]),
        ScenarioPart(code: "print(a)\n", firstLine: 20, columnOffsets: [0]),
    ]

    @Test func theConcatenationIsTheBlocksInOrderEachEndingItsLines() {
        #expect(ProgramGroup.concatenation(parts) == "var a = 1\nprint(a)\na += 1\nprint(a)\n")
        #expect(ProgramGroup.startLines(parts) == [1, 3, 4])
    }

    @Test func eachLineOfTheConcatenationIsALessonLineOfItsBlock() {
        let source = ScenarioSource(group: parts, file: "l.md", languageMode: nil)
        #expect(source.code == ProgramGroup.concatenation(parts))
        #expect(source.lessonPlace(ofCodeLine: 1).line == 5)
        #expect(source.lessonPlace(ofCodeLine: 2).line == 6)
        #expect(source.lessonPlace(ofCodeLine: 3) == (12, 2))
        #expect(source.lessonPlace(ofCodeLine: 4).line == 20)
        // The end of the code (a missing `}`) is the last block's.
        #expect(source.lessonPlace(ofCodeLine: 5).line == 21)
        #expect(source.holds(lessonLine: 12) && !source.holds(lessonLine: 15))
        #expect(source.columnOffset(atLessonLine: 12) == 2)
    }

    @Test func theOutputIsSplitAtThisRunsMarkersOnly() {
        let token = "c0ffee"
        let raw = "1\n" + GroupOutput.marker(token: token, block: 0) + "forged \u{1E}other 1\u{1E}\n"
            + GroupOutput.marker(token: token, block: 1) + "3\n"
        #expect(GroupOutput.split(raw, token: token) == ["1\n", "forged \u{1E}other 1\u{1E}\n", "3\n"])
        // A marker for another block than the next is printed text.
        let outOfOrder = "a" + GroupOutput.marker(token: token, block: 1) + "b"
        #expect(GroupOutput.split(outOfOrder, token: token) == [outOfOrder])
        // A program that stopped in its second block has two segments.
        #expect(GroupOutput.split("x" + GroupOutput.marker(token: token, block: 0), token: token) == ["x", ""])
    }

    @Test(arguments: [[""], ["a\n", "", "b:3:c\n"], ["10:", "é\u{1E}", ""]])
    func theSplitIsKeptAsOneStringThatDecodesToIt(segments: [String]) {
        #expect(GroupOutput.decoded(GroupOutput.encoded(segments)) == segments)
    }

    @Test func aStringThatIsNoEncodedSplitIsRefused() {
        #expect(GroupOutput.decoded("5:abc") == nil)
        #expect(GroupOutput.decoded("plain output\n") == nil)
    }
}

/// Hidden lines (listings.md, section 5): compiled without their mark, shown nowhere.
struct HiddenLinesTests {
    let code = "# import Glibc\nlet x = 1\n    # let y = 2\n#\n#if DEBUG\n#endif\nprint(x) # not a mark\n"

    @Test func aHiddenLineIsCompiledWithoutItsMarkItsIndentationKept() {
        #expect(HiddenLines.compiled(code) == "import Glibc\nlet x = 1\n    let y = 2\n\n#if DEBUG\n#endif\nprint(x) # not a mark\n")
    }

    @Test func aReaderSeesNoHiddenLine() {
        #expect(HiddenLines.visible(code) == "let x = 1\n#if DEBUG\n#endif\nprint(x) # not a mark\n")
        #expect(HiddenLines.hiddenLineNumbers(code) == [1, 3, 4])
    }

    @Test func aColumnOnAHiddenLineCountsItsMark() {
        #expect(HiddenLines.compiledColumnOffsets(code, [0, 0, 0, 0, 0, 0, 0]) == [2, 0, 2, 1, 0, 0, 0])
    }

    /// The quick look at the bytes says no only of code that has no hidden line, line by line
    /// as `isHidden` reads lines (CRLF, tabs, a lone `#` at the end, a combining mark after
    /// the space), and says no of Swift's own `#` words without making a string.
    @Test func theQuickLookAtTheBytesMissesNoHiddenLine() {
        let samples = ["", "#", "#\r", "# x", "\t# x", "  #", "x\n  #\r", "#\r\nx", "# \u{301}x", "#\u{20E3} x",
                       "a\r\n# b\r\n", "print(\"# no\")", "#if DEBUG\n#endif\n", "#warning(\"w\")", " \t \t# z\n",
                       "x\n\n#\n", "#a\n#b\n# ", "#\r\r", code]
        for sample in samples {
            let hidden = sample.split(separator: "\n", omittingEmptySubsequences: false).contains { HiddenLines.isHidden($0) }
            #expect(HiddenLines.appear(in: sample) == hidden, "\(sample.debugDescription)")
            if hidden { #expect(HiddenLines.mayAppear(in: sample), "\(sample.debugDescription)") }
        }
        for swift in ["#if DEBUG\nprint(1)\n#endif\n", "if #available(macOS 14, *) {}\n", "let s = \"# \"\n", "#sourceLocation()\n"] {
            #expect(!HiddenLines.mayAppear(in: swift), "\(swift.debugDescription)")
        }
    }

    @Test func codeWithoutHiddenLinesIsLeftAsItIs() {
        let plain = "#sourceLocation(file: \"a\", line: 1)\nprint(1)\n"
        #expect(HiddenLines.compiled(plain) == plain && HiddenLines.visible(plain) == plain)
    }
}
