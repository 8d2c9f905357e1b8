import BackgroundWork
import CourseChecking
internal import CourseFiles
package import CourseModel
package import CourseReports
package import CourseSite
import Foundation
import LessonParsing
import Processes

/// `check` and `build` as pipelines of steps, each step a value with its name
/// (`PipelineStep`) that one loop runs in order over one context (`PipelineContext`):
///
///     read → run → judge → render → index → write
///
/// `check` runs read, run and judge; `build` runs all six. A step hands what it made to the
/// next through the context, or throws a `PipelineError` with the path at fault and the exit
/// status; the loop names the step in it (`build failed in step render: ...`). The check's
/// report is made once, by the judge step, from every finding of every step before it, so
/// `--strict` means the same for all of them. The command line only turns arguments into
/// options and prints what comes back.
package struct Pipeline: Sendable {
    /// How much parsing this pipeline did (tests read it).
    package let counts = WorkCounts()
    /// Whether the process ends with this command (`check` and `build` on the command line, not
    /// `watch` or a library user): what the command made is then left to the process's end.
    package let endsWithTheProcess: Bool

    /// Where the Swift readings of every course are kept beside each course's own cache (see
    /// `SwiftBlockReader`): the command line's `check` and `build` keep them in the user's
    /// cache (`sharedReadingsFolder`), so a cold check of blocks read before parses nothing;
    /// nil keeps them in the course's cache only (tests, the editor).
    package let sharedReadings: String?

    package init(endsWithTheProcess: Bool = false, sharedReadings: String? = nil) {
        self.endsWithTheProcess = endsWithTheProcess
        self.sharedReadings = sharedReadings
    }

    /// The user's store of Swift readings: `$XDG_CACHE_HOME/coursebook/readings`, else
    /// `~/.cache/coursebook/readings`.
    package static var sharedReadingsFolder: String { userCacheFile("readings") }

    /// What became of the command's cache.
    package struct CacheUse: Sendable {
        /// Whether results were kept between runs (`--no-cache` says no).
        package var used: Bool
        /// Cache entries found but not believed (damaged, forged, written with another key,
        /// not a plain file), whose work was done again.
        package var refusals = 0
        /// Why the cache could not be used at all, when so.
        package var problem: String?

        package init(used: Bool, refusals: Int = 0, problem: String? = nil) {
            self.used = used
            self.refusals = refusals
            self.problem = problem
        }
    }

    /// What `check` found.
    package struct Checked: Sendable {
        package var report: CheckReport
        package var cache: CacheUse

        package init(report: CheckReport, cache: CacheUse) {
            self.report = report
            self.cache = cache
        }

        package init(report: CheckReport, cacheUsed: Bool) {
            self.init(report: report, cache: CacheUse(used: cacheUsed))
        }

        /// Whether results were kept between runs (`--no-cache` says no).
        package var cacheUsed: Bool { cache.used }
    }

    /// What `build` wrote.
    package struct Built: Sendable {
        /// The check, its cache's refusals counting the drawings' store too.
        package var checked: Checked
        /// The site's folder.
        package var out: String
        package var pages: Int
        package var assets: Int
        /// Files the lessons link to, copied into the site.
        package var linkedFiles: Int
        /// How many of the pages are lessons, and whether one is the limitations page.
        package var lessonPages: Int
        package var limitationsPage: Bool
        /// How many pages the search index holds; nil when the site has none (Pagefind is not
        /// installed, or `--no-search`).
        package var searchPages: Int?
        /// Whether the index is the one in place, its pages unchanged and its files verified
        /// (Pagefind did not run).
        package var searchReused: Bool = false
        /// How many shards the index is in, and how many of its pages Pagefind read in this
        /// build (those of the shards indexed again).
        package var searchShards = 1
        package var searchIndexedPages = 0
        package var searchIndexedShards = 0
        /// The pages still to index (`searchAfterPages`): `refreshIndex` indexes them.
        package var searchPending: [String]?
        /// Their search copies (`SearchCopy`), for `refreshIndex`; empty when they have none.
        package var searchPendingCopies: [SiteFile] = []
        /// Whether Pagefind was looked for and not found (the command says so).
        package var searchUnavailable: Bool
    }

    // MARK: The commands

    package func check(_ options: CheckCommandOptions) throws(PipelineError) -> Checked {
        var context = PipelineContext(.check, options: options.shared)
        context.lessons = options.lessons
        context.shard = options.shard
        context.update = options.update
        try run(PipelineStep.check, &context)
        release(context.loaded)
        return context.checked!
    }

    package func build(_ options: BuildCommandOptions) throws(PipelineError) -> Built {
        guard let out = options.out else {
            throw PipelineError(path: nil, status: .usage, diagnostic: .error(
                .siteNotWritten, "'--out DIR' is required: the folder to write the site into", at: nil))
        }
        var context = PipelineContext(.build, options: options.shared)
        context.forPages = true
        context.out = out
        context.indexer = options.search ? SearchIndexer.locate() : nil
        context.search = context.indexer != nil
        context.searchAfterPages = options.searchAfterPages
        try run(PipelineStep.build, &context)
        let course = context.loaded.course
        release(context.loaded)
        return Built(checked: Self.withDrawings(context), out: out, pages: context.pages, assets: context.assets,
                     linkedFiles: context.sitePlan!.linkedFiles.count, lessonPages: course.lessons.count,
                     limitationsPage: SitePages.hasLimitationsPage(course), searchPages: context.searchOutcome?.pages,
                     searchReused: context.searchOutcome?.reused ?? false, searchShards: context.searchOutcome?.shards ?? 1,
                     searchIndexedPages: context.searchOutcome?.indexedPages ?? 0,
                     searchIndexedShards: context.searchOutcome?.indexedShards ?? 0, searchPending: context.searchPending,
                     searchPendingCopies: context.searchPendingCopies, searchUnavailable: options.search && context.indexer == nil)
    }

    /// The files `build` would write, kept in memory instead (`--out` is not looked at), with
    /// the pages of a searchable site when `options.search` says so (the index itself is not
    /// made): for tests that compare pages.
    package func siteFiles(_ options: BuildCommandOptions) throws(PipelineError) -> (checked: Checked, files: [SiteFile]) {
        let (checked, files, _) = try siteFilesAndSearchCopies(options)
        return (checked, files)
    }

    /// `siteFiles`, with the search copies of the lesson pages (`SearchCopy`) that the index
    /// would read.
    package func siteFilesAndSearchCopies(_ options: BuildCommandOptions) throws(PipelineError)
        -> (checked: Checked, files: [SiteFile], searchCopies: [SiteFile]) {
        var context = PipelineContext(.build, options: options.shared)
        context.forPages = true
        context.out = options.out
        context.checksDestination = false
        context.search = options.search
        let render = PipelineStep(name: .render) { pipeline, context throws(PipelineError) in
            do throws(SiteWriteError) {
                let sink = CollectingSink()
                try SitePages.render(context.siteInput.take()!, into: sink)
                (context.files, context.searchCopies) = (sink.files, sink.searchCopies)
            } catch {
                throw pipeline.siteError(error)
            }
        }
        try run([.read, .run, .judge, render], &context)
        return (Self.withDrawings(context), context.files, context.searchCopies)
    }

    /// A new search index for the site in place at `out`, made from `pages` after they were
    /// written (`BuildCommandOptions.searchAfterPages`), or from their search `copies` when
    /// the build made them: the site is staged again from its own files (hard links), indexed,
    /// and swapped in, so that a reader never sees half an index. The shards in place that the
    /// build found current (their records kept) are taken as they are.
    package func refreshIndex(out: String, pages: [String], copies: [SiteFile] = []) throws(PipelineError) -> SearchIndexer.Outcome? {
        guard let indexer = SearchIndexer.locate() else { return nil }
        var context = PipelineContext(.build, options: SharedOptions())
        context.out = out
        let index = PipelineStep(name: .index) { pipeline, context throws(PipelineError) in
            try pipeline.restage(&context)
            let staging = context.staging!
            for copy in copies {
                do throws(SiteWriteError) {
                    try staging.addSearchCopy(copy)
                } catch {
                    staging.discard()
                    throw pipeline.siteError(error)
                }
            }
            context.searchOutcome = try pipeline.index(staging, with: indexer, pages: pages, copies: staging.searchCopies,
                                                       previous: out)
        }
        try run([index, .write], &context)
        return context.searchOutcome
    }

    /// The check as the command shows it: its cache's refusals counting those of the drawings'
    /// store, which the pages read as they are made.
    static func withDrawings(_ context: PipelineContext) -> Checked {
        var checked = context.checked!
        checked.cache.refusals += context.drawings?.refusedEntries ?? 0
        return checked
    }

    /// Freeing a large course's parsed documents and pages takes tens of milliseconds: a
    /// command that ends the process leaves it to the end (`CommandLifetime.keepUntilExit`);
    /// any other frees it on another thread, so that the answer does not wait for it.
    private func release<Value: Sendable>(_ value: Value) {
        if endsWithTheProcess, CommandLifetime.keepUntilExit(value) { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
    }

    /// A report document into files, each in the format its name asks for.
    package static func write(_ document: ReportDocument, to files: [ReportFile], checked: Checked?) throws(PipelineError) {
        for file in files {
            let path = file.path
            // A report is written by a rename over its name, which would put a file in place
            // of a link; and writing where a link points is writing where whoever made the
            // link wants (one committed to the repository may point at a file of the user's).
            // So a link is refused, as `--out` refuses one.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " (to \(escapingControls($0)))" } ?? ""
                throw PipelineError(path: path, status: .siteNotWritten, diagnostic: .error(
                    .reportNotWritten,
                    "cannot write the report \(escapingControls(path)): it is a symbolic link\(target), and coursebook writes a report only as a file of its own; give the path of the file itself",
                    at: nil), checked: checked)
            }
            do {
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                try writeAtomically(file.kind.render(document), to: path, keepingPermissions: false)
            } catch {
                throw PipelineError(path: path, status: .siteNotWritten, diagnostic: .error(
                    .reportNotWritten, "cannot write the report \(path): \(error)", at: nil), checked: checked)
            }
        }
    }
}
