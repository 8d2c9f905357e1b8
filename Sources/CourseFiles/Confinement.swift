import Foundation

/// Which files a course may read: its own folder, and for its core files and templates the
/// repository that holds it. Paths are compared after every symbolic link is resolved, so a
/// link cannot lead a course to a key, a `.netrc` or `/proc/self/environ`.
package enum Confinement {
    /// `path` with every symbolic link resolved, or nil when it does not exist.
    package static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Whether `path` (resolved) is `root` (resolved) or lies inside it.
    package static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The folder a course may read its core files and templates from: the nearest folder at
    /// or above the course that holds `.git`, else the course folder itself (resolved).
    package static func trustedRoot(ofCourse folder: String) -> String {
        let course = resolved(folder) ?? folder
        var url = URL(fileURLWithPath: course)
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(".git").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return course
    }

    /// Whether `name` holds a character that a terminal or a log would act on (a line end, an
    /// escape): such a file name is refused rather than printed.
    package static func hasControlCharacter(_ name: String) -> Bool {
        name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
