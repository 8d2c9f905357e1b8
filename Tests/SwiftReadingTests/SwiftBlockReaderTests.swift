import BackgroundWork
import HTMLText
@testable import SwiftReading
import CourseModel
import CourseFiles
import Foundation
import TestSupport
import Testing

struct SwiftBlockReaderTests {
    func reader(_ folder: URL? = nil, counts: WorkCounts? = nil) -> SwiftBlockReader {
        SwiftBlockReader(storeFolder: folder?.path, toolVersion: "test", compilerVersion: "Swift version 0",
                         onParse: { counts?.swiftParses.add(1, ordering: .relaxed) })
    }

    @Test func validSwiftUICodeHasNoProblems() {
        let code = """
            import SwiftUI

            struct Counter: View {
                @State private var count = 0
                var body: some View {
                    Button("Artır") { count += 1 }
                        .environment(\\.colorScheme, .dark)
                }
            }

            """
        #expect(reader().parse(code).problems.isEmpty)
    }

    /// The parser's first problem at its exact line and column inside the block (columns in
    /// UTF-8 bytes: the `ı` before it takes two), which the check then moves to the lesson.
    @Test func aSyntaxErrorIsAProblemAtItsPlaceInTheBlock() {
        let problems = reader().parse("let a = 1\n    Text(\"ı\"\n}\n").problems
        #expect(problems.count <= SyntaxFindings.perBlock)
        #expect(problems.first == SyntaxProblem(line: 2, column: 14, message: "expected ')' to end function call"))
    }

    @Test func highlightingClassifiesAndEscapes() {
        let html = reader().parse("// note <b>\nlet s = \"a & b\" // x\n").highlighted
        #expect(html == "<span class=\"tok-comment\">// note &lt;b&gt;</span>\n<span class=\"tok-keyword\">let</span> s = <span class=\"tok-string\">&quot;a &amp; b&quot;</span> <span class=\"tok-comment\">// x</span>\n")
    }

    /// Only what behaves the same at the top level of main.swift and inside a function may be
    /// batched; everything else gets a program of its own.
    @Test(arguments: [
        ("let x = 1\nprint(x)\nfunc f() {}\nif x > 0 { print(\"big\") }\nfor i in 0..<2 { print(i) }\n", false, false),
        ("let t = Task { await f() }\n", false, false),
        ("guard x > 0 else { fatalError() }\n", false, false),
        ("struct S { var a = 1 }\nprint(S())\n", true, false),
        ("class C {}\n", true, false),
        ("enum E { case a }\n", true, false),
        ("typealias T = Int\n", true, false),
        ("extension String { var twice: String { self + self } }\n", true, false),
        ("import Observation\n", true, false),
        ("protocol P {}\n", true, false),
        ("@Observable final class Model { var a = 0 }\n", true, false),
        ("private let x = 1\n", true, false),
        ("lazy var x = 1\n", true, false),
        ("var x = 1 { didSet { print(x) } }\n", true, false),
        ("guard let x = Int(\"1\") else { return }\n", true, false),
        ("if true { return }\n", true, false),
        ("defer { print(1) }\nprint(2)\n", true, false),
        ("let v = await f()\n", true, false),
        ("for await x in s {}\n", true, false),
        ("async let v = f()\n", true, false),
        ("@main struct App { static func main() {} }\n", true, true),
        ("print(#function)\n", true, false),
        ("#if os(Linux)\nprint(1)\n#endif\n", true, false),
        ("let x = (1, \n", true, false),
        ("func f() { return }\nlet c = { return 1 }\n", false, false),
    ])
    func shapes(code: String, ownProgram: Bool, mainAttribute: Bool) {
        let reading = reader().read([(code, .problems)]).first
        #expect(reading?.needsOwnProgram == ownProgram, "\(code)")
        #expect(reading?.hasMainAttribute == mainAttribute)
    }

    @Test func topLevelNamesAreKnown() {
        let reading = reader().read([("let (a, b) = (1, 2)\nvar c = 3\nfunc d() {}\nprint(a)\n", .problems)]).first
        #expect(reading?.declaredNames == ["a", "b", "c", "d"])
    }

