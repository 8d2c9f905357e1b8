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
}
