import Foundation

/// A link or an image in a lesson, where the author wrote it.
package struct LessonLink: Sendable, Equatable {
    /// The destination as cmark-gfm read it (entities and backslash escapes undone, reference
    /// links resolved).
    package var destination: String
    package var isImage: Bool
    package var line: Int
    package var column: Int

    package init(destination: String, isImage: Bool, line: Int, column: Int) {
        self.destination = destination
        self.isImage = isImage
        self.line = line
        self.column = column
    }

    /// What the destination points at.
    package var target: LinkTarget { LinkTarget(destination, isImage: isImage) }
}

/// Where a link goes, as far as its text tells.
package enum LinkTarget: Sendable, Equatable {
    /// A web address (`https:`, `http:`, `mailto:`, `tel:`) or, for an image, an inline
    /// `data:image/...`: the browser follows it as it is.
    case web
    /// `#part` of the same page.
    case fragment
    /// A file beside the lessons: `images/plan.png`, `02-kapsam.md#ortam`. The path is
    /// percent-decoded, without query or fragment.
    case relative(path: String, fragment: String?)
    /// `/images/plan.png`: from the root of wherever the site is served, which the course
    /// cannot know.
    case rootPath
    /// A link written for DocC: `<doc:Name>` or `[text](doc:Name#Section-Title)`, to the lesson
    /// that `Name` names (see `DocName`) and, with a fragment, to one of its headings. `name`
    /// is the last part of the path (`doc:TSPL/Name` names `Name`); empty for `doc:#Section`,
    /// a heading of the same lesson. Both percent-decoded.
    case doc(name: String, fragment: String?)
    /// A scheme a browser does not open or that cmark-gfm drops for safety (`javascript:`,
    /// `file:`, `doc:` on an image): the reader's click goes nowhere.
    case unknownScheme(String)

    /// Schemes a reader's browser follows.
    package static let webSchemes: Set<String> = ["http", "https", "mailto", "tel"]
    /// Inline images cmark-gfm lets through (its list of safe `data:` types).
    private static let imageDataPrefixes = ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"]

    package init(_ destination: String, isImage: Bool) {
        if destination.isEmpty || destination.hasPrefix("#") {
            self = .fragment
            return
        }
        if let scheme = Self.scheme(of: destination) {
            let lowered = scheme.lowercased()
            if Self.webSchemes.contains(lowered) {
                self = .web
            } else if lowered == "doc", !isImage {
                self = Self.doc(destination.dropFirst(scheme.count + 1))
            } else if isImage, Self.imageDataPrefixes.contains(where: { destination.lowercased().hasPrefix($0) }) {
                self = .web
            } else {
                self = .unknownScheme(lowered)
            }
            return
        }
        if destination.hasPrefix("//") {
            self = .web  // scheme-relative: a web address on whatever scheme the page uses
            return
        }
        if destination.hasPrefix("/") {
            self = .rootPath
            return
        }
        var rest = Substring(destination)
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") { rest = rest[..<question] }
        self = .relative(path: String(rest).removingPercentEncoding ?? String(rest), fragment: fragment)
    }

    /// `Name#Section` after `doc:`, or `//bundle/documentation/Book/Name`: DocC resolves the
    /// last part of the path among the catalog's pages.
    private static func doc(_ reference: Substring) -> LinkTarget {
        var path = reference
        var fragment: String?
        if let hash = path.firstIndex(of: "#") {
            let text = path[path.index(after: hash)...]
            fragment = text.removingPercentEncoding ?? String(text)
            path = path[..<hash]
        }
        if let question = path.firstIndex(of: "?") { path = path[..<question] }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return .doc(name: name.removingPercentEncoding ?? name, fragment: fragment)
    }

    /// The scheme of an absolute URI (RFC 3986: a letter, then letters, digits, `+`, `-`,
    /// `.`, up to the first `:`), or nil.
    static func scheme(of destination: String) -> String? {
        guard let colon = destination.firstIndex(of: ":") else { return nil }
        let candidate = destination[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(candidate)
    }
}

extension LinkTarget {
    /// A relative path as a path inside the course folder, `.` and `..` worked out
    /// (`./images/../02-a.md` → `02-a.md`); nil when it climbs out of the folder.
    package static func coursePath(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}

extension Lesson {
    /// The page a lesson file becomes on the site: `02-kapsam.md` → `02-kapsam.html`.
    package static func pageName(ofFile fileName: String) -> String {
        (fileName.hasSuffix(".md") ? String(fileName.dropLast(3)) : fileName) + ".html"
    }

    /// The page's name as a link writes it: `#`, `?`, `%`, spaces and the other ASCII that a
    /// URL path cannot hold percent-encoded (`02-c#.md` → `02-c%23.html`), so that a browser
    /// opens the page instead of reading a fragment or a query.
    package static func pageHref(ofFile fileName: String) -> String {
        var href = ""
        for scalar in pageName(ofFile: fileName).unicodeScalars {
            if scalar.isASCII, !CharacterSet.urlPathAllowed.contains(scalar) || scalar == "/" {
                href += String(format: "%%%02X", scalar.value)
            } else {
                href.unicodeScalars.append(scalar)
            }
        }
        return href
    }
}
