import CourseModel
import CoursePipeline
import Foundation

/// The `coursebook` command: parses the arguments, runs one subcommand, prints, and returns the
/// exit status. The executable is only `exit(Coursebook.main(...))`.
package enum Coursebook {
    package static func main(_ arguments: [String], console: Console) -> Int32 {
        status(arguments, console: console).rawValue
    }

    /// The command as a process of its own (the executable): it also answers signals and
    /// ends what it started (see `CommandLifetime`).
    package static func run(_ arguments: [String], console: Console) -> Int32 {
        // The process a command reads Swift blocks in (see `SwiftReadingProcess`): not a
        // command of its own, so none of a command's setup.
        if arguments == [SwiftReadingProcess.command] { return SwiftReadingProcess.serve() }
        SwiftReadingProcess.readWithThisProgram()
        CommandLifetime.begin()
        return main(arguments, console: console)
    }

    static func status(_ arguments: [String], console: Console) -> ExitStatus {
        guard let command = arguments.first else {
            console.error(lines: HelpText.overview.lines)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "check":
            return CheckCommand.run(rest, console: console)
        case "build":
            return BuildCommand.run(rest, console: console)
        case "watch":
            return WatchCommand.run(rest, console: console)
        case "serve":
            return ServeCommand.run(rest, console: console)
        case "new":
            return NewCommand.run(rest, console: console)
        case "merge-reports":
            return MergeReportsCommand.run(rest, console: console)
        case "lsp":
            return LanguageServerCommand.run(rest, console: console)
        case "help":
            return help(rest.first, console: console)
        case "--help", "-h":
            console.out(lines: HelpText.overview.lines)
            return .success
        case "--version":
            guard rest.isEmpty else {
                console.error(lines: ["coursebook: '--version' takes no argument", "see 'coursebook --help'"])
                return .usage
            }
            console.out("coursebook \(CoursebookVersion.current)")
            switch Pipeline().compiler() {
            case .success(let compiler): console.out("scenarios run with: \(compiler.version) (\(compiler.path))")
            case .failure(let error): console.out("scenarios run with: no compiler: \(error.diagnostic.summary)")
            }
            return .success
        default:
            console.error(lines: ["coursebook: unknown command '\(command)'", ""] + HelpText.overview.lines)
            return .usage
        }
    }

    private static func help(_ topic: String?, console: Console) -> ExitStatus {
        switch topic {
        case nil: console.out(lines: HelpText.overview.lines)
        case "check": console.out(lines: HelpText.check.lines)
        case "build": console.out(lines: HelpText.build.lines)
        case "watch": console.out(lines: HelpText.watch.lines)
        case "serve": console.out(lines: HelpText.serve.lines)
        case "new": console.out(lines: HelpText.new.lines)
        case "merge-reports": console.out(lines: HelpText.mergeReports.lines)
        case "lsp": console.out(lines: HelpText.lsp.lines)
        case let other?:
            console.error("coursebook help: no command '\(other)' (commands: check, build, watch, serve, new, merge-reports, lsp)")
            return .usage
        }
        return .success
    }

    /// Prints a usage error the same way for every subcommand.
    static func usage(_ command: String, _ error: UsageError, console: Console) -> ExitStatus {
        console.error(lines: ["coursebook \(command): \(error.message)", "see 'coursebook \(command) --help'"])
        return .usage
    }
}
