@testable import SwiftReading
import CourseModel
import Foundation
import TestSupport
import Testing

/// The guess that lets a cold check compile the batch while the parser reads the scenarios. It
/// decides nothing (the runner drops a batch the shapes disagree with), so these tests hold it to
/// the parser where it should agree, and name the cases where it errs towards a program of its
/// own on purpose.
struct ShapeGuessTests {
    let coreNames: Set<String> = ["ViewTree", "ViewNode", "countCauses", "Storage"]

    /// What the parser's reading decides, as the pipeline does (see `Pipeline.jobs`).
    func batchedByTheParser(_ code: String) -> Bool {
        let reading = SwiftBlockReader(storeFolder: nil, toolVersion: "test", compilerVersion: "0").parse(code)
        return !reading.needsOwnProgram && coreNames.isDisjoint(with: reading.declaredNames)
    }

    /// Scenarios on which the guess and the parser must agree: the plain ones a batch holds, and
    /// each thing that makes a program of its own.
    static let agreeing: [String] = [
        // What a batch holds.
        """
        // main.swift — 4 views, 1 change
        let storage: [String: Storage] = ["isMuted": .state(owner: "PlayerScreen")]
        let screen = ViewTree(nodes: [
            ViewNode("PlayerScreen", parent: nil, reads: ["isMuted"]),
        ], storage: storage)
        let recomputes = [screen.change("c", key: "isMuted")].flatMap { $0 }
        countCauses(recomputes)
        """,
        "var total = 0\nfor n in 1...3 { total += n }\nprint(\"sum \\(total)\")\n",
        "func twice(_ x: Int) -> Int { x * 2 }\nprint(twice(2))\n",
        "let (a, b) = (1, 2)\nprint(a + b)\n",
        "if let first = [1, 2].first { print(first) }\n",
        "let f: (Int) -> Int = { x in x + 1 }\nprint(f(1))\n",
        // Words in comments and strings say nothing.
        "// a struct, a class, return and await, private var\nprint(\"return struct @ # lazy\")\n",
        "/* extension /* nested */ import */\nprint(1)\n",
        "print(\"\"\"\n    struct \\(1 + 1) class\n    \"\"\")\n",
        // A core name used, not declared.
        "let tree = ViewTree(nodes: [], storage: [:])\nprint(tree.nodes.count)\n",
        // What makes a program of its own.
        "struct Box { var value: Int }\nprint(Box(value: 1))\n",
        "extension Int { var doubled: Int { self * 2 } }\nprint(2.doubled)\n",
        "import Observation\nprint(1)\n",
        "@Observable final class Model { var count = 0 }\n",
        "print(#line)\n",
        "private var hidden = 1\nprint(hidden)\n",
        "private(set) var count = 0\nprint(count)\n",
        "lazy var late = 1\nprint(late)\n",
        "var computed: Int { 5 }\nprint(computed)\n",
        "var watched = 1 {\n    didSet { print(\"set\") }\n}\nwatched = 2\n",
        "defer { print(\"end\") }\nprint(\"start\")\n",
        "let value = await Task { 1 }.value\nprint(value)\n",
        "print(\"\\(await Task { 1 }.value)\")\n",
        "let ViewTree = 3\nprint(ViewTree)\n",
        "let a = 1, countCauses = 2\nprint(a, countCauses)\n",
        "let (x, Storage) = (1, 2)\nprint(x, Storage)\n",
        "func countCauses() { print(0) }\ncountCauses()\n",
        "typealias Name = String\nlet n: Name = \"a\"\nprint(n)\n",
        // Code that does not parse.
        "let value = (1,\nprint(value)\n",
        "if true {\nprint(1)\n",
        "print(\"open)\n",
        // Closures and functions keep their `return`, `await` and types to themselves; the
        // bodies of statements do not.
        "let xs = [1, 2].map { x -> Int in return x * 2 }\nprint(xs)\n",
        "func f() -> Int { struct Local { let v = 1 }; return Local().v }\nprint(f())\n",
        "Task { try? await Task.sleep(nanoseconds: 1); print(\"done\") }\nprint(\"top\")\n",
        "func f() async -> Int { 1 }\nif true { print(await f()) }\n",
        "func f() async -> Int { 1 }\nif false {\n} else { print(await f()) }\n",
        "for n in [1, 2] {\n    if n > 1 { print(n) } else { continue }\n}\nlet ys = [3].map { $0 }\nprint(ys)\n",
        "guard true else { fatalError() }\nlet t = [1].filter { x in\n    return x > 0\n}\nprint(t)\n",
        "do { try print(1) } catch { return }\n",
        "var n = 0\nwhile n < 2 { n += 1; if n == 5 { return } }\n",
    ]

    @Test(arguments: agreeing)
    func theGuessAgreesWithTheParser(_ code: String) {
        #expect(ShapeGuess.fitsBatch(code, coreNames: coreNames) == batchedByTheParser(code))
    }

    /// Where the guess cannot tell what it would need the parser for, it errs: mostly towards a
    /// program of its own (the parser batches these, and the batch begun on the guess is
    /// dropped), and for a `switch` or `if` used as a value, the other way.
    @Test(arguments: [
        "let s = #\"raw\"#\nprint(s)\n",
        "if true, let countCauses = Optional(1) { print(countCauses) }\n",
    ])
    func theGuessErrsTowardsAProgramOfItsOwn(_ code: String) {
        #expect(batchedByTheParser(code))
        #expect(!ShapeGuess.fitsBatch(code, coreNames: coreNames))
    }

    @Test func anIfUsedAsAValueIsTakenForAClosure() {
        let code = "func f() async -> Int { 1 }\nlet x = if true { await f() } else { 0 }\nprint(x)\n"
        #expect(!batchedByTheParser(code))
        #expect(ShapeGuess.fitsBatch(code, coreNames: coreNames))
    }
}
