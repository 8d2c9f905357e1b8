@testable import SwiftReading
import Testing

/// Illustrations with Xcode's editor placeholders (`<#name#>`): read as Swift without a
/// problem of the placeholders' making, shown as Xcode's rounded tokens.
struct EditorPlaceholderTests {
    let reader = SwiftBlockReader(storeFolder: nil, toolVersion: "test", compilerVersion: "Swift version 0")

    @Test(arguments: [
        "let x = <#value#>\n",
        "if <#condition#> {\n    <#code#>\n}\n",
        "{ (<#parameters#>) -> <#return type#> in\n   <#statements#>\n}\n",
        "init(<#parameters#>) {\n   <#statements#>\n}\n",
        "func <#name#>(<#parameters#>) -> <#return type#> {\n   <#statements#>\n}\n",
        "extension <#type name#>: <#adopted protocols#> where <#requirements#> {\n   <#declarations#>\n}\n",
        "@<#attribute name#>\n@<#attribute name#>(<#attribute arguments#>)\n",
        "<#argument label#> <#parameter name#>: <#parameter type#>\n",
        "if #available(<#platform name#> <#version#>, <#...#>, *) {\n    <#statements#>\n}\n",
        "<#expression#> is <#type#>\n<#expression#> as <#type#>\n",
        "let total = add(<#T##x: Int##Int#>, to: <#T##y: Int##Int#>)\n",
        "introduced: <#version number#>\n",
    ])
    func placeholdersAreNoProblem(code: String) {
        #expect(reader.parse(code).problems.isEmpty)
    }

    /// An error that no placeholder explains is still reported, in a block with placeholders.
    @Test func anErrorAwayFromThePlaceholdersStays() {
        let problems = reader.parse("let a = <#value#>\nlet b = (1 +\nlet c = 2\n").problems
        #expect(problems.first?.line == 2)
        // A placeholder left open (`<#type>`) is no placeholder.
        #expect(!reader.parse("func f() -> <#type> {}\n").problems.isEmpty)
    }

    @Test func placeholdersAreFoundAsTheLexerFindsThem() {
        func found(_ code: String) -> [String] {
            let bytes = Array(code.utf8)
            return EditorPlaceholder.ranges(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
        #expect(found("a <#b#> <#c d#>") == ["<#b#>", "<#c d#>"])
        #expect(found("<#open\n#> <#x <#y#>") == ["<#y#>"])
        #expect(found("<##> <#") == ["<##>"])
        #expect(EditorPlaceholder.name("<#name#>") == "name")
        #expect(EditorPlaceholder.name("<#T##label##Int#>") == "label")
        #expect(EditorPlaceholder.name("<#T##(Int) -> Void#>") == "(Int) -> Void")
        #expect(EditorPlaceholder.name("<#T##x: Int##Int##Int#>") == "x: Int")
    }

    @Test func aPlaceholderIsATokenWithItsName() {
        let html = reader.parse("let x: <#T##Type##Int#> = f(<#a & b#>) // <#note#>\n").highlighted
        #expect(html == "<span class=\"tok-keyword\">let</span> x: <span class=\"tok-placeholder\">Type</span> = f(<span class=\"tok-placeholder\">a &amp; b</span>) <span class=\"tok-comment\">// </span><span class=\"tok-placeholder\">note</span>\n")
        // Where the classification splits a placeholder in two, it is still one token.
        let split = reader.parse("<#expression#> is <#type#>\n<#expression#> as <#type#>\n").highlighted ?? ""
        #expect(split.ranges(of: "<span class=\"tok-placeholder\">").count == 4)
        #expect(!split.contains("&lt;#") && !split.contains("#&gt;"))
    }
}
