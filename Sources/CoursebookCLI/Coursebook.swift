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
        guard let name = arguments.first else {
            console.error(lines: overview.lines)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if let command = commands.first(where: { $0.name == name }) {
            return command.run(rest, console: console)
        }
        if let option = topLevelOptions.first(where: { $0.names.contains(name) }) {
            return option.run(rest, console)
        }
        console.error(lines: ["coursebook: unknown command '\(name)'", ""] + overview.lines)
        return .usage
    }

    /// Prints a usage error the same way for every subcommand.
    static func usage(_ command: String, _ error: UsageError, console: Console) -> ExitStatus {
        console.error(lines: ["coursebook \(command): \(error.message)", "see 'coursebook \(command) --help'"])
        return .usage
    }
}
