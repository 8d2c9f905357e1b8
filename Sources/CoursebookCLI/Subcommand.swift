import CoursePipeline

/// One option as `--help` and the manual show it, whichever command's table it comes from.
struct OptionRow: Sendable, Equatable {
    var names: [String]
    /// The value's placeholder (`DIR`), nil for a flag.
    var value: String?
    /// The line of `--help`.
    var help: String
    /// The manual's words (docs/commands.md), when it says more than `--help`.
    var manual: String
    /// Why the command cannot do without it, for an option that must be given.
    var required: String?

    /// `--out DIR`, `--help, -h`.
    var shown: String { names.joined(separator: ", ") + (value.map { " \($0)" } ?? "") }
}

/// One subcommand of `coursebook`: its name, what the overview, `--help` and the manual say of
/// it, its options, and how it runs. `Coursebook.subcommands` lists them; dispatch, help, the
/// "unknown command" message and docs/commands.md's tables all read that list.
struct Subcommand: Sendable {
    var name: String
    /// What follows the name in the overview and the usage line: `[COURSE_DIR] --out DIR`.
    var arguments: String
    /// What follows the arguments in the usage line: `[options]`, or the one option there is.
    var optionsHint = "[options]"
    /// The overview's line for it.
    var summary: String
    /// The paragraph of its `--help`.
    var description: String
    /// What each exit status it can end with means for it: the last lines of its `--help`.
    var exitStatuses: [ExitNote]
    var options: [OptionRow]
    private var body: @Sendable (Subcommand, [String], Console) -> ExitStatus

    /// A command that parses its arguments with `grammar` and, when they are valid, runs
    /// `execute` with its typed options. `--help` prints its help; a wrong command line prints
    /// the problem and exits with the usage status.
    init<Options: Sendable>(name: String, arguments: String, optionsHint: String = "[options]", summary: String,
                            description: String, exitStatuses: [ExitNote], grammar: ArgumentGrammar<Options>,
                            execute: @escaping @Sendable (Options, Console) -> ExitStatus) {
        self.name = name
        self.arguments = arguments
        self.optionsHint = optionsHint
        self.summary = summary
        self.description = description
        self.exitStatuses = exitStatuses
        self.options = grammar.options.map(\.row)
        self.body = { command, arguments, console in
            let options: Options
            do throws(UsageError) {
                switch try grammar.parse(arguments) {
                case .help:
                    console.out(lines: command.help.lines)
                    return .success
                case .run(let parsed):
                    options = parsed
                }
            } catch {
                return Coursebook.usage(command.name, error, console: console)
            }
            return execute(options, console)
        }
    }

    func run(_ arguments: [String], console: Console) -> ExitStatus {
        body(self, arguments, console)
    }

    /// `check [COURSE_DIR | LESSON.md ...]`, as the overview lists it.
    var synopsis: String { arguments.isEmpty ? name : name + " " + arguments }

    /// `coursebook check [COURSE_DIR | LESSON.md ...] [options]`.
    var usage: String { "coursebook " + synopsis + " " + optionsHint }

    /// What `coursebook NAME --help` and `coursebook help NAME` print.
    var help: String {
        """
        usage: \(usage)

        \(description)

        options:
        \(optionLines(options + [OptionRow.help]))

        \(wrapped("exit status: ", exitStatuses.map(\.shown).joined(separator: ", ")))
        """
    }
}

/// What an exit status (or a few that mean one thing) means for one command.
struct ExitNote: Sendable, Equatable {
    var statuses: [ExitStatus]
    var words: String

    init(_ status: ExitStatus, _ words: String) {
        self.init(statuses: [status], words: words)
    }

    init(statuses: [ExitStatus], words: String) {
        self.statuses = statuses
        self.words = words
    }

    /// The three signals that stop any command.
    static let signals = ExitNote(statuses: [.hangUp, .interrupted, .terminated], words: "stopped by SIGHUP/SIGINT/SIGTERM")

    /// For `watch` and `serve`, whose usual end a signal is.
    var theUsualEnd: ExitNote { ExitNote(statuses: statuses, words: words + " (the usual end)") }

    /// `129/130/143 stopped by SIGHUP/SIGINT/SIGTERM`.
    var shown: String { statuses.map { String($0.rawValue) }.joined(separator: "/") + " " + words }
}

/// The notes several commands give, each written once here.
extension ExitNote {
    static let allPassed = ExitNote(.success, "all passed")
    static let written = ExitNote(.success, "written")
    static let aScenarioFailed = ExitNote(.checkFailed, "a scenario or a lesson failed")
    static let courseUnreadable = ExitNote(.courseUnreadable, "the course cannot be read")
    static let noCourseFolder = ExitNote(.courseUnreadable, "the course folder is not there")
    static let reportNotWritten = ExitNote(.siteNotWritten, "a report cannot be written")
    static let noCompiler = ExitNote(.toolchainUnavailable, "no Swift compiler")
    static let sandboxRequired = ExitNote(.sandboxUnavailable, "the sandbox is required and cannot start")
    static let wrongUsage = ExitNote(.usage, "wrong usage")
}

/// `lead` and then `text`, its words wrapped within 92 columns under the first one's start.
func wrapped(_ lead: String, _ text: String) -> String {
    var lines: [String] = []
    var line = lead
    for word in text.split(separator: " ") {
        if line.count > lead.count, line.count + 1 + word.count > 92 {
            lines.append(line)
            line = String(repeating: " ", count: lead.count)
        }
        line += (line.count == lead.count ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
}

/// How a command reads its arguments: its options' table, the options it starts from, what
/// it does with the positional arguments, and the combinations it refuses.
struct ArgumentGrammar<Options: Sendable>: Sendable {
    var options: [OptionSpec<Options>]
    var initial: Options
    var positionals: @Sendable (inout Options, [String]) throws(UsageError) -> Void
    /// Rejects options that are each valid but not together, with a message for the user.
    var validate: @Sendable (Options) throws(UsageError) -> Void = { _ in }

    /// Parses and validates a command line.
    func parse(_ arguments: [String]) throws(UsageError) -> Parsed<Options> {
        let parsed = try options.parse(arguments, into: initial, positionals: positionals)
        if case .run(let options) = parsed { try validate(options) }
        return parsed
    }
}

extension ArgumentGrammar {
    /// A command that takes at most one positional argument, the course folder.
    init(options: [OptionSpec<Options>], initial: Options, course: WritableKeyPath<Options, String> & Sendable,
         validate: @escaping @Sendable (Options) throws(UsageError) -> Void = { _ in }) {
        self.init(options: options, initial: initial, positionals: { options, positionals throws(UsageError) in
            guard positionals.count <= 1 else { throw UsageError(message: "unexpected argument '\(positionals[1])'") }
            if let folder = positionals.first { options[keyPath: course] = folder }
        }, validate: validate)
    }
}
