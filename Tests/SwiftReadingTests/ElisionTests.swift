@testable import SwiftReading
import Testing

/// Illustrations that leave code out with `...`, as The Swift Programming Language does:
/// read as Swift without a problem of the elision's making.
struct ElisionTests {
    let reader = SwiftBlockReader(storeFolder: nil, toolVersion: "test", compilerVersion: "Swift version 0")

    @Test(arguments: [
        "func max<T>(_ x: T, _ y: T) -> T where T: Comparable { ... }\n",
        "func someFunction(a: inout A, b: consuming B, c: C) { ... }\n",
        "func f() {\n    ...\n}\n",
        "struct S {\n    var a: Int\n    ...\n}\n",
        "class C {\n    init() { ... }\n    func run() { ... }\n}\n",
    ])
    func anElisionIsNoProblem(code: String) {
        #expect(reader.parse(code).problems.isEmpty)
    }

    /// What is not only `...` is still Swift the parser refuses.
    @Test(arguments: [
        "let newPhoto = // ... some photo data ...\n",
        "function someFunction<MyType> { ... }\n",
        "struct SomeInternalStruct() {}\n",
        "func f() { ... ; let }\n",
        "struct S { ... ] }\n",
        "func f() { ... ) }\n",
        "let x = (1 + \n",
        // After an expression, a line of `...` continues it, as Swift reads it: `1 ...` and
        // no right-hand side. An elision needs a line that ends a statement before it.
        "struct S {\n    var a = 1\n    ...\n}\n",
    ])
    func otherErrorsStay(code: String) {
        #expect(!reader.parse(code).problems.isEmpty)
    }

    /// A range written with `...` is an operator, never an elision.
    @Test func rangesAreRanges() {
        #expect(reader.parse("let r = 1...5\nfor i in 0... { print(i) }\n").problems.isEmpty)
        #expect(!reader.parse("let r = 1... ...\n").problems.isEmpty)
    }
}
