internal import CourseFiles
internal import CourseModel
package import CoursePipeline
import Foundation
import LessonParsing

/// What `watch` and `serve` look at, and which changes call for a new run: any file of the
/// course folder (lessons, `course.json`, images) that is not hidden (`.coursebook-cache`, an
/// editor's `.swp`) or a backup (`name~`), the core files, and the templates folder. The site
/// folder, when it lies inside the course, is the watch's own output and never a change.
package struct WatchPlan: Sendable, Equatable {
    /// The course folder, every link resolved.
    package var course: String
    /// The course folder as the user named it, for messages.
    package var courseDisplay: String
    /// The core files (resolved), each with the path messages show.
    package var coreFiles: [String: String]
    /// The templates folder (resolved), when the course names one.
    package var templates: String?
    /// The site folder (resolved as far as it exists), whose changes are the watch's own.
    package var out: String?

    package init(course: String, courseDisplay: String, coreFiles: [String: String] = [:],
                 templates: String? = nil, out: String? = nil) {
        self.course = course
        self.courseDisplay = courseDisplay
        self.coreFiles = coreFiles
        self.templates = templates
        self.out = out
    }

    /// The plan of the course in `folder`, from its `course.json`; when that cannot be read,
    /// the core files and templates of `previous` are still watched, so that fixing either
    /// starts a run.
    package static func read(folder: String, out: String?, previous: WatchPlan?) -> WatchPlan {
        let absolute = resolvedPath(folder)
        var plan = WatchPlan(course: absolute, courseDisplay: folder, out: out.map(resolvedPath))
        guard let bytes = readFile(atPath: absolute + "/course.json"),
              let config = try? CourseConfigReader.read(bytes, file: "course.json") else {
            plan.coreFiles = previous?.coreFiles ?? [:]
            plan.templates = previous?.templates
            return plan
        }
        for relative in config.core {
            plan.coreFiles[resolvedPath(relative.hasPrefix("/") ? relative : absolute + "/" + relative)] = displayPath(folder, relative)
        }
        plan.templates = config.templates.map { resolvedPath($0.hasPrefix("/") ? $0 : absolute + "/" + $0) }
        return plan
    }

    /// Whether a change to `path` (as the watch reports it: a watched folder's path and a
    /// name) calls for a new run.
    package func isRelevant(_ path: String) -> Bool {
        if coreFiles[path] != nil { return true }
        if let out, Confinement.isInside(path, out) { return false }
        for root in [course] + (templates.map { [$0] } ?? []) where Confinement.isInside(path, root) {
            let relative = path.dropFirst(root.count).split(separator: "/")
            return relative.allSatisfy { !$0.hasPrefix(".") } && !(relative.last.map(Self.isScratchName) ?? false)
        }
        return false
    }

    /// An editor's backup or scratch file: `name~`, `#name#`, vim's `4913` probe.
    static func isScratchName(_ name: Substring) -> Bool {
        name.hasSuffix("~") || name.hasPrefix("#") || name == "4913" || name.hasSuffix(".swp") || name.hasSuffix(".tmp")
    }

    /// A changed path as messages show it.
    package func display(_ path: String) -> String {
        if let shown = coreFiles[path] { return shown }
        if Confinement.isInside(path, course) {
            let relative = String(path.dropFirst(course.count).drop { $0 == "/" })
            return relative.isEmpty ? courseDisplay : displayPath(courseDisplay, relative)
        }
        return path
    }

    /// The folders to watch: the course folder and its subfolders (not hidden ones, not the
    /// site), the templates folder and its subfolders, and the folder of each core file.
    package func folders() -> Set<String> {
        var found: Set<String> = []
        for root in [course] + (templates.map { [$0] } ?? []) { collect(root, into: &found, depth: 0) }
        for core in coreFiles.keys { found.insert((core as NSString).deletingLastPathComponent) }
        return found
    }

    private func collect(_ folder: String, into found: inout Set<String>, depth: Int) {
        guard depth < 16, found.count < 4096, !found.contains(folder) else { return }
        if let out, Confinement.isInside(folder, out) { return }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return }
        found.insert(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = folder + "/" + name
            var childIsFolder: ObjCBool = false
            // Subfolders only, and none reached through a link (it may lead anywhere).
            guard FileManager.default.fileExists(atPath: child, isDirectory: &childIsFolder), childIsFolder.boolValue,
                  (try? FileManager.default.destinationOfSymbolicLink(atPath: child)) == nil else { continue }
            collect(child, into: &found, depth: depth + 1)
        }
    }

    /// `path` absolute, with every link resolved as far as the path exists.
    static func resolvedPath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let real = Confinement.resolved(absolute) { return real }
        let parent = (absolute as NSString).deletingLastPathComponent
        guard parent != absolute, !parent.isEmpty else { return absolute }
        return (resolvedPath(parent) as NSString).appendingPathComponent((absolute as NSString).lastPathComponent)
    }
}

