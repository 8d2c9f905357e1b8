import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Invalidation

/// Everything the classifier prints goes to standard output; these tests read it back through
/// a pipe. The suite is serialized because standard output is one per process.
@Suite(.serialized)
struct InvalidationTests {
    /// The spec's worked example, reproduced exactly.
    static let counterTree = ViewTree(nodes: [
        ViewNode("App", parent: nil, reads: []),
        ViewNode("Counter", parent: "App", reads: ["count"]),
        ViewNode("Label", parent: "Counter", reads: ["count", "theme"]),
        ViewNode("Footer", parent: "App", reads: ["theme"]),
    ], storage: ["count": .state(owner: "Counter"), "theme": .environment])

    @Test func workedExamplePrintsExactly() {
        let tree = Self.counterTree
        let printed = capturingStandardOutput {
            let all = [tree.change("arttir", key: "count"), tree.change("tema", key: "theme"),
                       tree.change("bos", key: "missing")].flatMap { $0 }
            countCauses(all)
        }
        #expect(printed == """
            arttir: count degisti | yeniden Counter yerel, Label ebeveyn | atlanan App,Footer
            tema: theme degisti | yeniden Label ortam, Footer ortam | atlanan App,Counter
            bos: missing degisti | yeniden yok | atlanan App,Counter,Label,Footer
            yerel: 1
            ebeveyn: 1
            gozlem: 0
            ortam: 2

            """)
    }

    @Test func changeReturnsTheRecomputedViewsInTreeOrder() {
        var recomputed: [Recompute] = []
        _ = capturingStandardOutput { recomputed = Self.counterTree.change("x", key: "theme") }
        #expect(recomputed.map(\.view) == ["Label", "Footer"])
        #expect(recomputed.map(\.cause) == ["ortam", "ortam"])
    }

    @Test(arguments: [
        ("Label", ["Counter", "App"]),
        ("Counter", ["App"]),
        ("App", []),
        ("Nobody", []),
    ])
    func ancestorsNearestFirst(name: String, expected: [String]) {
        #expect(Self.counterTree.ancestors(of: name) == expected)
    }

    @Test func ancestorsUseTheFirstNodeWithTheNameAndKeepAParentWithoutANode() {
        let tree = ViewTree(nodes: [
            ViewNode("Row", parent: "List", reads: []),
            ViewNode("Row", parent: "Other", reads: []),
        ], storage: [:])
        #expect(tree.ancestors(of: "Row") == ["List"])
    }

    @Test func ancestorsStopOnACycle() {
        let tree = ViewTree(nodes: [
            ViewNode("A", parent: "B", reads: []),
            ViewNode("B", parent: "A", reads: []),
            ViewNode("C", parent: "C", reads: []),
        ], storage: [:])
        #expect(tree.ancestors(of: "A") == ["B"])
        #expect(tree.ancestors(of: "C") == [])
    }

    /// Every cause the classifier knows, one row each.
    @Test(arguments: [
        ("Screen", "count", "yerel"),
        ("Row", "count", "ebeveyn"),
        ("Badge", "count", "ebeveyn"),
        ("Sibling", "count", "kural-disi"),
        ("Row", "cart.total", "gozlem"),
        ("Row", "locale", "ortam"),
        ("Row", "nowhere", "olcum-disi"),
    ])
    func causes(view: String, key: String, expected: String) throws {
        let tree = ViewTree(nodes: [
            ViewNode("Screen", parent: nil, reads: []),
            ViewNode("Row", parent: "Screen", reads: []),
            ViewNode("Badge", parent: "Row", reads: []),
            ViewNode("Sibling", parent: nil, reads: []),
        ], storage: [
            "count": .state(owner: "Screen"),
            "cart.total": .model(object: "Cart"),
            "locale": .environment,
        ])
        let node = try #require(tree.nodes.first { $0.name == view })
        #expect(tree.cause(of: node, key: key) == expected)
    }

    @Test func bothListsPrintYokWhenEmpty() {
        let everyoneReads = ViewTree(nodes: [
            ViewNode("A", parent: nil, reads: ["k"]),
            ViewNode("B", parent: "A", reads: ["k"]),
        ], storage: ["k": .state(owner: "A")])
        let empty = ViewTree(nodes: [], storage: [:])
        let printed = capturingStandardOutput {
            _ = everyoneReads.change("hepsi", key: "k")
            _ = empty.change("bos", key: "k")
        }
        #expect(printed == """
            hepsi: k degisti | yeniden A yerel, B ebeveyn | atlanan yok
            bos: k degisti | yeniden yok | atlanan yok

            """)
    }

    @Test func countCausesAlwaysPrintsFourLinesAndSkipsTheOthers() {
        let printed = capturingStandardOutput {
            countCauses([
                Recompute(view: "A", cause: "gozlem"), Recompute(view: "B", cause: "gozlem"),
                Recompute(view: "C", cause: "kural-disi"), Recompute(view: "D", cause: "olcum-disi"),
            ])
            countCauses([])
        }
        #expect(printed == """
            yerel: 0
            ebeveyn: 0
            gozlem: 2
            ortam: 0
            yerel: 0
            ebeveyn: 0
            gozlem: 0
            ortam: 0

            """)
    }
}

/// Runs `body` with standard output sent into a pipe and returns what it printed.
func capturingStandardOutput(_ body: () -> Void) -> String {
    fflush(nil)
    let saved = dup(STDOUT_FILENO)
    var ends: [Int32] = [0, 0]
    precondition(pipe(&ends) == 0)
    dup2(ends[1], STDOUT_FILENO)
    close(ends[1])
    body()
    fflush(nil)
    dup2(saved, STDOUT_FILENO)
    close(saved)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(ends[0], &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    close(ends[0])
    return String(decoding: bytes, as: UTF8.self)
}
