import BackgroundWork
@testable import SwiftReading
import CourseModel
import Foundation
import TestSupport
import Testing

/// The view trees a scenario writes out, read from its syntax (the source of every change
/// diagram), and the trees that are built when it runs, which no diagram may guess at.
struct ViewTreeReadingTests {
    func trees(_ code: String) -> ScenarioTrees {
        SwiftBlockReader(storeFolder: nil, toolVersion: "test", compilerVersion: "Swift version 0").parse(code).trees
    }

    @Test func aWrittenTreeIsReadWithItsNameLineViewsAndStorage() {
        let code = """
            // main.swift — a counter
            let tree = ViewTree(nodes: [
                ViewNode("App", parent: nil, reads: []),
                ViewNode("Counter", parent: "App", reads: ["count"]),
                ViewNode("Label", parent: "Counter", reads: ["count", "theme"]),
            ], storage: ["count": .state(owner: "Counter"), "theme": .environment,
                         "cart.items": Storage.model(object: "cart")])
            countCauses(tree.change("arttir", key: "count"))

            """
        let read = trees(code)
        #expect(read.unwritten.isEmpty)
        #expect(read.written.count == 1)
        let tree = read.written[0]
        #expect(tree.binding == "tree")
        #expect(tree.line == 2)
        #expect(tree.views == [
            WrittenView("App", parent: nil, reads: []),
            WrittenView("Counter", parent: "App", reads: ["count"]),
            WrittenView("Label", parent: "Counter", reads: ["count", "theme"]),
        ])
        #expect(tree.storage.map(\.key) == ["count", "theme", "cart.items"])
        #expect(tree.storage.map(\.storage) == [.state(owner: "Counter"), .environment, .model(object: "cart")])
    }

    @Test func severalTreesInSourceOrderAnEmptyStorageAndAConstantKey() {
        let code = """
            let willChange = "session.objectWillChange"
            func make() -> ViewTree {
                ViewTree(nodes: [ViewNode("Root", parent: nil, reads: [willChange])], storage: [:])
            }
            let second = ViewTree.init(nodes: [ViewNode(#"Raw\\Name"#, parent: nil, reads: [])],
                                       storage: [willChange: .model(object: "session")])

            """
        let read = trees(code)
        #expect(read.unwritten.isEmpty)
        #expect(read.written.map(\.line) == [3, 5])
        #expect(read.written.map(\.binding) == [nil, "second"])
        #expect(read.written[0].views == [WrittenView("Root", parent: nil, reads: ["session.objectWillChange"])])
        #expect(read.written[0].storage.isEmpty)
        #expect(read.written[1].views[0].name == "Raw\\Name")
        #expect(read.written[1].storage.map(\.key) == ["session.objectWillChange"])
    }

    /// The nodes and the storage may be named by a `let` bound once to their literal.
    @Test func nodesAndStorageMayBeNamedConstants() {
        let code = """
            let storage: [String: Storage] = [
                "count": .state(owner: "App"),
            ]
            let views = [ViewNode("App", parent: nil, reads: ["count"])]
            let screen = ViewTree(nodes: views, storage: storage)

            """
        let read = trees(code)
        #expect(read.unwritten.isEmpty)
        #expect(read.written.map(\.views) == [[WrittenView("App", parent: nil, reads: ["count"])]])
        #expect(read.written.first?.storage.map(\.key) == ["count"])
        // A variable could change before the tree is made; a name bound twice could be either.
        #expect(trees("var storage: [String: Storage] = [:]\nlet t = ViewTree(nodes: [], storage: storage)\n").unwritten.map(\.reason)
            == ["its storage is not a dictionary literal"])
        #expect(trees("let views = [ViewNode(\"A\", parent: nil, reads: [])]\nfunc f(views: [ViewNode]) -> ViewTree { ViewTree(nodes: views, storage: [:]) }\n")
            .unwritten.map(\.reason) == ["its nodes are not an array literal"])
    }

    /// A tree whose views or storage are made when the scenario runs is not guessed at: it is
    /// named, with the reason, and no tree is made of it.
    @Test(arguments: [
        ("let t = ViewTree(nodes: other.nodes, storage: [:])\n", "its nodes are not an array literal"),
        ("let t = ViewTree(nodes: [ViewNode(name, parent: nil, reads: [])], storage: [:])\n",
         "the name of a view is not a string literal"),
        ("let t = ViewTree(nodes: [ViewNode(\"A\\(n)\", parent: nil, reads: [])], storage: [:])\n",
         "the name of a view is not a string literal"),
        ("let t = ViewTree(nodes: [ViewNode(\"A\", parent: p, reads: [])], storage: [:])\n",
         "the parent of 'A' is neither nil nor a string literal"),
        ("let t = ViewTree(nodes: [ViewNode(\"A\", parent: nil, reads: r[\"A\"] ?? [])], storage: [:])\n",
         "what 'A' reads is not an array literal"),
        ("let t = ViewTree(nodes: [ViewNode(\"A\", parent: nil, reads: [k])], storage: [:])\n",
         "a key that 'A' reads is not a string literal"),
        ("let t = ViewTree(nodes: [a, b], storage: [:])\n", "a node is not a ViewNode(...) call"),
        ("let t = ViewTree(nodes: [], storage: s)\n", "its storage is not a dictionary literal"),
        ("let t = ViewTree(nodes: [], storage: [key: .environment])\n", "a storage key is not a string literal"),
        ("let t = ViewTree(nodes: [], storage: [\"k\": .state(owner: o)])\n",
         "the storage of 'k' is not .state(owner:), .model(object:) or .environment with a string literal"),
        ("let t = ViewTree(nodes: names.map { ViewNode($0, parent: nil, reads: []) }, storage: [:])\n",
         "its nodes are not an array literal"),
        ("let t = ViewTree(nodes: [], storage: [:]) { }\n",
         "it is not called as ViewTree(nodes: [...], storage: [...])"),
    ])
    func aTreeBuiltWhenItRunsIsNotWrittenOut(code: String, reason: String) {
        let read = trees(code)
        #expect(read.written.isEmpty)
        #expect(read.unwritten == [UnwrittenTree(line: 1, reason: reason)])
    }

    /// A name is a constant only when nothing else in the scenario could be what a use means.
    @Test func aShadowedOrVariableNameIsNotAConstant() {
        let shadowed = trees("""
            let key = "a"
            func f(key: String) -> ViewTree { ViewTree(nodes: [], storage: [key: .environment]) }

            """)
        #expect(shadowed.unwritten.map(\.reason) == ["a storage key is not a string literal"])
        let variable = trees("var key = \"a\"\nlet t = ViewTree(nodes: [], storage: [key: .environment])\n")
        #expect(variable.unwritten.count == 1)
    }

    @Test func aScenarioWithoutTreesHasNone() {
        #expect(trees("print(1)\n") == .none)
    }

    /// The trees survive the store: a warm run reads them back exactly, and a damaged line
    /// makes the whole entry a miss rather than a wrong tree.
    @Test func treesSurviveTheStore() throws {
        let code = """
            let a = ViewTree(nodes: [
                ViewNode("Tab\\tName", parent: nil, reads: ["line\\nkey", "back\\\\slash"]),
                ViewNode("B", parent: "Tab\\tName", reads: []),
            ], storage: ["line\\nkey": .state(owner: "B"), "x": .model(object: "o"), "y": .environment])
            let b = ViewTree(nodes: c, storage: [:])

            """
        let reading = SwiftBlockReader(storeFolder: nil, toolVersion: "t", compilerVersion: "c").parse(code)
        #expect(reading.trees.written.count == 1)
        #expect(reading.trees.unwritten.count == 1)
        let decoded = ReadingCoding.decode(ReadingCoding.encode(reading))
        #expect(decoded?.trees == reading.trees)
        var damaged = String(decoding: ReadingCoding.encode(reading), as: UTF8.self)
        damaged = damaged.replacingOccurrences(of: "store\tstate", with: "store\tsomething")
        #expect(ReadingCoding.decode(Array(damaged.utf8)) == nil)

        let folder = temporaryFolder("tree-store")
        let counts = WorkCounts()
        let stored = SwiftBlockReader(storeFolder: folder.path, toolVersion: "t", compilerVersion: "c",
                                      onParse: { counts.swiftParses.add(1, ordering: .relaxed) })
        #expect(stored.read([(code, .problems)])[0].trees == reading.trees)
        #expect(stored.read([(code, .problems)])[0].trees == reading.trees)
        #expect(counts.swiftParses.load(ordering: .relaxed) == 1)
    }
}
