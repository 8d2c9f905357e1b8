/// The invisible characters that change the order in which text is shown (Unicode's
/// bidirectional controls). In code they make a line read otherwise than the compiler reads
/// it: a comment that seems to end where it does not, a string that seems to hold code. That
/// is the "Trojan Source" attack on reviewers (CVE-2021-42574). coursebook warns where a lesson
/// or a core file holds one and shows each on the page as a marked token, never as itself.
package enum BidiControl {
    /// The embeddings, overrides and isolates and the two characters that end them
    /// (U+202A–U+202E, U+2066–U+2069): they reorder whole runs of text, and nothing in code or
    /// in a lesson's prose needs them typed raw. Warned about wherever they stand.
    package static func isFormatting(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// The marks (U+200E LEFT-TO-RIGHT MARK, U+200F RIGHT-TO-LEFT MARK, U+061C ARABIC LETTER
    /// MARK): they move only the punctuation and spaces beside them, and prose in Arabic or
    /// Hebrew needs them. Warned about (and shown as tokens) only inside code blocks and core
    /// files, where they have no use but to hide.
    package static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
    }

    /// Either kind.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        isFormatting(scalar) || isMark(scalar)
    }

    /// `U+202E RIGHT-TO-LEFT OVERRIDE`.
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        codePointName(scalar) + (scalar.properties.name.map { " " + $0 } ?? "")
    }

    /// Whether UTF-8 text holds one: a quick look at their bytes (E2 80 8E, E2 80 8F and
    /// E2 80 AA–AE, E2 81 A6–A9, D8 9C), so that the many texts without one are passed over
    /// without decoding them.
    package static func mayOccur(in text: String) -> Bool {
        var copy = text
        return copy.withUTF8(mayOccur(inUTF8:))
    }

    package static func mayOccur(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        for index in 0..<(bytes.count - 1) {
            let byte = bytes[index], next = bytes[index + 1]
            if byte == 0xD8, next == 0x9C { return true }
            // The third byte too: E2 80 and E2 81 also start the dashes, quotes and ellipsis
            // of ordinary prose ("—" is E2 80 94), which sent nearly every page through the
            // slow walk.
            guard byte == 0xE2, next == 0x80 || next == 0x81, index + 2 < bytes.count else { continue }
            let last = bytes[index + 2]
            if next == 0x80, last == 0x8E || last == 0x8F || (0xAA...0xAE).contains(last) { return true }
            if next == 0x81, (0xA6...0xA9).contains(last) { return true }
        }
        return false
    }

    /// Every bidirectional control of `text` that `counts` picks, with its 1-based line and
    /// column (in UTF-8 bytes, as locations count them); lines end at LF, CRLF or a lone CR.
    package static func occurrences(in text: String, counting counts: (Unicode.Scalar) -> Bool = isControl)
        -> [(line: Int, column: Int, scalar: Unicode.Scalar)] {
        guard mayOccur(in: text) else { return [] }
        var found: [(line: Int, column: Int, scalar: Unicode.Scalar)] = []
        var line = 1, column = 1
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if previous != "\r" { line += 1 }
                column = 1
            } else if scalar == "\r" {
                line += 1
                column = 1
            } else {
                if isControl(scalar), counts(scalar) { found.append((line, column, scalar)) }
                column += UTF8.width(scalar)
            }
            previous = scalar
        }
        return found
    }
}
