import CourseKit
import Foundation

/// `coursebook check [COURSE_DIR] [--update] [--strict] [--timeout S] [--no-cache] [--cache-dir D]`
enum CheckCommand {
    static let spec = ArgumentSpec(
        flags: ["--update", "--strict", "--no-cache", "--help", "-h"],
        options: ["--timeout", "--cache-dir"], maxPositionals: 1)

    static func run(_ arguments: [String], console: Console) -> ExitStatus {
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments)
        } catch {
            return Coursebook.usage("check", error, console: console)
        }
        if parsed.has("--help") || parsed.has("-h") {
            console.out(HelpText.check)
            return .success
        }
        switch CourseChecking.check(parsed, update: parsed.has("--update"), console: console, command: "check") {
        case .failure(let status): return status
        case .success(let checked): return checked.report.succeeded ? .success : .checkFailed
        }
    }
}

/// A course, read and checked.
struct CheckedCourse {
    var course: Course
    var report: CheckReport
}

/// What `check` and `build` share: read the course, run the check, print what it found.
enum CourseChecking {
    static func check(_ parsed: ParsedArguments, update: Bool, console: Console,
                      command: String) -> Result<CheckedCourse, ExitStatus> {
        var settings = RunSettings()
        if let text = parsed.options["--timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                return .failure(Coursebook.usage(command, UsageError(message: "'--timeout' needs a number of seconds greater than 0, not '\(text)'"), console: console))
            }
            settings.timeLimit = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        let formatter = DiagnosticFormatter(colors: console.colorsErrors)
        let folder = parsed.positionals.first ?? "lessons"

        let course: Course, loadDiagnostics: [Diagnostic]
        do {
            (course, loadDiagnostics) = try CourseLoader.load(folder: folder)
        } catch {
            console.error(formatter.format(error.diagnostic))
            return .failure(.courseUnreadable)
        }

        let cacheFolder: String? = parsed.has("--no-cache") ? nil
            : parsed.options["--cache-dir"].map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                ?? course.folderPath + "/.coursebook-cache"
        let compiler: SwiftCompiler
        do {
            compiler = try SwiftCompiler.locate(versionCache: cacheFolder.map { $0 + "/compiler-version" })
        } catch {
            console.error(formatter.format(.error("toolchain-unavailable", error.description, at: nil)))
            return .failure(.toolchainUnavailable)
        }
        let runner = ScenarioRunner(
            compiler: compiler,
            coreFiles: course.coreFiles.map { .init(path: $0.path, displayPath: $0.displayPath) },
            settings: settings, cache: cacheFolder.map(ResultCache.init(folder:)))
        let report = CourseCheck.run(course, loadDiagnostics: loadDiagnostics,
                                     options: CheckOptions(strict: parsed.has("--strict"), update: update),
                                     runner: runner)

        for diagnostic in report.diagnostics { console.error(formatter.format(diagnostic)) }
        for update in report.updates { console.out("\(update.location.file):\(update.location.line): \(update.summary)") }
        console.out(statistics(report, cacheUsed: cacheFolder != nil))
        if report.errorCount > 0 || report.warningCount > 0 {
            console.out(counted(report.errorCount, "error") + ", " + counted(report.warningCount, "warning"))
        }
        console.out(report.summaryLine)
        return .success(CheckedCourse(course: course, report: report))
    }

    /// `compiled 3 scenarios (1 swiftc run), 297 from the cache`
    static func statistics(_ report: CheckReport, cacheUsed: Bool) -> String {
        var line = "compiled " + counted(report.compiledCount, "scenario")
        if report.compilerRuns > 0 { line += " (\(counted(report.compilerRuns, "swiftc run")))" }
        line += cacheUsed ? ", \(report.cachedCount) from the cache" : ", cache not used"
        return line
    }

    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
