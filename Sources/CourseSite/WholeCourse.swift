/// The whole course on one page (`print.html`): every lesson's body, made to live beside the
/// others. Each lesson's anchors get the lesson's name in front (`01-yerel-durum--state`), so
/// that two lessons' `#ozet` stay apart; links between lessons become links inside the page;
/// limitation notes keep their anchors (`#dr3`), which are unique in the course already; and
/// headings move one level down, under the lesson's title.
enum WholeCourse {
    /// The body of lesson `lesson` (its slug) for the one page; `lessonPages` are the site's
    /// lesson pages (`01-yerel-durum.html`), whose links now point inside the page.
    static func relinked(_ html: String, lesson: String, lessonPages: Set<String>) -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count + 1024)
        var rest = html[...]
        // Attributes that name an anchor; the page's own HTML writes them in double quotes, and
        // text never holds `="` unescaped.
        let attributes = [" id=\"", " href=\"", " aria-labelledby=\"", " aria-describedby=\""]
        while let found = attributes.compactMap({ attribute in rest.range(of: attribute).map { (attribute, $0) } })
            .min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            let (attribute, range) = found
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { break }
            let value = String(rest[..<end])
            rest = rest[end...]
            if attribute == " href=\"" {
                result += href(value, lesson: lesson, lessonPages: lessonPages)
            } else {
                result += value.split(separator: " ").map { anchor(String($0), lesson: lesson) }.joined(separator: " ")
            }
        }
        result += rest
        return demotingHeadings(result)
    }

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

    /// `<h2 ...>` is `<h3 ...>` and so on: the lesson's title is the page's `<h2>`.
    private static func demotingHeadings(_ html: String) -> String {
        var result = html
        for level in stride(from: 5, through: 1, by: -1) {
            for (from, to) in [("<h\(level)>", "<h\(level + 1)>"), ("<h\(level) ", "<h\(level + 1) "), ("</h\(level)>", "</h\(level + 1)>")] {
                result = result.replacingOccurrences(of: from, with: to)
            }
        }
        return result
    }
}
