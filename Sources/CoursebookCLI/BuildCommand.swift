import CourseKit
import CourseSite
import Foundation

/// `coursebook build [COURSE_DIR] --out DIR [--strict] [--timeout S] [--no-cache] [--cache-dir D]`
///
/// Order matters for what a failure leaves behind: the templates and the destination are
/// checked before any scenario runs, the site is rendered only from a check that passed, and
/// it reaches `DIR` only whole.
enum BuildCommand {
    static let spec = ArgumentSpec(
        flags: ["--strict", "--no-cache", "--help", "-h"],
        options: ["--out", "--timeout", "--cache-dir"], maxPositionals: 1)

    static func run(_ arguments: [String], console: Console) -> ExitStatus {
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments)
        } catch {
            return Coursebook.usage("build", error, console: console)
        }
        if parsed.has("--help") || parsed.has("-h") {
            console.out(HelpText.build)
            return .success
        }
        guard let out = parsed.options["--out"], !out.isEmpty else {
            return Coursebook.usage("build", UsageError(message: "'--out DIR' is required: the folder to write the site into"), console: console)
        }
        let steps = CourseChecking(parsed: parsed, command: "build", console: console)
        do {
            let settings = try steps.runSettings()
            let (course, diagnostics) = try steps.load()

            let words: SiteWords
            if let builtIn = SiteWords.forLanguage(course.config.language) {
                words = builtIn
            } else {
                console.error(steps.formatter.format(.warning(
                    "language-words", "no built-in words for language '\(course.config.language)'; pages use English for the words the tool adds",
                    at: SourceLocation(file: course.configPath, line: 0))))
                words = .english
            }
            let templates: TemplateSet
            do {
                if let folder = course.config.templates {
                    templates = try TemplateSet.load(
                        folder: URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: course.folderPath + "/")).standardizedFileURL.path,
                        displayFolder: displayPath(course.folder, folder))
                } else {
                    templates = try TemplateSet.builtIn()
                }
            } catch {
                console.error(steps.formatter.format(.error(
                    "template-invalid", error.message,
                    at: SourceLocation(file: error.template, line: error.line))))
                return .templateInvalid
            }
            do {
                try SiteWriter.validate(destination: out, course: course)
            } catch {
                console.error("coursebook build: \(error)")
                return .siteNotWritten
            }

            let report = try steps.check(course, loadDiagnostics: diagnostics, settings: settings, update: false)
            guard report.succeeded else {
                console.error("coursebook build: the check failed; \(out) was not written")
                return .checkFailed
            }
            let files = SitePages.render(course: course, report: report, templates: templates, words: words)
            do {
                try SiteWriter.write(files, to: out)
            } catch {
                console.error("coursebook build: \(error)")
                return .siteNotWritten
            }
            let pages = files.filter { $0.path.hasSuffix(".html") }.count
            console.out("wrote \(out): \(pages) pages (\(CourseChecking.counted(course.lessons.count, "lesson")), index, limitations) and \(files.count - pages) assets")
            return .success
        } catch {
            return error
        }
    }
}