    @Test func eachTextIsParsedOnceAndNotAtAllTheNextTime() throws {
        let folder = temporaryFolder("readings")
        defer { try? FileManager.default.removeItem(at: folder) }
        let code = "import SwiftUI\nstruct V: View { var body: some View { Text(\"a\") } }\n"
        let broken = "let x = (\n"
        let first = WorkCounts()
        let read = reader(folder, counts: first).read([(code, .problems), (code, .highlighted), (broken, .problems)])
        #expect(first.swiftParses.load(ordering: .relaxed) == 2)
        #expect(read[0] == read[1])
        let second = WorkCounts()
        let again = reader(folder, counts: second).read([(code, .highlighted), (broken, .highlighted)])
        #expect(second.swiftParses.load(ordering: .relaxed) == 0)
        // What was asked for problems only is handed no HTML, but the HTML was kept.
        #expect(read[2].highlighted == nil && again[1].highlighted == "<span class=\"tok-keyword\">let</span> x = (\n")
        var broken2 = again[1]
        broken2.highlighted = nil
        #expect([again[0], broken2] == [read[1], read[2]])
        #expect(again[1].problems.isEmpty == false)
        // A check asks for no HTML and reads none.
        let check = reader(folder, counts: second).read([(code, .problems)])
        #expect(check[0].highlighted == nil && check[0].problems == read[0].problems)
    }

    /// A check asks for no HTML, but the process that reads makes it anyway: with a store, it
    /// comes back and is kept, so that the build after the check parses nothing for its
    /// highlighting; the check itself is handed none. Without a store none is asked for.
    @Test func aCheckReadingElsewhereKeepsTheHTMLForTheBuild() throws {
        let folder = temporaryFolder("kept-html")
        defer { try? FileManager.default.removeItem(at: folder) }
        let kinds = Locked<[UInt8]>([])
        let elsewhere: SwiftReadingElsewhere = { requests in
            kinds.withLock { $0 += requests.map { $0[0] } }
            return requests.map { .success(SwiftBlockReader.answer($0)) }
        }
        let code = "let greeting = \"merhaba\"\nprint(greeting)\n"
        func reader(_ store: URL?, _ counts: WorkCounts) -> SwiftBlockReader {
            SwiftBlockReader(storeFolder: store?.path, toolVersion: "test", compilerVersion: "Swift version 0",
                             onParse: { counts.swiftParses.add(1, ordering: .relaxed) }, elsewhere: elsewhere)
        }
        let check = reader(folder, WorkCounts()).read([(code, .problems)])
        #expect(check[0].highlighted == nil)
        let build = WorkCounts()
        let page = reader(folder, build).read([(code, .highlighted)])
        #expect(build.swiftParses.load(ordering: .relaxed) == 0)
        #expect(page[0].highlighted == SwiftBlockReader.reading(of: code).highlighted)
        #expect(kinds.withLock { $0 } == [1])
        _ = reader(nil, WorkCounts()).read([(code, .problems)])
        #expect(kinds.withLock { $0 } == [1, 0])
    }

    /// The shared store (the user's, across courses and runs) serves a reader without a
    /// course store (`--no-cache`) and another course's: neither parses a block read before,
    /// and a course store that lacked a reading gets it, so it stays whole on its own.
    @Test func aReadingKeptInTheSharedStoreServesEveryCourse() throws {
        let shared = temporaryFolder("shared-readings")
        let course = temporaryFolder("course-readings")
        defer {
            try? FileManager.default.removeItem(at: shared)
            try? FileManager.default.removeItem(at: course)
        }
        func reader(course: URL?, shared: URL?, _ counts: WorkCounts) -> SwiftBlockReader {
            SwiftBlockReader(storeFolder: course?.path, sharedFolder: shared?.path, toolVersion: "test",
                             compilerVersion: "Swift version 0", onParse: { counts.swiftParses.add(1, ordering: .relaxed) })
        }
        let code = "let greeting = \"merhaba\"\nprint(greeting)\n"
        let cold = WorkCounts()
        let first = reader(course: nil, shared: shared, cold).read([(code, .problems)])
        #expect(cold.swiftParses.load(ordering: .relaxed) == 1)

        let noCache = WorkCounts()
        #expect(reader(course: nil, shared: shared, noCache).read([(code, .problems)]) == first)
        #expect(noCache.swiftParses.load(ordering: .relaxed) == 0)

        let otherCourse = WorkCounts()
        #expect(reader(course: course, shared: shared, otherCourse).read([(code, .problems)]) == first)
        #expect(otherCourse.swiftParses.load(ordering: .relaxed) == 0)
        // The course's store now holds it: without the shared store it is still not parsed.
        let courseAlone = WorkCounts()
        #expect(reader(course: course, shared: nil, courseAlone).read([(code, .problems)]) == first)
        #expect(courseAlone.swiftParses.load(ordering: .relaxed) == 0)
        // Without either, it is parsed.
        let neither = WorkCounts()
        _ = reader(course: nil, shared: nil, neither).read([(code, .problems)])
        #expect(neither.swiftParses.load(ordering: .relaxed) == 1)
        // The --no-cache check's parse kept the highlighting in the shared store too, though
        // it did not show it: a build after it, in any course, parses nothing.
        let build = WorkCounts(), builtCourse = temporaryFolder("built-course-readings")
        defer { try? FileManager.default.removeItem(at: builtCourse) }
        let built = reader(course: builtCourse, shared: shared, build).read([(code, .highlighted)])
        #expect(build.swiftParses.load(ordering: .relaxed) == 0)
        #expect(built.first?.highlighted == SwiftBlockReader.reading(of: code).highlighted)
    }

