import CourseFiles
import CourseModel
import Foundation

/// The links and images of a course, checked against its folder: a link to a lesson file goes
/// to that lesson's page; any other file inside the course folder is carried by the site at the
/// same path; what a reader could not follow is a warning at its line.
package enum LinkCheck {
    package struct Findings: Sendable, Equatable {
        package var diagnostics: [Diagnostic] = []
        /// Paths inside the course folder, each once, in the order the lessons first name them.
        package var files: [String] = []
    }

    /// Schemes cmark-gfm removes from a page's links (its safe mode).
    private static let unsafeSchemes: Set<String> = ["javascript", "vbscript", "file", "data"]

    /// What one relative target turned out to be.
    private enum Found: Equatable {
        case lesson
        case file(String)
        case missing
        case folder
        /// A named pipe, a device or a socket: never opened, never carried.
        case special(kind: String)
        case outside
        case hidden
    }

    /// - Parameters:
    ///   - folder: the course folder, absolute.
    ///   - displayFolder: the course folder as messages name it.
    ///   - lessonFiles: the names of the course's lesson files.
    package static func check(_ lessons: [Lesson], folder: String, displayFolder: String,
                              lessonFiles: Set<String>) -> Findings {
        var findings = Findings()
        // By bytes: two spellings of one name (see `ExactName`) are two files on disk.
        var known: [ExactName: Found] = [:]
        var listed: Set<ExactName> = []
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path

        for lesson in lessons {
            for link in lesson.links {
                let what = link.isImage ? "image" : "link"
                let here = lesson.location(line: link.line, column: link.column)
                let shown = link.destination
                switch link.target {
                case .web, .fragment:
                    continue
                case .rootPath:
                    findings.diagnostics.append(.warning(
                        .linkRootPath,
                        "\(what) '\(shown)' starts at the root of the web server, which the course cannot know; write it relative to the lesson",
                        at: here))
                case .unknownScheme(let scheme):
                    let why = unsafeSchemes.contains(scheme)
                        ? "'\(scheme):' addresses are taken off pages for safety"
                        : "'\(scheme):' is not an address a browser opens"
                    findings.diagnostics.append(.warning(
                        .linkSchemeUnknown,
                        "\(what) '\(shown)' goes nowhere: \(why); \(link.isImage ? "show an image file of the course or one at a web address" : "link a lesson file (02-name.md), a file of the course or a web address")",
                        at: here))
                case let .relative(path, _):
                    guard !path.isEmpty else { continue }
                    guard let inside = LinkTarget.coursePath(path) else {
                        findings.diagnostics.append(outside(what, shown, here))
                        continue
                    }
                    let found = known[ExactName(inside)] ?? classify(inside, folder: folder, root: root, lessonFiles: lessonFiles)
                    known[ExactName(inside)] = found
                    switch found {
                    case .lesson:
                        break
                    case .file(let file):
                        if listed.insert(ExactName(file)).inserted { findings.files.append(file) }
                    case .missing:
                        findings.diagnostics.append(.warning(
                            .linkTargetMissing,
                            "\(what) '\(shown)' points at nothing: \(displayPath(displayFolder, inside)) does not exist",
                            at: here))
                    case .folder:
                        findings.diagnostics.append(.warning(
                            .linkTargetMissing,
                            "\(what) '\(shown)' points at a folder; the site carries files only, so link a file in it",
                            at: here))
                    case .special(let kind):
                        findings.diagnostics.append(.warning(
                            .linkTargetMissing,
                            "\(what) '\(shown)' points at \(kind), not a regular file; the site carries regular files only, and coursebook does not open it",
                            at: here))
                    case .outside:
                        findings.diagnostics.append(outside(what, shown, here))
                    case .hidden:
                        findings.diagnostics.append(.warning(
                            .linkTargetOutside,
                            "\(what) '\(shown)' points at a hidden file or folder (a name starting with '.'); the site does not publish those",
                            at: here))
                    }
                }
            }
        }
        return findings
    }

    private static func outside(_ what: String, _ shown: String, _ here: SourceLocation) -> Diagnostic {
        .warning(.linkTargetOutside,
                 "\(what) '\(shown)' points outside the course folder; the site carries only files inside it",
                 at: here)
    }

    private static func classify(_ inside: String, folder: String, root: String, lessonFiles: Set<String>) -> Found {
        if lessonFiles.contains(inside) { return .lesson }
        if inside.isEmpty { return .folder }
        if inside.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { return .hidden }
        let path = folder + "/" + inside
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return .missing }
        // A symbolic link may lead out of the course: the site publishes only what lies inside.
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard real.hasPrefix(root + "/") else { return .outside }
        if isFolder.boolValue { return .folder }
        var info = stat()
        if stat(path, &info) == 0, let kind = FileReadFailure.kind(ofMode: info.st_mode) { return .special(kind: kind) }
        return .file(inside)
    }
}
