import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CRLF and lone CR line ends as LF: lessons with CRLF compare as if they had LF.
package func normalizingLineEnds(_ text: String) -> String {
    guard text.containsBytes("\r") else { return text }
    return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
}

/// The text without one final newline: outputs and listings compare so.
package func trimmingFinalNewline(_ text: String) -> Substring {
    text.utf8.last == UInt8(ascii: "\n") ? Substring(text.utf8.dropLast()) : Substring(text)
}

/// Whether two texts are the same byte for byte, one final newline aside: how an output is
/// compared with its block. Exact: two spellings of "é" that Unicode calls equal are not.
package func sameIgnoringFinalNewline(_ a: String, _ b: String) -> Bool {
    sameBytes(trimmingFinalNewline(a), trimmingFinalNewline(b))
}

/// Whether two texts hold the same bytes (no Unicode equivalence).
package func sameBytes(_ a: Substring, _ b: Substring) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    let compared = a.utf8.withContiguousStorageIfAvailable { left in
        b.utf8.withContiguousStorageIfAvailable { right in
            left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
        }
    }
    return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}

extension String {
    /// Whether `needle` occurs in the text, byte for byte (no Unicode equivalence, as for
    /// code): far cheaper than Foundation's `contains`, which a warm check calls thousands of
    /// times.
    package func containsBytes(_ needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { text in
            needle.withUTF8 { word in
                guard !word.isEmpty else { return true }
                guard text.count >= word.count else { return false }
                let first = word[0]
                var index = 0
                let last = text.count - word.count
                while index <= last {
                    guard let found = memchr(text.baseAddress! + index, Int32(first), last - index + 1) else { return false }
                    index = text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(text.baseAddress! + index, word.baseAddress!, word.count) == 0 { return true }
                    index += 1
                }
                return false
            }
        }
    }
}

/// A duration as people read it, to the millisecond: `10 s`, `0.5 s`, `0.001 s`.
package func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    if fraction == 0 { return "\(whole) s" }
    var text = String(format: "%.3f", Double(whole) + Double(fraction) / 1e18)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "0" ? "less than 0.001 s" : text + " s"
}

/// Whether a character must never reach a terminal or a CI log as it is: a control character
/// (C0, DEL, C1: it can move the cursor, retitle a window, end a line or hide one), a line or
/// paragraph separator (U+2028, U+2029: a log viewer may start a line there), or a
/// bidirectional control (`BidiControl`: it reorders the text around it, so that a line would
/// read otherwise than it is).
package func isShownAsCodePoint(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
    default: return BidiControl.isControl(scalar)
    }
}

/// A character as the tool shows one it will not print as it is: `<U+001B>`, `<U+202E>`.
package func codePointToken(_ scalar: Unicode.Scalar) -> String {
    "<\(codePointName(scalar))>"
}

/// `U+001B`, `U+202E`, `U+1F600`: at least four hexadecimal digits.
package func codePointName(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}

/// `text` with every character that `isShownAsCodePoint` names (but the line end and the tab
/// when `keepingLines`, the tab alone when `keepingTabs`) shown as `<U+001B>`, so that what a
/// scenario printed, a lesson's text or a file's name cannot drive the terminal, forge a line of
/// a CI log or reorder one.
package func escapingControls(_ text: String, keepingLines: Bool = false, keepingTabs: Bool = false) -> String {
    func kept(_ scalar: Unicode.Scalar) -> Bool {
        !isShownAsCodePoint(scalar) || ((keepingLines || keepingTabs) && scalar == "\t") || (keepingLines && scalar == "\n")
    }
    guard !text.unicodeScalars.allSatisfy(kept) else { return text }
    var shown = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        if kept(scalar) {
            shown.append(scalar)
        } else {
            shown.append(contentsOf: codePointToken(scalar).unicodeScalars)
        }
    }
    return String(shown)
}