    /// A cold read of many blocks keeps them in the shared store as one pack (one new file, not
    /// one per block; and one of their highlighting, kept for the build after), which serves a later reader without a course store and a course's alike;
    /// a few blocks (an edit) are kept one by one; a pack that does not verify is not believed.
    @Test func manyReadingsGoIntoTheSharedStoreAsOnePack() throws {
        let shared = temporaryFolder("shared-pack")
        let course = temporaryFolder("course-from-pack")
        defer {
            try? FileManager.default.removeItem(at: shared)
            try? FileManager.default.removeItem(at: course)
        }
        func reader(course: URL?, _ counts: WorkCounts) -> SwiftBlockReader {
            SwiftBlockReader(storeFolder: course?.path, sharedFolder: shared.path, toolVersion: "test",
                             compilerVersion: "Swift version 0", onParse: { counts.swiftParses.add(1, ordering: .relaxed) })
        }
        func names() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { !$0.hasPrefix(".") }
        }
        let codes = (0..<SwiftBlockReader.sharedPackSize).map { "let value\($0) = \($0)\nprint(value\($0))\n" }
        let first = reader(course: nil, WorkCounts()).read(codes.map { ($0, .problems) })
        #expect(try names().count == 2)
        #expect(try names().allSatisfy { $0.hasSuffix(".pack") })

        let noCache = WorkCounts()
        #expect(reader(course: nil, noCache).read(codes.map { ($0, .problems) }) == first)
        #expect(noCache.swiftParses.load(ordering: .relaxed) == 0)
        let otherCourse = WorkCounts()
        #expect(reader(course: course, otherCourse).read(codes.map { ($0, .problems) }, pack: "scenarios") == first)
        #expect(otherCourse.swiftParses.load(ordering: .relaxed) == 0)

        let edit = "let edited = 1\nprint(edited)\n"
        _ = reader(course: nil, WorkCounts()).read([(edit, .problems)] + codes.map { ($0, .problems) })
        #expect(try names().filter { $0.hasSuffix(".swift") }.count == 1)
        #expect(try names().filter { $0.hasSuffix(".html") }.count == 1)
        #expect(try names().count == 4)

