import HTMLText
@testable import SwiftReading
import CourseFiles
import CourseModel
import Foundation
import TestSupport
import Testing

/// The nesting count that decides which blocks the parser is given: brackets of every kind
/// and square brackets apart, comments and strings skipped, interpolations' code counted, the
/// first place past a limit reported with the deepest count.
struct SwiftNestingTests {
    func square(_ levels: Int, around middle: String = "1") -> String {
        String(repeating: "[", count: levels) + middle + String(repeating: "]", count: levels)
    }

    @Test func squareBracketsPastTheLimitAreTooDeep() {
        #expect(SwiftNesting.tooDeep("let x = " + square(SwiftNesting.squareLevels)) == nil)
        #expect(SwiftNesting.tooDeep("let x = " + square(24))
                == SwiftNesting.TooDeep(line: 1, column: 9 + SwiftNesting.squareLevels, square: true, depth: 24))
        // Side by side, they do not add up.
        #expect(SwiftNesting.tooDeep(Array(repeating: square(5), count: 100).joined(separator: ", ")) == nil)
        #expect(SwiftNesting.tooDeep("let x = " + square(24))?.message
                == "square brackets nested 24 deep; coursebook reads Swift with square brackets nested up to 5 deep (each level doubles the parser's time)")
    }

    @Test func bracketsOfEveryKindCountTogether() {
        let fine = String(repeating: "f({ ", count: SwiftNesting.levels / 2) + "1" + String(repeating: " })", count: SwiftNesting.levels / 2)
        #expect(SwiftNesting.tooDeep(fine) == nil)
        let deep = "let a = 1\n" + String(repeating: "(", count: 3000) + "1" + String(repeating: ")", count: 3000)
        let found = SwiftNesting.tooDeep(deep)
        #expect(found == SwiftNesting.TooDeep(line: 2, column: SwiftNesting.levels + 1, square: false, depth: 3000))
        #expect(found?.message == "nested 3000 levels deep; coursebook reads Swift up to 64 levels")
        // An interpolation is a level, and its code counts.
        let interpolated = "print(\"\\(" + String(repeating: "(", count: 70) + "1" + String(repeating: ")", count: 70) + ")\")"
        #expect(SwiftNesting.tooDeep(interpolated)?.depth == 72)
    }

    @Test func commentsAndStringsAreSkipped() {
        let hidden = [
            "// " + square(40),
            "/* " + square(40) + " /* nested */ " + square(40) + " */",
            "let s = \"" + square(40) + "\"",
            "let s = \"\"\"\n" + square(40) + "\n\"\"\"",
            "let s = #\"" + square(40) + " \\( \"# + \"\"",
            "let s = \"a \\\" " + square(40) + "\"",
        ]
        for code in hidden { #expect(SwiftNesting.tooDeep(code) == nil, "\(code)") }
        // A one-line string ends at its line's end, whatever it left open.
        #expect(SwiftNesting.tooDeep("let s = \"[[[[[[[[\n" + square(6))?.line == 2)
        #expect(SwiftNesting.tooDeep("let s = \"\\(f(\n" + square(5)) == nil)
    }

    /// Closing brackets close only what they match, in the same stretch of code: one inside a
    /// string or a stray one takes nothing off the count.
    @Test func strayAndQuotedClosersCloseNothing() {
        let code = "let x = [[[ \"]]]\" [[[ 1 ]]] ]]]"
        #expect(SwiftNesting.tooDeep(code)?.depth == 6)
        #expect(SwiftNesting.tooDeep("let x = [[[ ) } [[[ 1 ]]] ]]]")?.depth == 6)
        #expect(SwiftNesting.tooDeep("let x = [[[ \"\\( ] ] ] )\" [[[ 1 ]]] ]]]")?.depth == 6)
    }

    /// A reading that is too deep says why and where, and is what a block that was not read
    /// is: a program of its own, its code escaped, nothing else known; the store keeps it as it
    /// keeps any reading.
    @Test func aBlockTooDeepIsReadAsUnread() throws {
        let code = "let x = \"<\"\nlet y = " + square(8) + "\n@main struct M { static func main() {} }\n"
        let reading = SwiftBlockReader.reading(of: code)
        #expect(reading.unread == SwiftBlockReading.Unread(line: 2, column: 14, reason: SwiftNesting.tooDeep(code)!.message))
        #expect(reading.needsOwnProgram && reading.hasMainAttribute && reading.problems.isEmpty && reading.declaredNames.isEmpty)
        #expect(reading.highlighted == escapeHTML(code))
        let decoded = try #require(ReadingCoding.decode(ReadingCoding.encode(reading)))
        #expect(decoded.unread == reading.unread)
        var withoutHTML = reading
        withoutHTML.highlighted = nil
        #expect(decoded == withoutHTML)
    }

    /// What the reading process answers is what a reading here gives: a block's reading with
    /// or without its HTML, and a core file's names.
    @Test func theReadingProcessAnswersAsAReadingHere() throws {
        let code = "let n = 1\nfunc f() -> Int { n }\nprint(\"\\(f())\")\n"
        let here = SwiftBlockReader.reading(of: code)
        let answer = SwiftBlockReader.answer(SwiftBlockReader.request(.reading(.highlighted), code))
        #expect(answer.first == UInt8(ascii: "r"))
        #expect(ReadingCoding.decodeAnswer(Array(answer.dropFirst()), withHTML: true) == here)
        let plain = SwiftBlockReader.answer(SwiftBlockReader.request(.reading(.problems), code))
        var withoutHTML = here
        withoutHTML.highlighted = nil
        #expect(ReadingCoding.decodeAnswer(Array(plain.dropFirst()), withHTML: false) == withoutHTML)
        let names = SwiftBlockReader.answer(SwiftBlockReader.request(.globalNames, code))
        #expect(names.first == UInt8(ascii: "n"))
        let listed = String(decoding: names.dropFirst(), as: UTF8.self).split(separator: "\n")
        #expect(listed.contains("f") && listed.contains("n") && listed == listed.sorted(), "\(listed)")
        let deep = SwiftBlockReader.answer(SwiftBlockReader.request(.globalNames, "let t = " + square(9)))
        #expect(deep.first == UInt8(ascii: "u"))
        #expect(ReadingCoding.decodeUnread(Array(deep.dropFirst()))?.column == 14)
        #expect(SwiftBlockReader.answer([9, 1, 2]).isEmpty)
    }

    /// Readings elsewhere that fail are blocks not read, with the failure's words, and are not
    /// kept: the next command asks again.
    @Test func aFailedReadingElsewhereIsNotKept() throws {
        let folder = temporaryFolder("elsewhere")
        defer { try? FileManager.default.removeItem(at: folder) }
        let asked = Locked(0)
        let failing = SwiftBlockReader(storeFolder: folder.path, toolVersion: "t", compilerVersion: "c",
                                       elsewhere: { requests in
                                           asked.withLock { $0 += requests.count }
                                           return requests.map { _ in .failure(SwiftReadingFailure(reason: "it took too long")) }
                                       })
        let readings = failing.read([("let a = 1", .highlighted), ("let b = " + square(7), .problems)])
        #expect(readings[0].unread == SwiftBlockReading.Unread(reason: "it took too long"))
        #expect(readings[0].highlighted == "let a = 1" && readings[0].needsOwnProgram)
        #expect(readings[1].unread?.reason.hasPrefix("square brackets nested 7 deep") == true)
        #expect(asked.withLock { $0 } == 1, "a block too deep is not sent to be read")
        _ = failing.read([("let a = 1", .highlighted), ("let b = " + square(7), .problems)])
        #expect(asked.withLock { $0 } == 2, "a failed reading was kept")
        let here = SwiftBlockReader(storeFolder: folder.path, toolVersion: "t", compilerVersion: "c")
        #expect(here.read([("let a = 1", .highlighted)])[0].unread == nil)
    }
}
