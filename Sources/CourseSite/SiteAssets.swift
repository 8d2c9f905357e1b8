import CourseFiles
import Foundation

/// The assets of a site (the stylesheet, the search page's script, any file of a templates
/// folder), each named by its content (`style.3f9a1c2b7d.css`), so that a reader's browser
/// never keeps an old one: a changed file is a new name. A stylesheet's `url(name)` of another
/// asset is rewritten to that asset's new name before the stylesheet itself is named.
struct SiteAssets: Sendable {
    /// The files, under `assets/`, in name order.
    private(set) var files: [SiteFile] = []
    /// The path in the site of each asset, by its name in the templates folder.
    private var paths: [String: String] = [:]

    init(_ assets: [String: [UInt8]]) {
        // Stylesheets name other assets, so those are named first.
        let ordered = assets.sorted { ($0.key.hasSuffix(".css") ? 1 : 0, $0.key) < ($1.key.hasSuffix(".css") ? 1 : 0, $1.key) }
        for (name, original) in ordered {
            var bytes = original
            if name.hasSuffix(".css") {
                let css = Self.minified(css: String(decoding: bytes, as: UTF8.self))
                bytes = Array(Self.rewritingURLs(in: css, paths: paths).utf8)
            }
            let path = "assets/" + Self.hashedName(name, SHA256.hex(bytes))
            paths[name] = path
            files.append(SiteFile(path: path, bytes: bytes))
        }
        files.sort { $0.path < $1.path }
    }

    /// Where the asset first named `name` is in the site, nil when there is no such asset.
    func href(_ name: String) -> String? { paths[name] }

    /// `style.css` with hash `3f9a...` is `style.3f9a1c2b7d.css`; a name without an extension
    /// gets the hash at its end.
    static func hashedName(_ name: String, _ hash: String) -> String {
        let short = hash.prefix(10)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name).\(short)" }
        return "\(name[..<dot]).\(short)\(name[dot...])"
    }

    /// A stylesheet as a browser needs it: without its comments (written for the people who
    /// change it), every run of white space one space, none around `{`, `}`, `;` and `>` nor after `:` and `,`. Quoted
    /// strings are kept as they are. A page loads its stylesheet: a third less to send.
    static func minified(css: String) -> String {
        var result = ""
        result.reserveCapacity(css.utf8.count)
        var characters = css.makeIterator()
        var pending: Character?
        var quote: Character?
        var space = false
        func next() -> Character? {
            if let held = pending { pending = nil; return held }
            return characters.next()
        }
        func append(_ character: Character) {
            // No space is needed after `:` or `,` (a space before `:` can start a selector's
            // pseudo-class, so that one stays), nor around `{`, `}`, `;` and `>`.
            if space, let last = result.last, !"{};:,>".contains(last), !"{};>".contains(character) { result.append(" ") }
            space = false
            result.append(character)
        }
        while let character = next() {
            if let open = quote {
                result.append(character)
                if character == "\\", let escaped = next() { result.append(escaped) } else if character == open { quote = nil }
                continue
            }
            if character == "/" {
                let following = next()
                if following == "*" {
                    var previous: Character = " "
                    while let inside = next(), !(previous == "*" && inside == "/") { previous = inside }
                    space = true
                    continue
                }
                pending = following
            }
            if character.isWhitespace { space = !result.isEmpty; continue }
            append(character)
            if character == "\"" || character == "'" { quote = character }
        }
        return result
    }

    /// `url(logo.svg)`, `url("logo.svg")` and `url('logo.svg')` of an asset, pointed at its new
    /// name (both sit in `assets/`).
    static func rewritingURLs(in css: String, paths: [String: String]) -> String {
        guard css.contains("url(") else { return css }
        var result = css
        for (name, path) in paths {
            let file = String(path.dropFirst("assets/".count))
            for quote in ["", "\"", "'"] {
                result = result.replacingOccurrences(of: "url(\(quote)\(name)\(quote))", with: "url(\(quote)\(file)\(quote))")
            }
        }
        return result
    }
}