        let pack = shared.appendingPathComponent(try names().first { $0.hasSuffix(".pack") && $0.contains("-swift-") }!)
        var bytes = try Data(contentsOf: pack)
        bytes[bytes.count - 2] ^= 1
        try bytes.write(to: pack)
        let refused = WorkCounts()
        #expect(reader(course: nil, refused).read(codes.map { ($0, .problems) }) == first)
        #expect(refused.swiftParses.load(ordering: .relaxed) == codes.count)
    }

    /// A caller's pack holds its blocks' facts in one file: read again, they come from it
    /// (the entries one by one are gone here, and nothing is parsed); a block that was not in
    /// it is read and the pack written again with it; a pack that does not verify is not
    /// believed.
    @Test func aPackServesTheBlocksItHolds() throws {
        let folder = temporaryFolder("pack-readings")
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = "let a = 1\nprint(a)\n", two = "let b = 2\nprint(b)\n"
        let first = reader(folder).read([(one, .problems), (two, .problems)], pack: "test")
        func removeEntries() throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        try removeEntries()
        let warm = WorkCounts()
        #expect(reader(folder, counts: warm).read([(one, .problems), (two, .problems)], pack: "test") == first)
        #expect(warm.swiftParses.load(ordering: .relaxed) == 0)

        let three = "let c = 3\nprint(c)\n"
        let added = WorkCounts()
        _ = reader(folder, counts: added).read([(one, .problems), (three, .problems)], pack: "test")
        #expect(added.swiftParses.load(ordering: .relaxed) == 1)
        try removeEntries()
        let again = WorkCounts()
        _ = reader(folder, counts: again).read([(one, .problems), (three, .problems)], pack: "test")
        #expect(again.swiftParses.load(ordering: .relaxed) == 0)

        let pack = folder.appendingPathComponent("readings-test.pack")
        var bytes = try Data(contentsOf: pack)
        bytes[bytes.count - 2] ^= 1
        try bytes.write(to: pack)
        let refused = WorkCounts()
        _ = reader(folder, counts: refused).read([(one, .problems), (three, .problems)], pack: "test")
        #expect(refused.swiftParses.load(ordering: .relaxed) == 2)
    }

    @Test func anEntryThatDoesNotVerifyIsReadAgain() throws {
        let folder = temporaryFolder("damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let code = "import SwiftUI\n"
        _ = reader(folder).read([(code, .highlighted)])
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".html") }
        #expect(entries.count == 1)
        let path = folder.appendingPathComponent(entries[0]).path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.dropLast(3).write(to: URL(fileURLWithPath: path))
        let parses = WorkCounts()
        let read = reader(folder, counts: parses).read([(code, .highlighted)])
        #expect(parses.swiftParses.load(ordering: .relaxed) == 1)
        #expect(read[0].highlighted?.hasSuffix("\n") == true)
    }

    /// Stored readings of ASCII are read on their bytes, others on characters: both ways must
    /// give the same reading, or refuse the same entries.
    @Test(arguments: [
        "shape 1 0\n",
        "shape 0 1\nnames a b  c\nproblem 2 5 a \\\\ b\\nc\\t d\n",
        "shape 0 0\nnames\n",
        "shape 0 0\nproblem +2 -5 x\n",
        "shape 0 0\nproblem 2 5\n",
        "shape 0 0\nproblem two 5 x\n",
        "shape 1\n",
        "shape 1 0",
        "names a\n",
        "shape 0 0\ntree\t3\t=tree\nview\tA\t-\tk\tj\nview\tB\t=A\nstore\tstate\tk\tA\nstore\tmodel\tj\to\nstore\tenvironment\te\t\n",
        "shape 0 0\ntree\t3\t-\nview\tTab\\tName\t=A\\\\B\tline\\nkey\nunwritten\t9\tits views are a variable\n",
        "shape 0 0\nview\tA\t-\n",
        "shape 0 0\ntree\t3\tname\n",
        "shape 0 0\ntree\t3\t-\nstore\tsomething\tk\tA\n",
        "shape 0 0\ntr\\ee\t3\t-\n",
        "shape 0 0\nunwritten\tx\ty\n",
        "shape 0 0\nother line\n",
        "",
        "\n",
    ])
    func bytesAndCharactersAgree(payload: String) {
        let bytes = Array(payload.utf8)
        let byBytes = bytes.withUnsafeBufferPointer { ReadingCoding.decode(ascii: $0) }
        #expect(byBytes == ReadingCoding.decode(text: bytes))
        #expect(ReadingCoding.decode(bytes) == ReadingCoding.decode(text: bytes))
    }

    @Test func asciiReadingsAreReadInFull() throws {
        let payload = Array("shape 1 0\nnames a b\nproblem 2 5 a \\\\ b\\tc\ntree\t3\t=t\nview\tA\t-\tk\nstore\tstate\tk\tA\nunwritten\t9\twhy\n".utf8)
        let reading = try #require(ReadingCoding.decode(payload))
        #expect(reading.needsOwnProgram && !reading.hasMainAttribute)
        #expect(reading.declaredNames == ["a", "b"])
        #expect(reading.problems == [SyntaxProblem(line: 2, column: 5, message: "a \\ b\tc")])
        #expect(reading.trees.written == [WrittenTree(binding: "t", line: 3, views: [WrittenView("A", parent: nil, reads: ["k"])],
                                                      storage: [("k", .state(owner: "A"))])])
        #expect(reading.trees.unwritten == [UnwrittenTree(line: 9, reason: "why")])
    }

    /// A backslash followed by a combining mark is one character, which is no escape: such a
    /// reading is read on characters, as it was written.
    @Test func aReadingBeyondASCIIIsReadOnCharacters() {
        let reading = SwiftBlockReading(problems: [SyntaxProblem(line: 1, column: 1, message: "\\\u{301}n ş\r\n")],
                                        needsOwnProgram: false, hasMainAttribute: true, declaredNames: ["ş"],
                                        highlighted: nil)
        #expect(ReadingCoding.decode(ReadingCoding.encode(reading)) == reading)
    }

    /// A scenario that declares types is a program of its own whose types a batch may lift:
    /// their whole lines and names, kept by the store, read on bytes and on characters alike.
    @Test func typesALiftedBatchMayLiftAreTheirLinesAndNames() throws {
        let code = """
            struct Point { var x = 1 }
            let origin = Point()
            /// A class.
            final class Shape {
                var sides = 3
            }
            extension Shape: CustomStringConvertible { var description: String { "\\(sides)" } }
            print(origin, Shape())
            """
        let reading = SwiftBlockReader.reading(of: code)
        #expect(reading.needsOwnProgram)
        let hoisting = try #require(reading.hoisting)
        #expect(hoisting.lines == [1...1, 4...6, 7...7])
        #expect(hoisting.names == ["Point", "Shape"])
        var stored = reading
        stored.highlighted = nil
        #expect(ReadingCoding.decode(ReadingCoding.encode(reading)) == stored)
        let bytes = ReadingCoding.encode(reading)
        #expect(bytes.withUnsafeBufferPointer { ReadingCoding.decode(ascii: $0) } == ReadingCoding.decode(text: bytes))
        // No lifting: an extension of a type it does not declare, a type that uses its own
        // global, a statement on a type's line, an actor, a literal's default type, `@main`.
        for refused in [
            "struct A {}\nextension Int { var a: A { A() } }\n",
            "var count = 0\nstruct B { func next() -> Int { count + 1 } }\n",
            "struct C {}; print(C())\n",
            "actor D {}\n",
            "typealias IntegerLiteralType = Double\nprint(1)\n",
            "@main struct E { static func main() {} }\n",
            "struct F { let line = #line }\n",
        ] {
            #expect(SwiftBlockReader.reading(of: refused).hoisting == nil, "\(refused)")
        }
        // A scenario without types has a lifting of nothing (what a group of such blocks uses).
        #expect(SwiftBlockReader.reading(of: "print(1)\n").hoisting == ScenarioHoisting(lines: [], names: []))
    }

    @Test func messagesSurviveTheStore() {
        let reading = SwiftBlockReading(problems: [SyntaxProblem(line: 2, column: 5, message: "a \\ b\nc")],
                                        needsOwnProgram: true, hasMainAttribute: false, declaredNames: ["x", "y"],
                                        highlighted: nil)
        #expect(ReadingCoding.decode(ReadingCoding.encode(reading)) == reading)
    }
}

