@testable import SwiftReading
import Foundation
import SwiftParser
import TestSupport
import Testing

/// The names of a core file that a scenario's own top-level names could change.
struct CoreNamesTests {
    @Test func fileScopeNamesAndFreeNamesButNotTheFilesOwn() {
        let core = """
            struct Tree {
                let nodes: [String]
                var storage: [String: Int] = [:]
                func count(of key: String) -> Int {
                    let local = storage[key] ?? 0
                    for node in nodes where node == key { print(node) }
                    return local + helper(key) + nodes.map { $0.count }.reduce(0, +)
                }
            }
            func helper(_ value: String) -> Int { if let first = value.first { return Int(String(first)) ?? 0 }; return zip([1], [2]).count }
            let shared = 3
            """
        let names = CoreNames.of(Parser.parse(source: core))
        #expect(names == ["Tree", "helper", "shared", "String", "Int", "print", "zip", "+"])
    }

    @Test func theCourseCore() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Sources/Invalidation/Invalidation.swift"), encoding: .utf8)
        let names = CoreNames.of(Parser.parse(source: text))
        #expect(names.isSuperset(of: ["Storage", "ViewNode", "Recompute", "ViewTree", "countCauses", "print"]))
        #expect(names.isDisjoint(with: ["storage", "nodes", "tree", "screen", "recomputes", "all", "key", "label"]))
    }
}
