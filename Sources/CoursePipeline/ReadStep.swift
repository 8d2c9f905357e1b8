import CourseChecking
internal import CourseFiles
internal import CourseModel
internal import CourseSite
import Foundation
import LessonParsing

/// The read step: the cache's folder made ready, the course read (every lesson parsed once),
/// the lessons a check was given found in it, and for a site what it needs before anything
/// runs (the words of its language, the templates, the destination), so that a build that
/// cannot be written fails before its scenarios cost anything.
extension Pipeline {
    func read(_ context: inout PipelineContext) throws(PipelineError) {
        try Self.prepareCache(context.options)
        context.loaded = try load(context.options.course, forPages: context.forPages, unsaved: context.unsaved)
        if context.cancellation?.isCancelled == true { throw Self.cancelled }
        let course = context.loaded.course
        context.scope = try scope(of: course, lessons: context.lessons, shard: context.shard)
        context.cacheFolder = Self.cacheFolder(context.options, course: course)
        if context.forPages {
            context.sitePlan = try prepare(course, out: context.checksDestination ? context.out : nil, cacheFolder: context.cacheFolder)
        }
    }

    /// Reads `course.json`, the core files and every lesson, each parsed once.
    package func load(_ folder: String, forPages: Bool, unsaved: [String: [UInt8]] = [:]) throws(PipelineError) -> LoadedCourse {
        do {
            return try CourseLoader.load(folder: folder, counts: counts, forPages: forPages, unsaved: unsaved)
        } catch {
            throw PipelineError(path: error.diagnostic.location?.file, status: .courseUnreadable,
                                diagnostic: error.diagnostic)
        }
    }

    /// What `check LESSON.md ...` and `--shard K/N` leave to this run: the lessons named (each
    /// must be a lesson file of the course), the share of the scenarios.
    func scope(of course: Course, lessons: [String], shard: Shard?) throws(PipelineError) -> CheckScope {
        guard !lessons.isEmpty else { return CheckScope(shard: shard) }
        var chosen = Set<Int>()
        for given in lessons {
            let name = URL(fileURLWithPath: given).lastPathComponent
            guard let index = course.lessons.firstIndex(where: { $0.fileName == name }) else {
                let why = CourseLoader.isLessonFileName(name)
                    ? "no such lesson in the course \(course.folder)"
                    : "not a lesson file: lessons are named NN-slug.md (01-intro.md ...)"
                throw PipelineError(path: given, status: .courseUnreadable,
                                    diagnostic: .error(.courseUnreadable, why, at: SourceLocation(file: given, line: 0, column: 0)))
            }
            chosen.insert(index)
        }
        return CheckScope(lessons: chosen, shard: shard,
                          lessonPaths: chosen.sorted().map { course.lessons[$0].path })
    }

    /// What a site needs before anything runs.
    struct SitePlan: Sendable {
        var words: SiteWords
        var templates: TemplateSet
        /// Warnings for the check's report.
        var findings: [Diagnostic]
        /// The linked files the site carries: those at a path the site does not use itself.
        var linkedFiles: [String]
    }

    func prepare(_ course: Course, out: String?, cacheFolder: String? = nil) throws(PipelineError) -> SitePlan {
        var findings: [Diagnostic] = []
        let words: SiteWords
        if let builtIn = SiteWords.forLanguage(course.config.language) {
            words = builtIn
        } else {
            findings.append(.warning(
                .languageWords,
                "no built-in words for language '\(course.config.language)'; pages use English for the words the tool adds",
                at: SourceLocation(file: course.configPath, line: 0)))
            words = .english
        }

        let templates: TemplateSet
        do {
            if let folder = course.config.templates {
                templates = try TemplateSet.load(
                    folder: URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: course.folderPath + "/"))
                        .standardizedFileURL.path,
                    displayFolder: displayPath(course.folder, folder),
                    trustedRoot: Confinement.trustedRoot(ofCourse: course.folderPath))
            } else {
                templates = try TemplateSet.builtIn()
            }
        } catch {
            throw PipelineError(path: error.template, status: .templateInvalid,
                                diagnostic: .error(.templateInvalid, error.message,
                                                   at: SourceLocation(file: error.template, line: error.line)))
        }

        if let out {
            do {
                try SiteWriter.validate(destination: out, course: course, cacheFolder: cacheFolder)
                // What a killed build left is put right now, so that even a build whose check
                // fails leaves the site in place.
                try SiteWriter.recover(destination: out)
            } catch {
                throw siteError(error)
            }
        }
        var linkedFiles: [String] = []
        for file in course.linkedFiles {
            guard LinkedFiles.isTaken(file, by: course) else {
                linkedFiles.append(file)
                continue
            }
            let place = course.lessons.lazy.compactMap { lesson in
                lesson.links.first { link in
                    if case let .relative(path, _) = link.target { return LinkTarget.coursePath(path) == file }
                    return false
                }.map { lesson.location(line: $0.line, column: $0.column) }
            }.first
            findings.append(.warning(
                .linkTargetReserved,
                "'\(file)' is where the site keeps a file of its own, so the site cannot carry it; move or rename it",
                at: place))
        }
        return SitePlan(words: words, templates: templates, findings: findings, linkedFiles: linkedFiles)
    }

    /// `--cache-dir DIR` must be a folder the cache can live in: made now when missing, and an
    /// error (a wrong command line) when a file is in the way or it cannot be made. Results
    /// that could not be kept would silently make every run compile everything.
    static func prepareCache(_ options: SharedOptions) throws(PipelineError) {
        guard case .folder(let folder) = options.cache else { return }
        func refuse(_ why: String) -> PipelineError {
            PipelineError(path: folder, status: .usage,
                          diagnostic: .error(.cacheUnusable, "--cache-dir \(folder): \(why)", at: nil))
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw refuse("this is a file; the cache needs a folder") }
            return
        }
        // The first folder on the way that cannot be made says why.
        var path = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            path += (path.isEmpty || path == "/" ? "" : "/") + part
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw refuse("cannot make the folder: \(path) is a file") }
                continue
            }
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                throw refuse("cannot make the folder \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Where results are kept between runs; nil with `--no-cache`.
    static func cacheFolder(_ options: SharedOptions, course: Course) -> String? {
        switch options.cache {
        case .inCourse: course.folderPath + "/.coursebook-cache"
        case .folder(let folder): URL(fileURLWithPath: folder).standardizedFileURL.path
        case .none: nil
        }
    }
}
