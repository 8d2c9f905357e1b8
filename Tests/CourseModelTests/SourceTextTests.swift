@testable import CourseModel
import TestSupport
import Testing

struct SourceTextTests {
    @Test func cutsLinesAtLFCRLFAndLoneCR() {
        let text = SourceText("a\nb\r\nc\rd")
        #expect(text.lineCount == 4)
        #expect((1...4).map { text.text(ofLine: $0) } == ["a", "b", "c", "d"])
        #expect(text.lines[1].end.count == 2)
        #expect(text.lines[3].end.isEmpty)
    }

    @Test func aFinalLineEndStartsNoLine() {
        #expect(SourceText("a\n").lineCount == 1)
        #expect(SourceText("").lineCount == 0)
        #expect(SourceText("\n\n").lineCount == 2)
    }

    @Test func offsetsAndLineEnds() {
        let text = SourceText("ab\r\ncd\r\n")
        #expect(text.startOffset(ofLine: 2) == 4)
        #expect(text.startOffset(ofLine: 3) == 8)
        #expect(text.preferredLineEnd == Array("\r\n".utf8))
        #expect(SourceText("x").preferredLineEnd == [10])
    }

    @Test func byteOrderMark() {
        #expect(SourceText([0xEF, 0xBB, 0xBF, 0x61]).hasByteOrderMark)
        #expect(!SourceText("a").hasByteOrderMark)
    }
}
