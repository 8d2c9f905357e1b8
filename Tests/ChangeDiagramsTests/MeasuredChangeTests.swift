@testable import ChangeDiagrams
import CourseModel
import Testing

/// Change lines read back from an output, exactly as the classifier prints them.
struct MeasuredChangeTests {
    @Test func theWorkedExampleOfTheClassifier() {
        let output = """
            arttir: count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer
            tema: theme degisti | yeniden Label ortam, Footer ortam | atlanan App,Counter
            bos: missing degisti | yeniden yok | atlanan App,Counter,Label,Footer
            yerel: 1
            ebeveyn: 1

            """
        let changes = MeasuredChange.all(in: output)
        #expect(changes == [
            MeasuredChange(label: "arttir", key: "count",
                           recomputed: [RecomputedView(view: "Counter", cause: "yerel"), RecomputedView(view: "Label", cause: "ebeveyn")],
                           skipped: ["App", "Footer"], outputLine: 1),
            MeasuredChange(label: "tema", key: "theme",
                           recomputed: [RecomputedView(view: "Label", cause: "ortam"), RecomputedView(view: "Footer", cause: "ortam")],
                           skipped: ["App", "Counter"], outputLine: 2),
            MeasuredChange(label: "bos", key: "missing", recomputed: [], skipped: ["App", "Counter", "Label", "Footer"],
                           outputLine: 3),
        ])
        #expect(changes[0].views == ["Counter", "Label", "App", "Footer"])
    }

    @Test func aLabelMayHoldAColonAndEveryViewMayBeRecomputed() {
        let change = MeasuredChange.parse("A+: yaz: fontSize degisti | yeniden Root yerel | atlanan yok", outputLine: 7)
        #expect(change?.label == "A+: yaz")
        #expect(change?.key == "fontSize")
        #expect(change?.skipped == [])
        #expect(change?.recomputed == [RecomputedView(view: "Root", cause: "yerel")])
        #expect(change?.outputLine == 7)
    }

    @Test(arguments: [
        "yerel: 1",
        "  gercek: onChange ProductList",
        "x: key degisti | yeniden A | atlanan B",
        "x: key degisti | yeniden A yerel,B ebeveyn | atlanan C",
        "x: key degisti | yeniden A yerel | atlanan B,,C",
        ": key degisti | yeniden A yerel | atlanan B",
        "x: two words degisti | yeniden A yerel | atlanan B",
        "key degisti | yeniden A yerel | atlanan B",
    ])
    func otherLinesAreNotChanges(line: String) {
        #expect(MeasuredChange.parse(Substring(line), outputLine: 1) == nil)
    }

    /// Lines of ASCII are read on their bytes, others on characters: both ways must answer
    /// alike on every line that either could take.
    @Test(arguments: [
        "arttir: count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer",
        "A+: yaz: fontSize degisti | yeniden Root yerel | atlanan yok",
        "bos: missing degisti | yeniden yok | atlanan App,Counter",
        "x: k degisti | yeniden yok | atlanan yok",
        "x: k degisti | yeniden  yerel | atlanan B",
        "x: k degisti | yeniden A  | atlanan B",
        "x: k degisti | yeniden A yerel, | atlanan B",
        "x: k degisti | yeniden A yerel | atlanan ",
        "x: k degisti | yeniden A yerel | atlanan B,",
        "x: k degisti | yeniden A yerel | atlanan B | atlanan C",
        "x: k degisti | yeniden A yerel | atlanan B C",
        "x: k: j degisti | yeniden A yerel | atlanan B",
        "x:k degisti | yeniden A yerel | atlanan B",
        "x: k degisti | atlanan B degisti | yeniden A yerel",
        "x: k degisti | yeniden A yerel\t| atlanan B",
        "yerel: 1",
        "",
    ])
    func bytesAndCharactersAgree(line: String) {
        var line = line
        let byBytes = line.withUTF8 { MeasuredChange.parse(ascii: $0, outputLine: 3) }
        #expect(byBytes == MeasuredChange.parse(text: Substring(line), outputLine: 3))
        #expect(MeasuredChange.parse(Substring(line), outputLine: 3) == MeasuredChange.parse(text: Substring(line), outputLine: 3))
    }

    /// A space followed by a combining mark is one character, not a space: such a key is read
    /// as one word, as it always was.
    @Test func aLineBeyondASCIIIsReadOnCharacters() {
        let change = MeasuredChange.parse("ş: k \u{301} degisti | yeniden Görünüm yerel | atlanan A,\u{301}B", outputLine: 1)
        #expect(change?.key == "k \u{301}")
        #expect(change?.recomputed == [RecomputedView(view: "Görünüm", cause: "yerel")])
        #expect(change?.skipped == ["A,\u{301}B"])
        let output = "a: k degisti | yeniden A yerel | atlanan B\nş: k \u{301} degisti | yeniden A yerel | atlanan B\n"
        #expect(MeasuredChange.all(in: output).map(\.key) == ["k", "k \u{301}"])
        #expect(MeasuredChange.all(in: output).map(\.outputLine) == [1, 2])
    }

    /// A carriage return and a line feed are one character, so the lines of an output end only
    /// at a line feed alone: two change lines apart by CR LF are one line, which is no change.
    @Test func aCarriageReturnBeforeALineFeedJoinsTheLines() {
        let lines = ["a: k degisti | yeniden A yerel | atlanan B", "b: j degisti | yeniden A yerel | atlanan B"]
        #expect(MeasuredChange.all(in: lines.joined(separator: "\r\n")) == [])
        #expect(MeasuredChange.all(in: lines.joined(separator: "\n")).map(\.outputLine) == [1, 2])
        #expect(MeasuredChange.all(in: "x\n\r\n" + lines[0]).map(\.label) == ["\r\na"])
    }
}
