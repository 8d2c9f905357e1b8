import BackgroundWork
import CourseFiles
import CourseModel
import Foundation

/// The course cannot be read at all: no `course.json`, a core file missing, a lesson that is
/// not UTF-8 ... The command stops with exit status 2 and this one message.
package struct CourseReadError: Error, Equatable, Sendable {
    package var diagnostic: Diagnostic

    package init(_ summary: String, file: String, line: Int? = nil, column: Int = 1) {
        diagnostic = .error(.courseUnreadable, summary,
                            at: SourceLocation(file: file, line: line ?? 0, column: line == nil ? 0 : column))
    }
}

/// A course as read from its folder: the model, each lesson's parsed document (in lesson
/// order, for the site; none when the loader was told no pages will be made), and the findings
/// about the lessons' structure.
package struct LoadedCourse: Sendable {
    package var course: Course
    package var documents: [LessonDocument]
    package var diagnostics: [Diagnostic]

    package init(course: Course, documents: [LessonDocument], diagnostics: [Diagnostic]) {
        self.course = course
        self.documents = documents
        self.diagnostics = diagnostics
    }
}

/// Reads a course folder into a `Course`: `course.json`, the core files, and every lesson file
/// (`NN-slug.md`, in order of name), each parsed once by cmark-gfm, the lessons on every core at
/// once. A course that cannot be read throws.
package enum CourseLoader {
    /// - Parameters:
    ///   - forPages: whether the lessons' parsed documents are kept for a site. A check needs
    ///     only what was read from them, and lets each go as soon as it is read, so that a
    ///     large course is never whole in memory as trees.
    ///   - unsaved: lesson texts an editor holds and has not saved, by file name
    ///     (`01-intro.md`): read instead of the file (a lesson not yet on disk too), so that
    ///     what the author types is checked without being written.
    package static func load(folder: String, counts: WorkCounts = WorkCounts(), forPages: Bool = true,
                             unsaved: [String: [UInt8]] = [:]) throws(CourseReadError) -> LoadedCourse {
        let display = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder), isFolder.boolValue else {
            throw CourseReadError("no course folder here", file: display)
        }
        let place = CoursePlace(display: display, absolute: absolute)
        let configData = try readConfig(folder: absolute, display: place.config)
        let config = try CourseConfigReader.read(configData, file: place.config)
        let (coreFiles, coreFindings) = try readCore(config.core, of: place, configData: configData)
        let names = try lessonNames(in: place, unsaved: unsaved)
        try checkNamedLessons(config, names: names, configData: configData, file: place.config)

        let lessonPages = Dictionary(uniqueKeysWithValues: names.map { ($0, Lesson.pageHref(ofFile: $0)) })
        let courseReal = Confinement.resolved(absolute) ?? absolute
        let read = names.concurrentMap { name in
            readLesson(name, of: place, resolvedFolder: courseReal, unsaved: unsaved[name]).map { bytes, lesson in
                let document = LessonMarkdown.parse(bytes.text, typography: config.typography, lessonPages: lessonPages,
                                                    counts: counts)
                var (assembled, findings) = LessonAssembly.assemble(
                    fileName: name, path: lesson.shown, source: SourceText(bytes.bytes), elements: document.elements)
                assembled.realPath = lesson.real
                return (assembled, forPages ? document : nil, findings)
            }
        }
        var lessons: [Lesson] = []
        var documents: [LessonDocument] = []
        var diagnostics: [Diagnostic] = []
        for result in read {
            switch result {
            case .failure(let error): throw error
            case .success(let (lesson, document, findings)):
                lessons.append(lesson)
                if let document { documents.append(document) }
                diagnostics += findings
            }
        }
        let links = LinkCheck.check(lessons, folder: absolute, displayFolder: display, lessonFiles: Set(names))
        return LoadedCourse(
            course: Course(folder: display, folderPath: absolute, config: config, coreFiles: coreFiles,
                           lessons: lessons, linkedFiles: links.files, doccImages: links.doccImages),
            documents: documents, diagnostics: coreFindings + diagnostics + links.diagnostics)
    }

    /// The course folder as messages name it and as an absolute path.
    struct CoursePlace {
        var display: String
        var absolute: String
        /// `course.json` as messages name it.
        var config: String { displayPath(display, "course.json") }
    }

    /// The core files `course.json` lists, read, with what the bidi rule finds in them. Core
    /// files may lie beside the course, in its repository, but nowhere else.
    static func readCore(_ listed: [String], of place: CoursePlace,
                         configData: [UInt8]) throws(CourseReadError) -> (files: [CoreFile], findings: [Diagnostic]) {
        var coreFiles: [CoreFile] = []
        var findings: [Diagnostic] = []
        let trusted = Confinement.trustedRoot(ofCourse: place.absolute)
        // By bytes: two spellings of one name are two entries (see `ExactName`).
        var seen: [ExactName: String] = [:]
        var occurrences: [ExactName: Int] = [:]
        for relative in listed {
            let path = URL(fileURLWithPath: relative, relativeTo: URL(fileURLWithPath: place.absolute + "/"))
                .standardizedFileURL.path
            let shown = displayPath(place.display, relative)
            occurrences[ExactName(relative), default: 0] += 1
            let line = CourseConfigReader.line(of: relative, in: Data(configData), occurrence: occurrences[ExactName(relative)]!)
            func refuse(_ why: String) -> CourseReadError {
                CourseReadError("core file '\(relative)' \(why)", file: place.config, line: line)
            }
            let (real, bytes) = try readCoreFile(path, shown: shown, trusted: trusted, refuse: refuse)
            // The same file twice (`X` and `./X`, or through a link) would be compiled twice,
            // and every scenario would fail with the compiler's redeclaration errors.
            if let first = seen[ExactName(real)] {
                throw refuse("is listed twice: '\(first)' is the same file; list it once")
            }
            seen[ExactName(real)] = relative
            let name = URL(fileURLWithPath: path).lastPathComponent
            if let other = coreFiles.firstIndex(where: { $0.name == name }) {
                throw refuse("has the same file name as '\(listed[other])'; the compiler needs core files with different names")
            }
            let text = try decodeUTF8(bytes, file: shown)
            coreFiles.append(CoreFile(name: name, path: path, displayPath: shown, text: text))
            findings += BidiControlRule.findings(inCoreFile: text, path: shown)
        }
        return (coreFiles, findings)
    }

    /// One core file's real path and bytes: a regular file inside the course's repository.
    private static func readCoreFile(_ path: String, shown: String, trusted: String,
                                     refuse: (String) -> CourseReadError) throws(CourseReadError) -> (real: String, bytes: [UInt8]) {
        var info = stat()
        guard stat(path, &info) == 0, let real = Confinement.resolved(path) else {
            throw refuse(errno == ENOENT || errno == ENOTDIR ? "does not exist (\(shown))"
                         : "cannot be read (\(shown)): \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("is a folder, not a Swift file (\(shown))")
        default: throw refuse("is not a regular file but \(FileReadFailure.kind(ofMode: info.st_mode) ?? "something else") (\(shown))")
        }
        guard Confinement.isInside(real, trusted) else {
            throw refuse("lies outside the course's repository (\(trusted)); a course reads only its own files")
        }
        switch readRegularFile(atPath: real) {
        case .success(let read): return (real, read)
        case .failure(let failure): throw refuse("cannot be read (\(shown)): \(failure)")
        }
    }

    /// The lesson files of the course (`NN-slug.md`, and those an editor holds unsaved), in
    /// order of name by bytes; none, a control character in a name, or two names Unicode takes
    /// for one, is an error.
    static func lessonNames(in place: CoursePlace, unsaved: [String: [UInt8]]) throws(CourseReadError) -> [String] {
        let names: [String]
        do {
            let onDisk = try FileManager.default.contentsOfDirectory(atPath: place.absolute).filter(isLessonFileName)
            // By bytes (see `ExactName`): a `Set` of strings would keep one of two names that
            // Unicode takes for one, and lose a lesson without a word.
            var seen = Set<ExactName>()
            names = (onDisk + unsaved.keys.filter(isLessonFileName)).filter { seen.insert(ExactName($0)).inserted }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } catch {
            throw CourseReadError("cannot list the course folder: \(error.localizedDescription)", file: place.display)
        }
        guard !names.isEmpty else {
            throw CourseReadError("no lesson files: lessons are named NN-slug.md (01-intro.md ...)", file: place.display)
        }
        if let strange = names.first(where: Confinement.hasControlCharacter) {
            throw CourseReadError("a lesson file's name holds a control character (\(escapingControls(strange))); rename it",
                                  file: place.display)
        }
        // Two names that Swift's `==` takes for one (`01-café.md` with a composed and with a
        // decomposed `é`, which git keeps as two files) would be one lesson to every table the
        // tool keeps by name.
        if let (first, second) = namesEqualUnderNormalization(names) {
            throw CourseReadError(
                "two lesson files have names that are equal under Unicode normalization, \(first) (\(spelledOut(first))) and \(second) (\(spelledOut(second))); Swift and most tools take them for one file: rename one",
                file: place.display)
        }
        return names
    }

    /// The glossary and the labelled pages `course.json` names are lessons of the course.
    static func checkNamedLessons(_ config: CourseConfig, names: [String], configData: [UInt8],
                                  file: String) throws(CourseReadError) {
        if let glossary = config.glossary, !names.contains(glossary) {
            throw CourseReadError("'glossary' names '\(glossary)', which is not a lesson file of the course (lessons are named NN-slug.md)",
                                  file: file, line: CourseConfigReader.line(of: "glossary", in: Data(configData)))
        }
        for labelled in config.labels.keys.sorted() where !names.contains(labelled) {
            throw CourseReadError("'labels' names '\(labelled)', which is not a lesson file of the course (lessons are named NN-slug.md)",
                                  file: file, line: CourseConfigReader.line(of: labelled, in: Data(configData)))
        }
    }

    /// A lesson file's bytes and text (or the editor's unsaved bytes), with its real path and
    /// its name as messages give it. A lesson may be a link to another file of the course,
    /// never to one outside it; only a link needs resolving: any other name in the (resolved)
    /// folder is itself.
    static func readLesson(_ name: String, of place: CoursePlace, resolvedFolder courseReal: String,
                           unsaved: [UInt8]?) -> Result<((bytes: [UInt8], text: String), (shown: String, real: String)), CourseReadError> {
        let shown = displayPath(place.display, name)
        var info = stat()
        let path = place.absolute + "/" + name
        let isLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        guard let real = isLink ? Confinement.resolved(path) : courseReal + "/" + name else {
            return .failure(CourseReadError("the lesson is a symbolic link to nothing", file: shown))
        }
        guard Confinement.isInside(real, courseReal) else {
            return .failure(CourseReadError("the lesson is a symbolic link to a file outside the course folder (\(real))", file: shown))
        }
        let bytes: [UInt8]
        switch unsaved.map({ .success($0) }) ?? readRegularFile(atPath: real) {
        case .success(let read): bytes = read
        case .failure(.notRegular(let kind)):
            return .failure(CourseReadError("the lesson is not a regular file but \(kind); a lesson is a plain Markdown file", file: shown))
        case .failure(let failure):
            return .failure(CourseReadError("cannot read the lesson file: \(failure)", file: shown))
        }
        do throws(CourseReadError) {
            return .success(((bytes, try decodeUTF8(bytes, file: shown)), (shown, real)))
        } catch {
            return .failure(error)
        }
    }

    /// The bytes of the course's `course.json` (`folder` absolute, `display` as messages name
    /// the file): missing, not a regular file (a pipe is never opened, so it cannot hold the
    /// command) and unreadable are three different messages.
    package static func readConfig(folder: String, display: String) throws(CourseReadError) -> [UInt8] {
        switch readRegularFile(atPath: folder + "/course.json") {
        case .success(let bytes):
            return bytes
        case .failure(.missing):
            throw CourseReadError("no course.json: a course folder needs one (title, language; core when scenarios share code)", file: display)
        case .failure(.notRegular(let kind)):
            throw CourseReadError("course.json is not a regular file but \(kind); it must be a plain JSON file", file: display)
        case .failure(let failure):
            throw CourseReadError("cannot read course.json: \(failure)", file: display)
        }
    }

    /// `NN-slug.md`: digits, a dash, a name, `.md`.
    package static func isLessonFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".md"), !name.hasPrefix(".") else { return false }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        let rest = name.dropFirst(digits.count)
        return !digits.isEmpty && rest.hasPrefix("-") && rest.count > "-.md".count
    }

    /// The text of a file that must be UTF-8, or an error at the line of its first bad byte.
    static func decodeUTF8(_ bytes: [UInt8], file: String) throws(CourseReadError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // Find the first byte that does not decode, to name its line.
        var line = 1, lineStart = 0, offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        decoding: while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" { line += 1; lineStart = offset }
            case .emptyInput:
                break decoding
            case .error:
                throw CourseReadError("not UTF-8: byte \(before + 1) (line \(line), column \(before - lineStart + 1)) does not decode; save the file as UTF-8",
                                      file: file, line: line, column: before - lineStart + 1)
            }
        }
        throw CourseReadError("not UTF-8; save the file as UTF-8", file: file)
    }
}
