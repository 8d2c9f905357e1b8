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
            if name.hasSuffix(".css") { bytes = Array(Self.rewritingURLs(in: String(decoding: bytes, as: UTF8.self), paths: paths).utf8) }
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
