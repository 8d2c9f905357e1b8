import CourseFiles
import CourseModel
import Foundation

/// The links and images of a course, checked against its folder: a link to a lesson file goes
/// to that lesson's page, and so does a `doc:` link (DocC's) that names a lesson and heading;
/// any other file inside the course folder is carried by the site at the same path, and so are
/// the files of an image named the DocC way; what a reader could not follow is a warning at its
/// line.
package enum LinkCheck {
    package struct Findings: Sendable, Equatable {
        package var diagnostics: [Diagnostic] = []
        /// Paths inside the course folder, each once, in the order the lessons first name them.
        package var files: [String] = []
        /// The images named the DocC way that the course has, by name.
        package var doccImages: [String: DocCImage] = [:]
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
        var walk = Walk(lessons: lessons, folder: folder, displayFolder: displayFolder, lessonFiles: lessonFiles)
        for (lessonIndex, lesson) in lessons.enumerated() {
            for link in lesson.links { walk.visit(link, in: lesson, at: lessonIndex) }
        }
        return walk.findings
    }

    /// The links of the lessons in turn, and what is known of the targets seen so far.
    private struct Walk {
        let lessons: [Lesson]
        let folder: String
        let displayFolder: String
        let lessonFiles: Set<String>
        let root: String
        let docLinks: DocLinks
        var findings = Findings()
        /// By bytes: two spellings of one name (see `ExactName`) are two files on disk.
        var known: [ExactName: Found] = [:]
        var listed: Set<ExactName> = []
        /// Walked only when a lesson names an image the DocC way.
        var imageIndex: DocCImageIndex?
        var imagesSeen: [String: (image: DocCImage, ambiguous: [[String]])?] = [:]

        init(lessons: [Lesson], folder: String, displayFolder: String, lessonFiles: Set<String>) {
            self.lessons = lessons
            self.folder = folder
            self.displayFolder = displayFolder
            self.lessonFiles = lessonFiles
            root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            docLinks = DocLinks(lessons)
        }

        mutating func visit(_ link: LessonLink, in lesson: Lesson, at lessonIndex: Int) {
            let what = link.isImage ? "image" : "link"
            let here = lesson.location(line: link.line, column: link.column)
            let shown = link.destination
            switch link.target {
            case .web, .fragment:
                return
            case let .doc(name, fragment):
                findings.diagnostics += docLinkFindings(shown, name: name, fragment: fragment, from: lessonIndex,
                                                        lessons: lessons, docLinks: docLinks, at: here)
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
                guard !path.isEmpty else { return }
                guard let inside = LinkTarget.coursePath(path) else {
                    findings.diagnostics.append(outside(what, shown, here))
                    return
                }
                let found = known[ExactName(inside)] ?? classify(inside, folder: folder, root: root, lessonFiles: lessonFiles)
                known[ExactName(inside)] = found
                if link.isImage, found == .missing, DocCImage.isName(inside) {
                    doccImage(inside, shown: shown, at: here)
                } else {
                    relative(inside, found: found, what: what, shown: shown, at: here)
                }
            }
        }

        /// `![](remainderInteger)`: DocC's name of an image somewhere in the course.
        mutating func doccImage(_ inside: String, shown: String, at here: SourceLocation) {
            if imagesSeen[inside] == nil {
                if imageIndex == nil { imageIndex = DocCImageIndex(folder: folder, root: root) }
                imagesSeen[inside] = .some(imageIndex!.image(named: inside).map { [folder] found in
                    (measured(found.image, folder: folder), found.ambiguous)
                })
            }
            guard let (image, ambiguous) = imagesSeen[inside]! else {
                findings.diagnostics.append(.warning(
                    .linkTargetMissing,
                    "image '\(shown)' points at nothing: \(displayPath(displayFolder, inside)) does not exist, and no image in the course's folders has that name (\(inside).png, \(inside)@2x.png, \(inside)~dark.png ...)",
                    at: here))
                return
            }
            findings.doccImages[inside] = image
            for variant in image.variants where listed.insert(ExactName(variant.path)).inserted {
                findings.files.append(variant.path)
            }
            for files in ambiguous {
                findings.diagnostics.append(.warning(
                    .linkTargetAmbiguous,
                    "image '\(shown)' has the same variant twice: \(files.map { displayPath(displayFolder, $0) }.joined(separator: " and ")); DocC needs an image's name to be unique in the course, so the site shows the first",
                    at: here))
            }
        }

        /// A link to a path inside the course folder: a lesson, a file the site carries, or a
        /// warning at its line.
        mutating func relative(_ inside: String, found: Found, what: String, shown: String, at here: SourceLocation) {
            func warn(_ id: DiagnosticID, _ message: String) {
                findings.diagnostics.append(.warning(id, message, at: here))
            }
            switch found {
            case .lesson:
                break
            case .file(let file):
                if listed.insert(ExactName(file)).inserted { findings.files.append(file) }
            case .missing:
                warn(.linkTargetMissing, "\(what) '\(shown)' points at nothing: \(displayPath(displayFolder, inside)) does not exist")
            case .folder:
                warn(.linkTargetMissing, "\(what) '\(shown)' points at a folder; the site carries files only, so link a file in it")
            case .special(let kind):
                warn(.linkTargetMissing, "\(what) '\(shown)' points at \(kind), not a regular file; the site carries regular files only, and coursebook does not open it")
            case .outside:
                findings.diagnostics.append(outside(what, shown, here))
            case .hidden:
                warn(.linkTargetOutside, "\(what) '\(shown)' points at a hidden file or folder (a name starting with '.'); the site does not publish those")
            }
        }
    }

    /// What is wrong with a `doc:` link, if anything: it names no lesson, or no heading of it, or
    /// two lessons whose names DocC would not tell apart.
    private static func docLinkFindings(_ shown: String, name: String, fragment: String?, from: Int,
                                        lessons: [Lesson], docLinks: DocLinks, at here: SourceLocation) -> [Diagnostic] {
        switch docLinks.resolve(name: name, fragment: fragment, from: from) {
        case .noLesson:
            let file = name.isEmpty ? "" : " (NN-\(kebabCase(name)).md)"
            return [.warning(
                .linkTargetMissing,
                "link '\(shown)' names no lesson: a doc: link names a lesson by its file name without NN- and .md, case and dashes aside, and no lesson file is named so\(file)",
                at: here)]
        case .noHeading(let lesson):
            return [.warning(
                .linkTargetMissing,
                "link '\(shown)' names no heading of \(lessons[lesson].fileName): none of its headings reads '\(fragment ?? "")' (compared by letters and digits, case aside)",
                at: here)]
        case .lesson(let lesson), .heading(let lesson, _):
            let named = name.isEmpty ? [lesson] : docLinks.lessons(named: name)
            guard named.count > 1 else { return [] }
            return [.warning(
                .linkTargetAmbiguous,
                "link '\(shown)' could name \(named.map { lessons[$0].fileName }.joined(separator: " or ")); it goes to the first: rename one of them",
                at: here)]
        }
    }

    /// `SummaryOfTheGrammar` as a lesson's file name would write it: `summary-of-the-grammar`.
    static func kebabCase(_ name: String) -> String {
        var result = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { result += "-" }
            }
            result += character.lowercased()
        }
        return result
    }

    /// The image with each variant's size in pixels, from its file's first bytes.
    private static func measured(_ image: DocCImage, folder: String) -> DocCImage {
        var image = image
        for index in image.variants.indices {
            guard let handle = FileHandle(forReadingAtPath: folder + "/" + image.variants[index].path) else { continue }
            defer { try? handle.close() }
            // A JPEG's frame header stands after its metadata, which rarely fills 64 KiB.
            let head = (try? handle.read(upToCount: 65_536)) ?? Data()
            image.variants[index].pixelSize = PixelSize.of(Array(head))
        }
        return image
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
