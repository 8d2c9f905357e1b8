@testable import LessonParsing
import CourseModel
import TestSupport
import Testing

/// Trojan Source: bidirectional controls where a reviewer reads a lesson or a core file.
struct BidiControlRuleTests {
    /// The quick look finds each control (also as a text's last character) and passes over
    /// prose's dashes, quotes and ellipsis, whose UTF-8 starts with the same two bytes.
    @Test func theQuickLookTellsControlsFromPunctuation() {
        #expect(!BidiControl.mayOccur(in: "Türkçe — “ölçüm” ‘x’ … • ‰ ⁄ \u{2065}\u{206A}\u{2029}\u{200D}"))
        for control: UInt32 in [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x061C] {
            let scalar = String(Unicode.Scalar(control)!)
            #expect(BidiControl.mayOccur(in: "a — " + scalar), "U+\(String(control, radix: 16))")
            #expect(BidiControl.mayOccur(in: scalar + " b"), "U+\(String(control, radix: 16))")
        }
    }

    /// Each line with one is a warning at its first one's column (in bytes), naming every one
    /// of the line and the kind of block; marks count in code only.
    @Test func aWarningAtEachLine() {
        let (_, diagnostics) = lesson("""
            # T\u{2067}itle

            Hebrew needs a mark \u{200F} here; an override does not \u{202D}.

            ```swift scenario
            let é = 1 /* \u{202E} } \u{2066} */ + 2
            print(é)
            ```

            ```output
            3\u{200E}
            ```

            > ```swift
            > let y = "\u{061C}"
            > ```

            ```swift core
            \u{2069}x
            ```

            """)
        let bidi = diagnostics.filter { $0.id == .bidiControl }
        #expect(bidi.map { "\($0.location!.line):\($0.location!.column)" } == ["1:4", "3:52", "6:15", "11:2", "15:12", "19:1"])
        #expect(bidi[0].summary.hasPrefix("U+2067 RIGHT-TO-LEFT ISOLATE in the prose reorders how the line shows (Trojan Source); remove it;"))
        #expect(bidi[1].summary.hasPrefix("U+202D LEFT-TO-RIGHT OVERRIDE in the prose"), "the mark before it is prose's own")
        #expect(bidi[2].summary.hasPrefix("U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE in a scenario reorder how the line shows, so that it reads otherwise than the compiler reads it"))
        #expect(bidi[2].summary.contains("remove them, or write each as an escape such as \\u{202E} in a string; the page shows each as a marked token"))
        #expect(bidi[3].summary.hasPrefix("U+200E LEFT-TO-RIGHT MARK in an 'output' block"))
        #expect(bidi[4].summary.hasPrefix("U+061C ARABIC LETTER MARK in an illustration"), "a block inside a quote is read as at the top level")
        #expect(bidi[5].summary.hasPrefix("U+2069 POP DIRECTIONAL ISOLATE in a core listing"))
        #expect(bidi.allSatisfy { $0.severity == .warning })
    }

    @Test func noneWithoutThem() {
        let (_, diagnostics) = lesson("# Türkçe — “tırnak” ve … üç nokta\n\n```swift scenario\nprint(\"→\")\n```\n\n```output\n→\n```\n")
        #expect(!diagnostics.contains { $0.id == .bidiControl })
    }

    @Test func coreFilesAreCode() {
        let found = BidiControlRule.findings(inCoreFile: "let a = 1\r\nlet b = \"\u{200F}\" // \u{202B}\n", path: "Sources/Core.swift")
        #expect(found.map(\.location) == [SourceLocation(file: "Sources/Core.swift", line: 2, column: 10)])
        #expect(found[0].summary.hasPrefix("U+200F RIGHT-TO-LEFT MARK, U+202B RIGHT-TO-LEFT EMBEDDING in a core file"))
    }
}
