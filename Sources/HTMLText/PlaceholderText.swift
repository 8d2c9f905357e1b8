import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Xcode's editor placeholders (`<#name#>`, `<#T##label##Type#>`) as a page shows them outside
/// Swift's highlighting: in inline code, and in code blocks of other languages. Found as
/// Swift's lexer finds them: `<#`, then the nearest `#>` on the same line with no `<#` between.
package enum PlaceholderText {
    /// What Xcode shows of a placeholder (its text with `<#` and `#>`): a typed one,
    /// `T##label##Type` (`##Type` may be left out, or followed by `##` and another type), its
    /// label; any other, its text.
    package static func name(_ placeholder: some StringProtocol) -> String {
        var text = Substring(placeholder)
        if text.hasPrefix("<#") { text = text.dropFirst(2) }
        if text.hasSuffix("#>") { text = text.dropLast(2) }
        guard text.hasPrefix("T##") else { return String(text) }
        let typed = text.dropFirst(3)
        return String(typed.ranges(of: "##").first.map { typed[..<$0.lowerBound] } ?? typed)
    }

    /// Escaped code (`&lt;#name#&gt;`) with each placeholder a token of its own,
    /// `<span class="tok-placeholder">` holding the name Xcode shows. One pass over the text.
    package static func tokens(inEscapedCode code: some StringProtocol) -> String {
        let open = "&lt;#", close = "#&gt;"
        var result = ""
        var rest = Substring(code)
        while let start = rest.range(of: open) {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            // The end on the same line, before any other opening.
            let lineEnd = after.firstIndex { $0 == "\n" || $0 == "\r" } ?? after.endIndex
            let line = after[..<lineEnd]
            let nextOpen = line.range(of: open)?.lowerBound ?? line.endIndex
            if let end = line[..<nextOpen].range(of: close) {
                result += "<span class=\"tok-placeholder\">\(name(line[..<end.lowerBound]))</span>"
                rest = after[end.upperBound...]
            } else {
                result += open
                rest = after
            }
        }
        return result + rest
    }

    /// Rendered HTML with the placeholders inside its `<code>` elements made tokens; all else
    /// byte for byte.
    package static func tokens(inCodeOf html: String) -> String {
        // The bytes first (see `HiddenLines.appear`): inside code, cmark-gfm writes `&lt;` itself.
        guard bytes(of: html, hold: "&lt;#"), html.contains("&lt;#") else { return html }
        var result = ""
        var rest = Substring(html)
        while let tag = rest.range(of: "<code") {
            guard let tagEnd = rest[tag.upperBound...].firstIndex(of: ">"),
                  let end = rest[rest.index(after: tagEnd)...].range(of: "</code>") else { break }
            result += rest[..<rest.index(after: tagEnd)]
            result += tokens(inEscapedCode: rest[rest.index(after: tagEnd)..<end.lowerBound])
            result += "</code>"
            rest = rest[end.upperBound...]
        }
        return result + rest
    }

    /// Whether the UTF-8 bytes of `text` hold those of `needle`: far cheaper than Foundation's
    /// `contains`, which compares characters.
    private static func bytes(of text: String, hold needle: String) -> Bool {
        var text = text, needle = needle
        return text.withUTF8 { hay in
            needle.withUTF8 { wanted in
                guard let first = wanted.first else { return true }
                guard let base = hay.baseAddress, hay.count >= wanted.count else { return false }
                var index = 0
                let last = hay.count - wanted.count
                while index <= last, let hit = memchr(base + index, Int32(first), last - index + 1) {
                    index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + index, wanted.baseAddress!, wanted.count) == 0 { return true }
                    index += 1
                }
                return false
            }
        }
    }
}
