import CourseModel
import CoursePipeline
import CourseReports
import AuthorLoop
import Foundation

/// `coursebook watch [COURSE_DIR] [--out DIR] [options]`
enum WatchCommand {
    static let grammar = ArgumentGrammar(options: [
        CommandLineTable.out(help: "also rebuild the site into DIR after each check that passes") { options, folder in
            options.out = folder
        },
        CommandLineTable.noSearch(\.search),
    ] + CommandLineTable.shared(\.shared), initial: WatchCommandOptions(), course: \.shared.course)

    static func execute(_ options: WatchCommandOptions, console: Console) -> ExitStatus {
        let printer = ReportPrinter(console: console, command: Coursebook.watch.name, style: .text)
        let watch = CourseWatch(course: options.shared.course, shared: options.shared, out: options.out, search: options.search)
        do {
            try watch.run(starting: { changed in printChanges(changed, console: console) },
                          indexed: { printIndexed($0, printer: printer, console: console) }) { round in
                printRound(round, printer: printer, console: console) { built in
                    // A round builds a site only into the folder --out names.
                    if let out = options.out { BuildCommand.printWritten(built, to: out, console: console) }
                }
                console.out("watching \(options.shared.course) for changes (Ctrl-C stops)")
            }
        } catch {
            return printer.print(error)
        }
    }

    /// The index refreshed after a round's pages: one line, or the error.
    static func printIndexed(_ result: Result<SearchIndexer.Outcome?, PipelineError>, printer: ReportPrinter, console: Console) {
        switch result {
        case .success(let outcome?):
            console.out(BuildCommand.searchLine(pages: outcome.pages, reused: outcome.reused, shards: outcome.shards,
                                                indexed: outcome.indexedPages, indexedShards: outcome.indexedShards))
        case .success(nil): break
        case .failure(let error): _ = printer.print(error)
        }
    }

    /// What a round starts for, printed before it runs: `changed: lessons/02-scope.md`
    /// (nothing for the first round).
    static func printChanges(_ changed: [String], console: Console) {
        guard !changed.isEmpty else { return }
        let shown = changed.prefix(5).joined(separator: ", ")
        console.out("changed: " + shown + (changed.count > 5 ? ", and \(changed.count - 5) more" : ""))
    }

    /// A round as `watch` and `serve` print it when it ends: what `check` (or `build`) would
    /// print. The same words every time, so that a round is easy to find in a log.
    /// `serve` builds into a folder of its own: a failed check's "not written" line would
    /// only name it, so it says what the page shows instead.
    static func printRound(_ round: CourseWatch.Round, printer: ReportPrinter, console: Console,
                           quietAboutTheSiteFolder: Bool = false, written: (Pipeline.Built) -> Void) {
        switch round.outcome {
        case .checked(let checked):
            printer.print(checked)
        case .built(let built):
            printer.print(built.checked)
            written(built)
        case .failed(let error):
            if quietAboutTheSiteFolder, error.status == .checkFailed, let checked = error.checked {
                printer.print(checked)
            } else {
                _ = printer.print(error)
            }
        }
    }
}

/// `coursebook serve [COURSE_DIR] [--port N] [options]`
enum ServeCommand {
    static let grammar = ArgumentGrammar(options: [
        OptionSpec(names: ["--port"], value: "N", help: "the port on 127.0.0.1 (default 8000; 0 for any free one)") { options, text throws(UsageError) in
            guard let text, let port = UInt16(text) else {
                throw UsageError(message: "'--port' is a number from 0 to 65535, not '\(text ?? "")'")
            }
            options.port = port
        },
        CommandLineTable.noSearch(\.search),
    ] + CommandLineTable.shared(\.shared), initial: ServeCommandOptions(), course: \.shared.course)

    static func execute(_ options: ServeCommandOptions, console: Console) -> ExitStatus {
        let printer = ReportPrinter(console: console, command: Coursebook.serve.name, style: .text)
        let preview = CoursePreview(course: options.shared.course, shared: options.shared, port: options.port,
                                    search: options.search)
        var address = ""
        do {
            try preview.run(listening: { url in
                address = url
                console.out("serving \(options.shared.course) at \(url) (Ctrl-C stops)")
            }, starting: { changed in WatchCommand.printChanges(changed, console: console) }) { round in
                WatchCommand.printRound(round, printer: printer, console: console, quietAboutTheSiteFolder: true) { built in
                    console.out("preview: \(counted(built.pages, "page")), reloaded in the browser")
                }
                if case .failed = round.outcome { console.out("preview: the page shows what the check found") }
                console.out("watching \(options.shared.course) for changes; serving \(address) (Ctrl-C stops)")
            }
        } catch {
            return printer.print(error)
        }
    }
}

