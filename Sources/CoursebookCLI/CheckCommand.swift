import CourseModel
import CoursePipeline
import CourseReports
import Foundation

/// `coursebook check [COURSE_DIR | LESSON.md ...] [options]`
enum CheckCommand {
    static let grammar = ArgumentGrammar(options: [
        OptionSpec(names: ["--update"], value: nil, help: "rewrite 'output' and 'swift core' blocks from this run",
                   manual: "rewrite every `output`, `errors` and `trap` block (and `swift core` listing) with what this run produced (never making an `errors` or `trap` block of anything else); insert a missing `output` block after its scenario. Each change is reported as `file:line: ...`. A second `--update` changes nothing. Each lesson is read again just before it is replaced: one that changed since the check read it (you saved it meanwhile) is left as it is now and reported as an error (exit 1); the others are updated.") { options, _ in
            options.update = true
        },
        OptionSpec(names: ["--shard"], value: "K/N", help: "run the K-th of N shares of the scenarios (course-wide rules on 1/N only), for a CI matrix",
                   manual: "run the K-th of N shares of the scenarios (course-wide rules on `1/N` only), for a CI matrix; see [Reports and CI](ci.md#reports-and-ci). Not with `--update`.") { options, text throws(UsageError) in
            guard let text, let shard = Shard(text) else {
                throw UsageError(message: "'--shard' is K/N with 1 <= K <= N (2/4), not '\(text ?? "")'")
            }
            options.shard = shard
        },
    ] + CommandLineTable.shared(\.shared) + CommandLineTable.reporting(\.shared.reports, \.shared.format),
    initial: CheckCommandOptions(), positionals: targets) { options throws(UsageError) in
        if options.shard != nil, options.update {
            throw UsageError(message: "'--update' rewrites lessons and cannot run on a shard; run it without '--shard'")
        }
    }

    static func execute(_ options: CheckCommandOptions, console: Console) -> ExitStatus {
        let printer = ReportPrinter(console: console, command: Coursebook.check.name, style: options.shared.format)
        do {
            let checked = try Pipeline(endsWithTheProcess: true, sharedReadings: Pipeline.sharedReadingsFolder).check(options)
            printer.print(checked)
            CommandLifetime.keepUntilExit(checked)
            return checked.report.succeeded ? .success : .checkFailed
        } catch {
            return printer.print(error)
        }
    }

    /// What `check` is given: nothing (the course in `lessons`), one course folder, or lesson
    /// files (names ending in `.md`) of one course folder, which is then their folder.
    static func targets(_ options: inout CheckCommandOptions, _ positionals: [String]) throws(UsageError) {
        guard let first = positionals.first else { return }
        let lessons = positionals.filter { $0.hasSuffix(".md") }
        guard !lessons.isEmpty else {
            guard positionals.count == 1 else { throw UsageError(message: "unexpected argument '\(positionals[1])'") }
            options.shared.course = first
            return
        }
        if let folder = positionals.first(where: { !$0.hasSuffix(".md") }) {
            throw UsageError(message: "give a course folder or lesson files, not both ('\(folder)' is not a lesson file)")
        }
        func folder(of lesson: String) -> String {
            let parent = (lesson as NSString).deletingLastPathComponent
            return parent.isEmpty ? "." : parent
        }
        func absolute(_ folder: String) -> String { URL(fileURLWithPath: folder).standardizedFileURL.path }
        let course = folder(of: lessons[0])
        if let stranger = lessons.first(where: { absolute(folder(of: $0)) != absolute(course) }) {
            throw UsageError(message: "lesson files of one course only: '\(stranger)' is not in the folder of '\(lessons[0])'")
        }
        var seen: Set<String> = []
        for lesson in lessons where !seen.insert((lesson as NSString).lastPathComponent).inserted {
            throw UsageError(message: "'\(lesson)' is given twice")
        }
        options.shared.course = course
        options.lessons = lessons
    }
}

/// `coursebook build [COURSE_DIR] --out DIR [options]`
enum BuildCommand {
    static let grammar = ArgumentGrammar(options: [
        CommandLineTable.out(help: "the site's folder", required: "the folder to write the site into") { options, folder in
            options.out = folder
        },
        CommandLineTable.noSearch(\.search),
    ] + CommandLineTable.shared(\.shared) + CommandLineTable.reporting(\.shared.reports, \.shared.format),
    initial: BuildCommandOptions(), course: \.shared.course)

    static func execute(_ options: BuildCommandOptions, console: Console) -> ExitStatus {
        let printer = ReportPrinter(console: console, command: Coursebook.build.name, style: options.shared.format)
        do {
            let built = try Pipeline(endsWithTheProcess: true, sharedReadings: Pipeline.sharedReadingsFolder).build(options)
            printer.print(built.checked)
            printWritten(built, to: built.out, console: console)
            CommandLifetime.keepUntilExit(built)
            return .success
        } catch {
            return printer.print(error)
        }
    }
}

