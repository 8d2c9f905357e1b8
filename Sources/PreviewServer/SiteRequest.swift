import CourseFiles
import Foundation

/// Where a request's path leads inside a site folder: a file of the site, or nowhere. The
/// path is taken apart by `/`; an empty part or `.` is skipped, and any `..`, a hidden name
/// (`.coursebook-site`, `.git`), a NUL or a backslash makes it lead nowhere, as does a file
/// that, with every symbolic link resolved, lies outside the folder. A folder leads to its
/// `index.html`.
package enum SiteRequest {
    package static func file(for path: String, in root: String) -> String? {
        guard let rootReal = Confinement.resolved(root) else { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            guard part != "..", !part.hasPrefix("."), !part.contains("\0"), !part.contains("\\") else { return nil }
            parts.append(part)
        }
        var candidate = rootReal + (parts.isEmpty ? "" : "/" + parts.joined(separator: "/"))
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { candidate += "/index.html" }
        guard let real = Confinement.resolved(candidate), Confinement.isInside(real, rootReal) else { return nil }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return real
    }

    /// The media type of a file, by its name's ending.
    package static func contentType(of path: String) -> String {
        let ending = (path as NSString).pathExtension.lowercased()
        switch ending {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "ico": return "image/x-icon"
        case "txt", "md", "swift": return "text/plain; charset=utf-8"
        case "pdf": return "application/pdf"
        case "wasm": return "application/wasm"
        case "woff": return "font/woff"
        case "woff2": return "font/woff2"
        case "xml": return "application/xml"
        case "csv": return "text/csv; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
