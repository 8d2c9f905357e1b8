#if canImport(Glibc)
import Glibc
#endif

/// The whole course on one page (`print.html`): every lesson's body, made to live beside the
/// others. Each lesson's anchors get the lesson's name in front (`01-yerel-durum--state`), so
/// that two lessons' `#ozet` stay apart; links between lessons become links inside the page;
/// limitation notes keep their anchors (`#dr3`), which are unique in the course already; and
/// headings move one level down, under the lesson's title.
enum WholeCourse {
    /// The body of lesson `lesson` (its slug) for the one page; `lessonPages` are the site's
    /// lesson pages (`01-yerel-durum.html`), whose links now point inside the page.
    static func relinked(_ html: String, lesson: String, lessonPages: Set<String>) -> String {
        // One pass over the bytes: a lesson's body holds change diagrams and long outputs, and
        // searching the rest of it again for every attribute would take its length squared.
        // From quote to quote (`memchr`): every attribute looked for ends in one, and a quote
        // is rarer than the spaces they begin with (a look at every space took a twentieth of
        // an unchanged 1000-lesson build).
        let bytes = Array(html.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 1024)
        var copied = 0, index = 0
        let quote = UInt8(ascii: "\"")
        while index < bytes.count {
            guard let at = bytes.firstIndex(of: quote, from: index) else { break }
            index = at + 1
            guard let attribute = Self.anchorAttributes.first(where: { at + 1 >= $0.count && bytes.hasPrefix($0, at: at + 1 - $0.count) }) else {
                continue
            }
            let start = at + 1
            guard let end = bytes[start...].firstIndex(of: quote) else { break }
            result += bytes[copied..<start]
            let value = String(decoding: bytes[start..<end], as: UTF8.self)
            if attribute == Self.hrefAttribute {
                result += href(value, lesson: lesson, lessonPages: lessonPages).utf8
            } else {
                result += value.split(separator: " ").map { anchor(String($0), lesson: lesson) }.joined(separator: " ").utf8
            }
            copied = end
            // Past the closing quote: an attribute looked for begins after it.
            index = end + 1
        }
        result += bytes[copied...]
        return String(decoding: demotingHeadings(result), as: UTF8.self)
    }

    /// Attributes that name an anchor; the page's own HTML writes them in double quotes, and
    /// text never holds `="` unescaped.
    private static let hrefAttribute = Array(" href=\"".utf8)
    private static let anchorAttributes = [Array(" id=\"".utf8), hrefAttribute, Array(" aria-labelledby=\"".utf8),
                                           Array(" aria-describedby=\"".utf8)]

    /// An anchor of lesson `lesson` on the one page.
    static func anchor(_ id: String, lesson: String) -> String {
        isNoteAnchor(id) ? id : "\(lesson)--\(id)"
    }

    private static func isNoteAnchor(_ id: String) -> Bool {
        guard id.hasPrefix("dr") else { return false }
        var digits = id.dropFirst(2)
        if digits.hasSuffix("-label") { digits = digits.dropLast("-label".count) }
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    private static func href(_ value: String, lesson: String, lessonPages: Set<String>) -> String {
        if value.hasPrefix("#") { return "#" + anchor(String(value.dropFirst()), lesson: lesson) }
        let parts = value.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let page = String(parts[0])
        guard lessonPages.contains(page) else {
            // The limitations page's entry of a note is the note itself here.
            if page == SitePages.limitationsPage, parts.count == 2, isNoteAnchor(String(parts[1])) { return "#\(parts[1])" }
            return value
        }
        let other = String(page.dropLast(".html".count))
        guard parts.count == 2, !parts[1].isEmpty else { return "#\(other)" }
        return "#" + anchor(String(parts[1]), lesson: other)
    }

    /// `<h2 ...>` is `<h3 ...>` and so on: the lesson's title is the page's `<h2>`. Every
    /// `<hN>`, `<hN ` and `</hN>` with N from 1 to 5, in one pass.
    private static func demotingHeadings(_ html: [UInt8]) -> [UInt8] {
        var result = html
        let open = UInt8(ascii: "<"), slash = UInt8(ascii: "/"), h = UInt8(ascii: "h")
        var index = 0
        while index + 3 < result.count {
            defer { index += 1 }
            guard result[index] == open else { continue }
            let closing = result[index + 1] == slash
            let letter = index + (closing ? 2 : 1)
            guard letter + 2 < result.count, result[letter] == h,
                  (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(result[letter + 1]) else { continue }
            let after = result[letter + 2]
            guard after == UInt8(ascii: ">") || (!closing && after == UInt8(ascii: " ")) else { continue }
            result[letter + 1] += 1
        }
        return result
    }
}

extension Array where Element == UInt8 {
    /// Whether `prefix` stands at `index`.
    /// The first index of `byte` at `from` or after, by `memchr`.
    fileprivate func firstIndex(of byte: UInt8, from: Int) -> Int? {
        guard from < count else { return nil }
        return withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let hit = memchr(base + from, Int32(byte), count - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    fileprivate func hasPrefix(_ prefix: [UInt8], at index: Int) -> Bool {
        guard index + prefix.count <= count else { return false }
        for offset in prefix.indices where self[index + offset] != prefix[offset] { return false }
        return true
    }
}