extension BuildCommand {
    /// What became of the search index: made by Pagefind, in place, or in shards some of each
    /// (`SearchShards`).
    static func searchLine(pages: Int, reused: Bool, shards: Int, indexed: Int, indexedShards: Int) -> String {
        let inShards = shards > 1 ? " (\(shards) shards)" : ""
        if reused {
            return "search: the index of \(counted(pages, "page"))\(inShards) is the one in place (its pages unchanged, its files verified)"
        }
        guard shards > 1, indexed < pages else { return "search: pagefind indexed \(counted(pages, "page"))\(inShards)" }
        return "search: pagefind indexed \(indexed) of \(counted(pages, "page")) (\(indexedShards) of \(shards) shards, where pages changed); the other shards are the ones in place (their pages unchanged, their files verified)"
    }

    /// What a build wrote: its pages, assets and linked files, and its search index.
    static func printWritten(_ built: Pipeline.Built, to out: String, console: Console) {
        let kinds = [counted(built.lessonPages, "lesson"), "index"] + (built.limitationsPage ? ["limitations"] : [])
            + ["whole course"] + (built.searchPages != nil || built.searchPending != nil ? ["search"] : [])
        let linked = built.linkedFiles == 0 ? "" : "; \(counted(built.linkedFiles, "file")) the lessons link to"
        console.out("wrote \(out): \(built.pages) pages (\(kinds.joined(separator: ", "))) and \(counted(built.assets, "asset"))\(linked)")
        if let pages = built.searchPages {
            console.out(searchLine(pages: pages, reused: built.searchReused, shards: built.searchShards,
                                   indexed: built.searchIndexedPages, indexedShards: built.searchIndexedShards))
        } else if built.searchUnavailable {
            console.out("search: pagefind is not installed, so the site has no search ('pip install pagefind-bin' adds it)")
        }
    }
}

/// Prints what the pipeline found: diagnostics to standard error, then the updates, the
/// statistics and the tally to standard output.
struct ReportPrinter {
    var console: Console
    var command: String
    /// `text`: findings on standard error for people and editors; `github`: as workflow
    /// commands on standard output, which GitHub shows on the lines of a pull request.
    var style: DiagnosticStyle

    /// `--format` when given, else `github` inside GitHub Actions.
    init(console: Console, command: String, style: DiagnosticStyle?) {
        self.console = console
        self.command = command
        self.style = DiagnosticStyle.resolve(style, environment: ProcessInfo.processInfo.environment)
    }

    /// One finding, in the chosen style.
    func show(_ diagnostic: Diagnostic) {
        switch style {
        case .text: console.error(lines: formatter.lines(diagnostic), painted: true)
        case .github: console.annotation(GitHubAnnotations.annotation(diagnostic))
        }
    }

    var formatter: DiagnosticFormatter { DiagnosticFormatter(colors: console.colorsErrors) }

    func print(_ checked: Pipeline.Checked) {
        let report = checked.report
        for diagnostic in report.diagnostics { show(diagnostic) }
        if let problem = checked.cache.problem {
            console.error("coursebook \(command): note: \(problem)")
        } else if checked.cache.refusals > 0 {
            console.error("coursebook \(command): note: \(checked.cache.refusals == 1 ? "1 cache entry" : "\(checked.cache.refusals) cache entries") not believed (damaged, forged, signed with another key, or not a plain file) and computed again")
        }
        if case .unavailable(let reason) = report.sandbox {
            console.error("coursebook \(command): note: scenarios ran without the sandbox: \(reason) ('--sandbox required' makes this an error)")
        }
        if let problem = report.batchRunnerProblem {
            console.error("coursebook \(command): note: every scenario was compiled alone, which is slower: coursebook could not compile the program that runs a batch of them (\(problem))")
        }
        for update in report.updates {
            console.out("\(update.location.file):\(update.location.line): \(update.summary)")
        }
        console.out(ReportText.statistics(report, cacheUsed: checked.cacheUsed))
        if let counts = ReportText.findingCounts(errors: report.errorCount, warnings: report.warningCount,
                                                 notes: report.noteCount) {
            console.out(counts)
        }
        console.out(report.summaryLine)
    }

    /// Prints why the pipeline stopped (after the report, when the check ran) and returns the
    /// exit status.
    func print(_ error: PipelineError) -> ExitStatus {
        if let checked = error.checked { print(checked) }
        if style == .github {
            console.annotation(GitHubAnnotations.annotation(error.diagnostic))
        }
        if error.diagnostic.location == nil {
            // A stop that names no file says where the pipeline stopped: `build failed in
            // step render: ...`; one at a file's line is a finding, as editors read it.
            console.error("coursebook \(command): " + (error.stop.map { $0 + ": " } ?? "") + error.diagnostic.summary)
        } else if style == .text {
            console.error(lines: formatter.lines(error.diagnostic), painted: true)
        }
        return error.status
    }

}

