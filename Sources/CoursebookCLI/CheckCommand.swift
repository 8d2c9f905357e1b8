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
        let steps = CourseChecking(parsed: parsed, command: "check", console: console)
        do {
            let settings = try steps.runSettings()
            let (course, diagnostics) = try steps.load()
            let report = try steps.check(course, loadDiagnostics: diagnostics, settings: settings,
                                         update: parsed.has("--update"))
            return report.succeeded ? .success : .checkFailed
        } catch {
            return error
        }
    }
}

/// The steps `check` and `build` share: read the settings and the course, run the check,
/// print what it found. Each step prints its own trouble and throws the exit status.
struct CourseChecking {
    var parsed: ParsedArguments
    var command: String
    var console: Console

    var formatter: DiagnosticFormatter { DiagnosticFormatter(colors: console.colorsErrors) }

    func runSettings() throws(ExitStatus) -> RunSettings {
        var settings = RunSettings()
        if let text = parsed.options["--timeout"] {
            guard let seconds = Double(text), seconds > 0, seconds.isFinite, seconds < 1e6 else {
                throw Coursebook.usage(command, UsageError(message: "'--timeout' needs a number of seconds greater than 0, not '\(text)'"), console: console)
            }
            settings.timeLimit = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        return settings
    }

    func load() throws(ExitStatus) -> (Course, [Diagnostic]) {
        do {
            return try CourseLoader.load(folder: parsed.positionals.first ?? "lessons")
        } catch {
            console.error(formatter.format(error.diagnostic))
            throw .courseUnreadable
        }
    }

    func check(_ course: Course, loadDiagnostics: [Diagnostic], settings: RunSettings,
               update: Bool) throws(ExitStatus) -> CheckReport {
        let cacheFolder: String? = parsed.has("--no-cache") ? nil
            : parsed.options["--cache-dir"].map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                ?? course.folderPath + "/.coursebook-cache"
        let compiler: SwiftCompiler
        do {
            compiler = try SwiftCompiler.locate(versionCache: cacheFolder == nil ? nil : Self.compilerVersionMemo)
        } catch {
            console.error(formatter.format(.error("toolchain-unavailable", error.description, at: nil)))
            throw .toolchainUnavailable
        }
        let runner = ScenarioRunner(
            compiler: compiler,
            coreFiles: course.coreFiles.map { .init(path: $0.path, displayPath: $0.displayPath) },
            settings: settings, cache: cacheFolder.map(ResultCache.init(folder:)))
        let report = CourseCheck.run(course, loadDiagnostics: loadDiagnostics,
                                     options: CheckOptions(strict: parsed.has("--strict"), update: update),
                                     runner: runner).writingRewrites()

        for diagnostic in report.diagnostics { console.error(formatter.format(diagnostic)) }
        for update in report.updates {
            console.out("\(update.location.file):\(update.location.line): \(update.summary)")
        }
        console.out(Self.statistics(report, cacheUsed: cacheFolder != nil))
        if report.errorCount > 0 || report.warningCount > 0 {
            console.out(Self.counted(report.errorCount, "error") + ", " + Self.counted(report.warningCount, "warning"))
        }
        console.out(report.summaryLine)
        return report
    }

    /// Where the compiler's version is remembered (by its path, size and modification time)
    /// between runs: the user's cache folder, so that a course's fresh result cache does not
    /// cost a `swiftc --version` every time.
    static var compilerVersionMemo: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache"
        return base + "/coursebook/compiler-version"
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
