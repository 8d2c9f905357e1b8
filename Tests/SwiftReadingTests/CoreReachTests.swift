@testable import SwiftReading
import Testing

/// Which scenarios cannot change what type-checking the core says: the rule that lets a run
/// check the core once for many `errors` scenarios. It errs towards "it can".
struct CoreReachTests {
    static let core = """
        // count the causes
        struct ViewTree { let nodes: [String]; func count() -> Int { nodes.count } }
        func countCauses(_ tree: ViewTree) { print("\\(tree.count()) causes", "literal words") }
        """
    let names = CoreReach.names(ofCore: [Self.core])

    @Test func theCoresNamesAreItsCodesIdentifiers() {
        #expect(names.isSuperset(of: ["ViewTree", "nodes", "String", "count", "countCauses", "tree", "print", "Int"]))
        // Not the words of its comments and strings, nor a member it reaches only after a dot
        // (no global is found there); always the literals' default types.
        #expect(!names.contains("causes") && !names.contains("literal") && !names.contains("the"))
        #expect(!CoreReach.names(ofCore: ["func f(_ t: [Int]) -> Int { t.reversed().first ?? 0 }"]).contains("reversed"))
        #expect(CoreReach.names(ofCore: ["let r = 0...limit"]).contains("limit"))
        #expect(names.contains("StringLiteralType") && names.contains("IntegerLiteralType"))
    }

    @Test(arguments: [
        "let x: Int = \"no\"\n",
        "struct Vault { private var code = 1 }\nprint(Vault().code)\n",
        "let forest = ViewTree(nodes: [])\ncountCauses(forest)\n",
        "print(forest.count, forest.nodes)\n",
        "enum Suit { case hearts, spades }\nswitch Suit.hearts { case .hearts: print(1) }\n",
        "// let count = 1\nlet s = \"var count = 2\"\n",
        "let (a, b) = (1, 2)\n",
        "@MainActor func f() {}\n",
        "#if DEBUG\nlet z = 1\n#endif\n",
    ])
    func leavesTheCoreAlone(code: String) {
        #expect(CoreReach.leavesCoreAlone(code, coreNames: names))
    }

    @Test(arguments: [
        "func print(_ x: Int) {}\n",                         // a name the core looks up
        "let count = 3\n",                                    // a name the core holds
        "let a = 1, nodes = 2\n",                             // the second of a list
        "let (a, tree) = (1, 2)\n",                           // inside a tuple pattern
        "typealias StringLiteralType = Int\n",                // a literal's default type
        "extension Int { var twice: Int { self * 2 } }\n",
        "import Foundation\n",
        "struct V { static func + (a: V, b: V) -> V { a } }\n",
        "infix operator <>\n",
        "@Observable final class Model {}\n",                 // an attribute that may be a macro
        "#externalMacro(module: \"M\", type: \"T\")\n",
        "let s = \"open\n",                                   // code left open
        "/* a comment /* nested */ left open\nlet z = 1\n",     // a comment left open
        "enum Suit { case count }\n",
        "let tree = 1\n",                                    // a parameter's name counts too: the rule errs
    ])
    func canChangeTheCore(code: String) {
        #expect(!CoreReach.leavesCoreAlone(code, coreNames: names))
    }

    @Test func stringsAndInterpolationsAreReadAsSwiftReadsThem() {
        let code = ##"""
            let a = "x \(count) y" + #"raw \(not)"# + """
              multi \(nodes)
              """
            """##
        let tokens = SwiftTokens.scan(code)
        let identifiers = tokens.filter { $0.kind == .identifier }.map(\.text)
        #expect(identifiers == ["a", "count", "nodes"])
    }
}
