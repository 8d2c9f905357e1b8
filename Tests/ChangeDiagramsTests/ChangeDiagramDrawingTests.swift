@testable import ChangeDiagrams
import CourseModel
import Foundation
import TestSupport
import Testing

/// Change diagrams as drawn: golden pictures of fixture trees (Tests/Golden/diagrams; `make
/// golden` records them anew, that run failing as nothing was compared, then compares), and
/// what every picture must say whatever it looks like.
@Suite(.serialized) struct ChangeDiagramDrawingTests {
    static func tree(_ views: [(String, String?, [String])], storage: [(key: String, storage: KeyStorage)] = []) -> WrittenTree {
        WrittenTree(binding: "tree", line: 1, views: views.map { WrittenView($0.0, parent: $0.1, reads: $0.2) }, storage: storage)
    }

    static func change(_ line: String) -> MeasuredChange {
        MeasuredChange.parse(Substring(line), outputLine: 1)!
    }

    static let singleNode = ChangeDiagram(
        tree: tree([("App", nil, ["count"])], storage: [("count", .state(owner: "App"))]),
        change: change("arttir: count degisti | yeniden App yerel | atlanan yok"))

    static let deepChain: ChangeDiagram = {
        let names = ["Root", "Level1", "Level2", "Level3", "Level4", "Level5", "Level6", "AVeryLongViewNameThatMustNeverBeCut"]
        let views = names.enumerated().map { index, name in (name, index == 0 ? nil : names[index - 1], index >= 5 ? ["theme"] : []) }
        return ChangeDiagram(tree: tree(views, storage: [("theme", .environment)]),
                             change: change("tema: theme degisti | yeniden Level5 ortam, Level6 ortam, AVeryLongViewNameThatMustNeverBeCut ortam | atlanan Root,Level1,Level2,Level3,Level4"))
    }()

    static let wideFanOut: ChangeDiagram = {
        let children = (1...12).map { "Row\($0)" }
        let views: [(String, String?, [String])] = [("List", nil, ["items"])] + children.map { ($0, "List", $0 == "Row3" ? ["items"] : []) }
        return ChangeDiagram(tree: tree(views, storage: [("items", .model(object: "store"))]),
                             change: change("ekle: items degisti | yeniden List gozlem, Row3 gozlem | atlanan \(children.filter { $0 != "Row3" }.joined(separator: ","))"))
    }()

    /// One tree, two changes: the pictures are laid out alike, side by side.
    static let twoChanges: [ChangeDiagram] = {
        let counter = tree([("App", nil, []), ("Counter", "App", ["count"]), ("Label", "Counter", ["count", "theme"]), ("Footer", "App", ["theme"])],
                           storage: [("count", .state(owner: "Counter")), ("theme", .environment)])
        return [ChangeDiagram(tree: counter, change: change("arttir: count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer")),
                ChangeDiagram(tree: counter, change: change("tema: theme degisti | yeniden Label ortam, Footer ortam | atlanan App,Counter"))]
    }()

    /// Every cause the classifier knows, and one it does not (another core's).
    static let everyCause = ChangeDiagram(
        tree: tree([("Root", nil, []), ("Own", "Root", ["k"]), ("Child", "Own", ["k"]), ("Watcher", "Root", ["k"]),
                    ("Ambient", "Root", ["k"]), ("Stranger", "Root", ["k"]), ("Outside", "Stranger", ["k"]), ("Custom", "Outside", ["k"])]),
        change: change("x: k degisti | yeniden Own yerel, Child ebeveyn, Watcher gozlem, Ambient ortam, Stranger kural-disi, Outside olcum-disi, Custom baska | atlanan Root"))