/// `coursebook new lesson TITLE [COURSE_DIR] [--errors]`
enum NewCommand {
    static let grammar = ArgumentGrammar(options: [
        OptionSpec(names: ["--errors"], value: nil, help: "a scenario the compiler must refuse: an empty 'errors' block instead of the 'output' block") { options, _ in
            options.errors = true
        },
    ], initial: NewLessonOptions(), positionals: kindTitleAndCourse)

    static func execute(_ options: NewLessonOptions, console: Console) -> ExitStatus {
        do {
            let lesson = try NewLesson.write(options)
            console.out("wrote \(lesson.path) (its limitation note is DR\(lesson.limitNote))")
            if lesson.shortened {
                console.out("the title is too long for a file name (255 bytes at most): the name holds its first words")
            }
            console.out("next: write the scenario, then 'coursebook check \(lesson.path) --update' fills in its \(options.errors ? "errors block with the compiler's errors" : "output")")
            return .success
        } catch {
            return ReportPrinter(console: console, command: Coursebook.new.name, style: .text).print(error)
        }
    }

    /// What to make (`lesson`, the one thing `new` makes), the title (one line of text with a
    /// letter or a digit in it), then the course folder.
    static func kindTitleAndCourse(_ options: inout NewLessonOptions, _ arguments: [String]) throws(UsageError) {
        guard let kind = arguments.first else {
            throw UsageError(message: "what to make is missing: 'coursebook new lesson TITLE [COURSE_DIR]'")
        }
        guard kind == "lesson" else {
            throw UsageError(message: "'\(kind)' is not something 'new' makes: 'coursebook new lesson TITLE [COURSE_DIR]'")
        }
        let positionals = Array(arguments.dropFirst())
        guard let title = positionals.first else {
            throw UsageError(message: "the lesson's title is missing: 'coursebook new lesson TITLE [COURSE_DIR]'")
        }
        guard positionals.count <= 2 else { throw UsageError(message: "unexpected argument '\(positionals[2])'") }
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw UsageError(message: "the lesson's title is empty") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UsageError(message: "the lesson's title is one line of text, without control characters")
        }
        guard trimmed.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw UsageError(message: "the lesson's title needs a letter or a digit, not '\(trimmed)'")
        }
        options.title = trimmed
        if positionals.count == 2 { options.course = positionals[1] }
    }
}

/// `coursebook merge-reports SHARD.json ... [--report FILE] [--format STYLE]`
enum MergeReportsCommand {
    static let grammar = ArgumentGrammar(options: CommandLineTable.reporting(\.reports, \.format),
                                         initial: MergeReportsOptions()) { options, files throws(UsageError) in
        guard !files.isEmpty else {
            throw UsageError(message: "no reports to merge: give the shards' JSON reports (check --shard K/N --report FILE.json)")
        }
        options.inputs = files
    }

    static func execute(_ options: MergeReportsOptions, console: Console) -> ExitStatus {
        let printer = ReportPrinter(console: console, command: Coursebook.mergeReports.name, style: options.format)
        do {
            let merged = try ShardReports.merge(options)
            for diagnostic in merged.diagnosticValues { printer.show(diagnostic) }
            console.out("merged \(counted(options.inputs.count, "report")): "
                + ReportText.statistics(compiled: merged.summary.compiled, compilerRuns: merged.summary.compilerRuns,
                                        fromCache: merged.summary.cached, cacheUsed: true))
            if let counts = ReportText.findingCounts(errors: merged.summary.errors, warnings: merged.summary.warnings,
                                                     notes: merged.summary.notes) {
                console.out(counts)
            }
            let skipped = merged.summary.skipped > 0 ? ", \(merged.summary.skipped) skipped" : ""
            console.out("\(merged.summary.passed) passed, \(merged.summary.failed) failed\(skipped)")
            return merged.succeeded ? .success : .checkFailed
        } catch {
            return printer.print(error)
        }
    }
}

/// `coursebook lsp [options]`: the language server on standard input and output. Nothing else
/// may write to standard output while it runs (it carries the protocol).
enum LanguageServerCommand {
    static let grammar = ArgumentGrammar(options: [
        OptionSpec(names: ["--stdio"], value: nil, help: "talk on standard input and output (the only way; editors that pass it are welcome)") { _, _ in },
        OptionSpec(names: ["--debounce"], value: "SECONDS", help: "how long typing must pause before the unsaved text is checked (default 0.3)") { options, text throws(UsageError) in
            options.debounce = try CommandLineTable.duration(text, option: "--debounce")
        },
    ] + CommandLineTable.shared(\.shared), initial: LanguageServerOptions()) { _, given throws(UsageError) in
        if let first = given.first { throw UsageError(message: "unexpected argument '\(first)' (the editor names the lessons)") }
    }

    static func execute(_ options: LanguageServerOptions, console: Console) -> ExitStatus {
        let status = LanguageServer(input: STDIN_FILENO, output: STDOUT_FILENO, options: options).run()
        return status == 0 ? .success : .checkFailed
    }
}