struct SwiftHighlighterTests {
    @Test func classifiesWhatAReaderTellsApart() {
        let html = SwiftBlockReader(storeFolder: nil, toolVersion: "t", compilerVersion: "c").parse("@State var n: Int = 42 // note\nlet s = \"a<b\"\n").highlighted ?? ""
        #expect(html.contains("<span class=\"tok-attribute\">@State</span>") || html.contains("<span class=\"tok-attribute\">State</span>"))
        #expect(html.contains("<span class=\"tok-keyword\">var</span>"))
        #expect(html.contains("<span class=\"tok-type\">Int</span>"))
        #expect(html.contains("<span class=\"tok-number\">42</span>"))
        #expect(html.contains("<span class=\"tok-comment\">// note</span>"))
        #expect(html.contains("a&lt;b"))
    }

    @Test func withoutTheSpansItIsTheCodeEscaped() {
        let code = "struct A<T> { let x = \"<&>\" }\n/* é */ #if DEBUG\n#endif\n"
        let html = SwiftBlockReader(storeFolder: nil, toolVersion: "t", compilerVersion: "c").parse(code).highlighted ?? ""
        let stripped = html.replacingOccurrences(of: #"<span class="tok-[a-z]+">"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "</span>", with: "")
        #expect(stripped == escapeHTML(code))
    }
}

