import CourseChecking
internal import CourseFiles
internal import CourseModel
internal import CourseSite
import Foundation
import LessonParsing

/// One step of a pipeline: its name and what it does to the command's context. A pipeline is
/// a list of steps that one loop runs in order (`Pipeline.run(_:_:)`); the step that throws
/// stops it, and the loop names that step in the error the user sees.
struct PipelineStep: Sendable {
    var name: StepName
    var body: @Sendable (Pipeline, inout PipelineContext) throws(PipelineError) -> Void

    static let read = PipelineStep(name: .read) { pipeline, context throws(PipelineError) in
        try pipeline.read(&context)
    }
    static let run = PipelineStep(name: .run) { pipeline, context throws(PipelineError) in
        try pipeline.run(&context)
    }
    static let judge = PipelineStep(name: .judge) { pipeline, context throws(PipelineError) in
        try pipeline.judge(&context)
    }
    static let render = PipelineStep(name: .render) { pipeline, context throws(PipelineError) in
        try pipeline.render(&context)
    }
    static let index = PipelineStep(name: .index) { pipeline, context throws(PipelineError) in
        try pipeline.index(&context)
    }
    static let write = PipelineStep(name: .write) { pipeline, context throws(PipelineError) in
        try pipeline.write(&context)
    }

    /// `check`: the course read, its scenarios run, everything judged.
    static let check: [PipelineStep] = [.read, .run, .judge]
    /// `build`: the check, then the site rendered, indexed for search and written.
    static let build: [PipelineStep] = [.read, .run, .judge, .render, .index, .write]
}

/// What the steps of one command share: what the command asks (set when it starts), and what
/// each step made for the steps after it (each field says which step sets it; a step reads
/// only what an earlier one set).
struct PipelineContext {
    // MARK: What the command asks

    var pipeline: PipelineName
    var options: SharedOptions
    /// `check LESSON.md ...`: the lessons to check alone (each must be one of the course's).
    var lessons: [String] = []
    var shard: Shard?
    /// `check --update`: rewrite the lessons from this run.
    var update = false
    /// Whether pages are made: Swift blocks are read for their highlighting too.
    var forPages = false
    /// `build --out`: the site's folder; nil for a check.
    var out: String?
    /// Whether `out` is looked at before anything runs (not for `siteFiles`, which writes none).
    var checksDestination = true
    /// Whether the site gets a search page (the index itself is made only where `indexer`).
    var search = false
    /// Pagefind, when the site gets an index.
    var indexer: SearchIndexer?
    /// `BuildCommandOptions.searchAfterPages`.
    var searchAfterPages = false
    /// Whether the report files and `--update`'s lessons are written (not for an editor).
    var writes = true
    /// An editor's texts of lessons it has not saved, by file name.
    var unsaved: [String: [UInt8]] = [:]
    var cancellation: Cancellation?

    // MARK: read

    /// The course read; its documents go to the pages (a build) or with the context.
    var loaded: LoadedCourse!
    var scope = CheckScope.wholeCourse
    /// Where results are kept between runs; nil with `--no-cache`.
    var cacheFolder: String?
    /// What a site needs before anything runs.
    var sitePlan: Pipeline.SitePlan?

    // MARK: run

    var ran: ScenariosRan?

    // MARK: judge

    var checked: Pipeline.Checked?
    /// What the pages are made of (a build): taken whole by `render`.
    var siteInput: SiteInput?

    // MARK: render, index

    var staging: SiteStaging?
    /// The pages in memory instead (`siteFiles`).
    var files: [SiteFile] = []
    var pages = 0
    var assets = 0
    /// The drawings' store, read as the pages are made: what it did not believe is counted.
    var drawings: DrawnDiagrams?
    var searchOutcome: SearchIndexer.Outcome?
    /// The pages still to index after the site is in place (`searchAfterPages`).
    var searchPending: [String]?
    /// Their search copies (`SearchCopy`), for the refresh; empty when they have none.
    var searchPendingCopies: [SiteFile] = []
    /// The pages' search copies, in memory (`siteFilesAndSearchCopies`).
    var searchCopies: [SiteFile] = []

    init(_ pipeline: PipelineName, options: SharedOptions) {
        self.pipeline = pipeline
        self.options = options
    }
}

extension Pipeline {
    /// Runs `steps` in order on `context`; the step that throws stops the pipeline, and its
    /// error names it.
    func run(_ steps: [PipelineStep], _ context: inout PipelineContext) throws(PipelineError) {
        for step in steps {
            do {
                try step.body(self, &context)
            } catch {
                var named = error
                named.failedIn = (context.pipeline, step.name)
                throw named
            }
        }
    }
}