    /// The golden files: each case's first picture as an SVG file of its own (it opens in a
    /// browser), and the HTML of the cases with more than one picture or a legend to see.
    static var goldenCases: [(name: String, text: String)] {
        let words = DiagramWords.turkish
        func svg(_ diagram: ChangeDiagram, outline: Bool = false) -> String {
            let layout = ChangeDiagramDrawing.layout(diagram.tree, outline: outline)
            return ChangeDiagramDrawing.svg(diagram, layout: layout, label: ChangeDiagramDrawing.description(diagram, words: words),
                                            kind: outline ? "outline-view" : "tree-view") + "\n"
        }
        return [
            ("single-node.svg", svg(singleNode)),
            ("deep-chain.svg", svg(deepChain)),
            ("wide-fan-out.svg", svg(wideFanOut)),
            ("wide-fan-out-outline.svg", svg(wideFanOut, outline: true)),
            ("two-changes.html", ChangeDiagramDrawing.html(twoChanges, words: words)),
            ("every-cause.svg", svg(everyCause)),
            ("every-cause.html", ChangeDiagramDrawing.html([everyCause], words: .english)),
        ]
    }

    @Test func picturesMatchTheGoldenFiles() throws {
        let folder = packageRoot.appendingPathComponent("Tests/Golden/diagrams")
        let record = ProcessInfo.processInfo.environment["COURSEBOOK_RECORD_GOLDEN"] == "1"
        if record {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in Self.goldenCases { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
            Issue.record("recorded Tests/Golden/diagrams anew, so nothing was compared: review the diff, then run the tests without COURSEBOOK_RECORD_GOLDEN")
            return
        }
        let recorded = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(recorded == Self.goldenCases.map(\.name).sorted(), "the golden files differ from the cases (make golden records them)")
        for (name, text) in Self.goldenCases {
            let golden = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(golden == text, "\(name) differs from Tests/Golden/diagrams/\(name) (make golden records it)")
        }
    }

    /// Whatever the pictures look like, these hold.
    @Test func aPictureSaysInWordsWhatItShows() {
        let diagram = Self.twoChanges[0]
        let html = ChangeDiagramDrawing.html([diagram], words: .turkish)
        let label = "arttir: count değişti (@State, sahibi Counter). Yeniden hesaplanan: Counter (yerel), Label (ebeveyn). Atlanan: App, Footer. Ağaç: App altında Counter, Footer; Counter altında Label."
        #expect(html.contains("role=\"img\" aria-label=\"\(label)\""))
        // Said once: a <title> beside the label would be read again as the description.
        #expect(!html.contains("<title>"))
        #expect(html.contains("<figcaption><code>arttir</code>: <code>count</code> değişti <span class=\"storage\">@State, sahibi <code>Counter</code></span></figcaption>"))
        #expect(html.contains("data-pagefind-ignore"))
        let english = ChangeDiagramDrawing.description(Self.singleNode, words: .english)
        #expect(english == "arttir: count changed (@State of App). Recomputed: App (yerel). Skipped: none.")
    }

    /// Colour is never the only signal: a recomputed view carries its cause's word and a mark
    /// whose shape differs from every other cause's; a skipped view is dashed and unmarked.
    @Test func everyCauseHasAWordAndAShapeOfItsOwn() {
        var shapes: Set<String> = []
        for cause in ChangeDiagramDrawing.causes + ["baska"] {
            let mark = ChangeDiagramDrawing.mark(cause, x: 0, y: 0, size: 14, colour: "#000")
            // The shape without its colour: what remains in black and white.
            shapes.insert(mark.replacingOccurrences(of: "#000", with: ""))
            let box = ChangeDiagramDrawing.box("View", cause: cause, at: TreeLayout.Box(x: 0, y: 0, width: 100, height: 40))
            #expect(box.contains(">\(cause)</text>"))
            #expect(box.contains("class=\"mark"))
        }
        #expect(shapes.count == ChangeDiagramDrawing.causes.count + 1)
        let skipped = ChangeDiagramDrawing.box("View", cause: nil, at: TreeLayout.Box(x: 0, y: 0, width: 100, height: 40))
        #expect(skipped.contains("stroke-dasharray") && skipped.contains("fill=\"none\"") && !skipped.contains("class=\"mark"))
    }

    /// A name is never cut: every box is wider than its name at the widest advance a
    /// monospaced font gives (0.6 em), and the legend names only the causes in use.
    @Test func namesFitAndTheLegendListsWhatIsUsed() {
        for diagram in [Self.singleNode, Self.deepChain, Self.wideFanOut, Self.everyCause] {
            let layout = ChangeDiagramDrawing.layout(diagram.tree)
            for (index, view) in diagram.tree.views.enumerated() {
                #expect(layout.boxes[index].width >= Double(view.name.count) * ChangeDiagramDrawing.nameSize * 0.6 + 2 * ChangeDiagramDrawing.padding)
            }
        }
        let legend = ChangeDiagramDrawing.legend(Self.twoChanges, words: .english)
        #expect(legend.contains("<code>yerel</code> its own @State"))
        #expect(legend.contains("<code>ebeveyn</code> an ancestor recomputed and its input changed"))
        #expect(legend.contains("<code>ortam</code> an environment value it reads"))
        #expect(!legend.contains("<code>gozlem</code>"))
        #expect(legend.contains("skipped: body not recomputed"))
        #expect(!ChangeDiagramDrawing.legend([Self.singleNode], words: .english).contains("skipped"))
        // The input comparison model's own causes are explained too; a cause no core prints
        // is listed with no meaning.
        let binding = ChangeDiagram(
            tree: Self.tree([("Root", nil, []), ("Toggle", "Root", ["on"]), ("Banner", "Root", [])], storage: [("on", .state(owner: "Root"))]),
            change: Self.change("kapat: on degisti | yeniden Toggle baglama, Banner ilk | atlanan Root"))
        let modelLegend = ChangeDiagramDrawing.legend([binding], words: .turkish)
        #expect(modelLegend.contains("<code>baglama</code> saklı özelliği olan bir Binding’i okudu"))
        #expect(modelLegend.contains("<code>ilk</code> ağaca ilk kez girdi"))
        #expect(ChangeDiagramDrawing.legend([Self.everyCause], words: .english).contains("<code>baska</code> </li>"))
    }

    /// A tree too wide for a phone comes with its outline; a narrow one does not; pictures of
    /// one tree are laid out alike.
    @Test func wideTreesComeWithAnOutline() {
        let wide = ChangeDiagramDrawing.html([Self.wideFanOut], words: .english)
        #expect(wide.contains("<div class=\"diagram-row wide\"") && wide.contains("class=\"outline-view\""))
        let narrow = ChangeDiagramDrawing.html([Self.singleNode], words: .english)
        #expect(narrow.contains("<div class=\"diagram-row\" style=") && !narrow.contains("outline-view"))
        let pair = ChangeDiagramDrawing.html(Self.twoChanges, words: .english)
        let sizes = pair.components(separatedBy: "<svg class=\"tree-view\"").dropFirst().map { $0.components(separatedBy: "viewBox=\"")[1].prefix { $0 != "\"" } }
        #expect(sizes.count == 2 && sizes[0] == sizes[1])
    }

    /// An output's sections (`-- title --` lines) group its pictures under their titles, and
    /// each picture's text alternative names its group; a scenario with several trees and no
    /// sections groups them by tree; one tree and no sections: no title.
    @Test func groupsFollowTheOutputsSectionsOrTheTrees() {
        var first = Self.twoChanges[0], second = Self.twoChanges[1]
        first.section = "with the environment"
        second.section = "with parameters"
        let sectioned = ChangeDiagramDrawing.html([first, second], words: .english)
        #expect(sectioned.contains("<div class=\"diagram-group\" role=\"group\" aria-label=\"with the environment\">\n<p class=\"diagram-group-title\">with the environment</p>"))
        #expect(sectioned.contains("<p class=\"diagram-group-title\">with parameters</p>"))
        #expect(sectioned.contains("aria-label=\"with parameters — tema: theme changed (environment value)."))
        var other = Self.singleNode
        other.tree.binding = "single"
        let byTree = ChangeDiagramDrawing.groups([Self.twoChanges[0], Self.twoChanges[1], other])
        #expect(byTree.map(\.title) == ["tree", "single"])
        #expect(byTree.map(\.pictures.count) == [2, 1])
        #expect(ChangeDiagramDrawing.groups(Self.twoChanges).map(\.title) == [nil])
        #expect(!ChangeDiagramDrawing.html(Self.twoChanges, words: .english).contains("diagram-group-title"))
        #expect(ChangeDiagram.sections(in: "-- ortamla --\nA+: x degisti | yeniden yok | atlanan A\n--  \n-- b --  \n").map(\.title) == ["ortamla", "b"])
        #expect(ChangeDiagram.sections(in: "-- ortamla --\nx\n-- b --\n").map(\.line) == [1, 3])
    }

    /// Consecutive pictures that differ only in their labels are drawn once, with the count and
    /// every label; a different change in between starts a new picture.
    @Test func identicalPicturesInARowAreDrawnOnce() {
        let tree = Self.twoChanges[0].tree
        func next(_ label: String) -> ChangeDiagram {
            ChangeDiagram(tree: tree, change: Self.change("\(label): count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer"))
        }
        let groups = ChangeDiagramDrawing.groups([next("sonraki"), next("ileri"), Self.twoChanges[1], next("geri")])
        #expect(groups.count == 1)
        #expect(groups[0].pictures.map(\.labels) == [["sonraki", "ileri"], ["tema"], ["geri"]])
        let html = ChangeDiagramDrawing.html([next("sonraki"), next("sonraki")], words: .turkish)
        #expect(html.components(separatedBy: "<svg class=\"tree-view\"").count == 2)
        #expect(html.contains("<figcaption><span class=\"repeat\">×2</span> <code>sonraki</code>, <code>sonraki</code>: <code>count</code> değişti"))
        #expect(html.contains("aria-label=\"2 kez: sonraki, sonraki: count değişti"))
    }

    /// A picture never shrinks so far that its smallest text is under 11 px; a row of pictures
    /// too wide to stand two abreast on a tablet says so (the stylesheet then shows outlines).
    @Test func picturesKeepTheirTextAtElevenPixels() {
        #expect(ChangeDiagramDrawing.causeSize * ChangeDiagramDrawing.smallestScale >= 11)
        #expect(ChangeDiagramDrawing.nameSize * ChangeDiagramDrawing.smallestScale >= 11)
        let html = ChangeDiagramDrawing.html([Self.wideFanOut, Self.wideFanOut.with(label: "sil")], words: .english)
        let layout = ChangeDiagramDrawing.layout(Self.wideFanOut.tree)
        let scaled = (layout.width * ChangeDiagramDrawing.smallestScale).rounded(.up)
        #expect(html.contains("style=\"min-width:\(ChangeDiagramDrawing.number(scaled))px\""))
        let pair = Int(((2 * scaled + 20) / 40).rounded(.up) * 40)
        #expect(html.contains("data-pair=\"\(pair)\""), "\(pair)")
        #expect(!ChangeDiagramDrawing.html(Self.twoChanges, words: .english).contains("data-pair"))
    }

    @Test func numbersAreShort() {
        #expect(ChangeDiagramDrawing.number(12) == "12")
        #expect(ChangeDiagramDrawing.number(12.5) == "12.5")
        #expect(ChangeDiagramDrawing.number(12.25) == "12.25")
        #expect(ChangeDiagramDrawing.number(0.05) == "0.05")
        #expect(ChangeDiagramDrawing.number(-3.5) == "-3.5")
    }
}

extension ChangeDiagram {
    /// The same picture for a change of another label and key.
    func with(label: String) -> ChangeDiagram {
        var copy = self
        copy.change.label = label
        copy.change.key = "other"
        return copy
    }
}