/// `coursebook watch`: a check (or, with a site folder, a build) now and again after every
/// change the plan finds relevant, each run a `Round` handed to the caller to print. The result
/// cache makes a run after one edit recompile only the scenarios that changed.
package struct CourseWatch: Sendable {
    /// One run: what changed since the last one (empty for the first), and what came of it.
    package struct Round: Sendable {
        package var number: Int
        package var changed: [String]
        package var outcome: Outcome
    }

    package enum Outcome: Sendable {
        /// A check without a site to write.
        case checked(Pipeline.Checked)
        /// A build that wrote the site.
        case built(Pipeline.Built)
        /// The run stopped: a failed check (with what it found), a course that cannot be read ...
        case failed(PipelineError)
    }

    package var course: String
    package var shared: SharedOptions
    /// Where the site is rebuilt after each check that passes; nil for checks only.
    package var out: String?
    package var search: Bool

    package init(course: String, shared: SharedOptions, out: String?, search: Bool) {
        self.course = course
        self.shared = shared
        self.out = out
        self.search = search
    }

    /// Runs the rounds, telling `starting` what changed as each begins and `report` what came
    /// of it as it ends; returns only when watching cannot go on: the course folder is not
    /// there, the files cannot be watched, no compiler or no sandbox (that no edit of the
    /// course can fix), or a site folder that `build` refuses.
    /// With search, a round's pages are put in place and reported first; the index is
    /// refreshed after, and `indexed` told how that went.
    package func run(starting: (_ changed: [String]) -> Void = { _ in },
                     indexed: (Result<SearchIndexer.Outcome?, PipelineError>) -> Void = { _ in },
                     _ report: (Round) -> Void) throws(PipelineError) -> Never {
        try Self.requireFolder(course)
        let watch: FolderWatch
        do {
            watch = try FolderWatch()
        } catch {
            throw Self.unwatchable(error)
        }
        var plan = WatchPlan.read(folder: course, out: out, previous: nil)
        var changed: [String] = []
        var number = 1
        while true {
            // The folders are watched before the run reads them: an edit made while it runs
            // starts the next one.
            do {
                try watch.watch(plan.folders())
            } catch {
                throw Self.unwatchable(error)
            }
            starting(changed.map(plan.display))
            let outcome = runOnce()
            if case .failed(let error) = outcome {
                let fatal: Set<ExitStatus> = [.toolchainUnavailable, .sandboxUnavailable]
                if fatal.contains(error.status) || (number == 1 && error.step == .read && error.status == .siteNotWritten) {
                    throw error
                }
            }
            report(Round(number: number, changed: changed.map(plan.display), outcome: outcome))
            if case .built(let built) = outcome, let pages = built.searchPending, let out {
                do throws(PipelineError) {
                    indexed(.success(try Pipeline().refreshIndex(out: out, pages: pages, copies: built.searchPendingCopies)))
                } catch {
                    indexed(.failure(error))
                }
            }
            let current = plan
            changed = watch.nextChanges(isRelevant: current.isRelevant)
            plan = WatchPlan.read(folder: course, out: out, previous: plan)
            number += 1
        }
    }

    /// Stops at once when there is no course folder to watch.
    static func requireFolder(_ course: String) throws(PipelineError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: course, isDirectory: &isFolder), isFolder.boolValue else {
            throw PipelineError(path: course, status: .courseUnreadable,
                                diagnostic: .error(.courseUnreadable, "no course folder here",
                                                   at: SourceLocation(file: course, line: 0)))
        }
    }

    private func runOnce() -> Outcome {
        do {
            if let out {
                var options = BuildCommandOptions()
                options.shared = shared
                options.shared.course = course
                options.out = out
                options.search = search
                options.searchAfterPages = true
                return .built(try Pipeline().build(options))
            }
            var options = CheckCommandOptions()
            options.shared = shared
            options.shared.course = course
            return .checked(try Pipeline().check(options))
        } catch {
            return .failed(error)
        }
    }

    private static func unwatchable(_ error: FolderWatch.Unavailable) -> PipelineError {
        PipelineError(path: nil, status: .watchOrServeUnavailable,
                      diagnostic: .error(.watchUnavailable, error.description, at: nil))
    }
}
