import CourseModel
import CoursePipeline

/// `coursebook check [COURSE_DIR] [--update] [--strict] [--timeout S] [--no-cache] [--cache-dir D]`
enum CheckCommand {
    static func run(_ arguments: [String], console: Console) -> ExitStatus {
        let options: CheckCommandOptions
        do {
            switch try CommandLineTable.check.parse(arguments, into: CheckCommandOptions(), course: \.shared.course) {
            case .help:
                console.out(HelpText.check)
                return .success
            case .run(let parsed):
                options = parsed
            }
        } catch {
            return Coursebook.usage("check", error, console: console)
        }
        let printer = ReportPrinter(console: console, command: "check")
        do {
            let checked = try Pipeline().check(options)
            printer.print(checked)
            return checked.report.succeeded ? .success : .checkFailed
        } catch {
            return printer.print(error)
        }
    }
}

/// `coursebook build [COURSE_DIR] --out DIR [--strict] [--timeout S] [--no-cache] [--cache-dir D]`
enum BuildCommand {
    static func run(_ arguments: [String], console: Console) -> ExitStatus {
        let options: BuildCommandOptions
        do throws(UsageError) {
            switch try CommandLineTable.build.parse(arguments, into: BuildCommandOptions(), course: \.shared.course) {
            case .help:
                console.out(HelpText.build)
                return .success
            case .run(let parsed):
                options = parsed
            }
            guard !options.out.isEmpty else {
                throw UsageError(message: "'--out DIR' is required: the folder to write the site into")
            }
        } catch {
            return Coursebook.usage("build", error, console: console)
        }
        let printer = ReportPrinter(console: console, command: "build")
        do {
            let built = try Pipeline().build(options)
            printer.print(built.checked)
            let kinds = [counted(built.lessonPages, "lesson"), "index"] + (built.limitationsPage ? ["limitations"] : [])
                + ["whole course"] + (built.searchPages != nil ? ["search"] : [])
            let linked = built.linkedFiles == 0 ? "" : "; \(counted(built.linkedFiles, "file")) the lessons link to"
            console.out("wrote \(options.out): \(built.pages) pages (\(kinds.joined(separator: ", "))) and \(counted(built.assets, "asset"))\(linked)")
            if let pages = built.searchPages {
                console.out("search: pagefind indexed \(counted(pages, "page"))")
            } else if built.searchUnavailable {
                console.out("search: pagefind is not installed, so the site has no search ('pip install pagefind-bin' adds it)")
            }
            return .success
        } catch {
            return printer.print(error)
        }
    }
}

/// Prints what the pipeline found: diagnostics to standard error, then the updates, the
/// statistics and the tally to standard output.
struct ReportPrinter {
    var console: Console
    var command: String

    var formatter: DiagnosticFormatter { DiagnosticFormatter(colors: console.colorsErrors) }

    func print(_ checked: Pipeline.Checked) {
        let report = checked.report
        for diagnostic in report.diagnostics { console.error(formatter.format(diagnostic)) }
        if let problem = report.cacheProblem {
            console.error("coursebook \(command): note: \(problem)")
        } else if report.cacheRefusals > 0 {
            console.error("coursebook \(command): note: \(report.cacheRefusals == 1 ? "1 cache entry" : "\(report.cacheRefusals) cache entries") not believed (damaged, forged, signed with another key, or not a plain file) and computed again")
        }
        if case .unavailable(let reason) = report.sandbox {
            console.error("coursebook \(command): note: scenarios ran without the sandbox: \(reason) ('--sandbox required' makes this an error)")
        }
        for update in report.updates {
            console.out("\(update.location.file):\(update.location.line): \(update.summary)")
        }
        console.out(Self.statistics(report, cacheUsed: checked.cacheUsed))
        if report.errorCount > 0 || report.warningCount > 0 || report.noteCount > 0 {
            // Notes (what was left out, such as a scenario's diagrams) are counted, never failed on.
            console.out(counted(report.errorCount, "error") + ", " + counted(report.warningCount, "warning")
                        + (report.noteCount > 0 ? ", " + counted(report.noteCount, "note") : ""))
        }
        console.out(report.summaryLine)
    }

    /// Prints why the pipeline stopped (after the report, when the check ran) and returns the
    /// exit status.
    func print(_ error: PipelineError) -> ExitStatus {
        if let checked = error.checked { print(checked) }
        if error.diagnostic.location == nil {
            console.error("coursebook \(command): \(error.diagnostic.summary)")
        } else {
            console.error(formatter.format(error.diagnostic))
        }
        return error.status
    }

    /// `compiled 3 scenarios (1 swiftc run), 297 from the cache`
    static func statistics(_ report: CheckReport, cacheUsed: Bool) -> String {
        var line = "compiled " + counted(report.compiledCount, "scenario")
        if report.compilerRuns > 0 { line += " (\(counted(report.compilerRuns, "swiftc run")))" }
        line += cacheUsed ? ", \(report.cachedCount) from the cache" : ", cache not used"
        return line
    }
}

/// `1 lesson`, `3 lessons`.
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
