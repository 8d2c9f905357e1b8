import CourseModel
import CoursePipeline

/// An option of `coursebook` itself, given in place of a command (`coursebook --version`).
struct TopLevelOption: Sendable {
    var names: [String]
    var help: String
    var run: @Sendable ([String], Console) -> ExitStatus
}

/// What `coursebook help [COMMAND]` is asked for.
struct HelpOptions: Sendable {
    var topic: String?
}

extension Coursebook {
    /// Every command `coursebook NAME` runs: the subcommands, then `help`.
    static let commands: [Subcommand] = subcommands + [help]

    /// `coursebook help [COMMAND]`: the overview, or a command's help.
    static let help: Subcommand = Subcommand(
        name: "help", arguments: "[COMMAND]",
        summary: "show help for a command",
        description: "Shows the overview of the commands, or the help of COMMAND (what 'coursebook COMMAND --help'\nshows).",
        exitStatuses: [ExitNote(.success, "shown"), ExitNote(.usage, "no such command")],
        grammar: ArgumentGrammar(options: [], initial: HelpOptions()) { options, topics throws(UsageError) in
            guard topics.count <= 1 else { throw UsageError(message: "unexpected argument '\(topics[1])'") }
            options.topic = topics.first
        }) { options, console in
            guard let topic = options.topic else {
                console.out(lines: overview.lines)
                return .success
            }
            guard let command = commands.first(where: { $0.name == topic }) else {
                let names = subcommands.map(\.name).joined(separator: ", ")
                console.error("coursebook help: no command '\(topic)' (commands: \(names))")
                return .usage
            }
            console.out(lines: command.help.lines)
            return .success
        }

    /// The options `coursebook` takes in place of a command.
    static let topLevelOptions: [TopLevelOption] = [
        TopLevelOption(names: ["--help", "-h"], help: "show this help") { _, console in
            console.out(lines: overview.lines)
            return .success
        },
        TopLevelOption(names: ["--version"], help: "show the version and the compiler scenarios run with") { arguments, console in
            guard arguments.isEmpty else {
                console.error(lines: ["coursebook: '--version' takes no argument", "see 'coursebook --help'"])
                return .usage
            }
            console.out("coursebook \(CoursebookVersion.current)")
            switch Pipeline().compiler() {
            case .success(let compiler): console.out("scenarios run with: \(compiler.version) (\(compiler.path))")
            case .failure(let error): console.out("scenarios run with: no compiler: \(error.diagnostic.summary)")
            }
            return .success
        },
    ]

    /// What `coursebook --help` prints: every command and top-level option, in one column as
    /// wide as the widest.
    static var overview: String {
        let commandRows = commands.map { ($0.synopsis, $0.summary) }
        let optionRows = topLevelOptions.map { ($0.names.joined(separator: ", "), $0.help) }
        let width = (commandRows + optionRows).map(\.0.count).max() ?? 0
        return """
            coursebook: checks the Swift examples of a course and publishes it as a static site.

            usage: coursebook <command> [options]

            commands:
            \(columns(commandRows, width: width))

            options:
            \(columns(optionRows, width: width))

            COURSE_DIR defaults to 'lessons'. 'coursebook <command> --help' shows a command's options.
            """
    }
}
