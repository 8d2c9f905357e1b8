import CourseModel
import CoursePipeline
import CourseReports
import AuthorLoop

/// A wrong command line, in words for the user.
struct UsageError: Error, Equatable {
    var message: String
}

/// One option of a command: its names, the value it takes (nil for a flag), the line `--help`
/// shows for it, and what it sets in the command's typed options. The parser, the help text
/// and the manual's tables (docs/commands.md) repeat these.
struct OptionSpec<Options>: Sendable {
    var names: [String]
    var value: String?
    var help: String
    /// Whether the option may be given more than once (`--report a.json --report b.xml`).
    var repeatable = false
    var apply: @Sendable (inout Options, String?) throws(UsageError) -> Void

    init(names: [String], value: String?, help: String, repeatable: Bool = false,
         apply: @escaping @Sendable (inout Options, String?) throws(UsageError) -> Void) {
        self.names = names
        self.value = value
        self.help = help
        self.repeatable = repeatable
        self.apply = apply
    }

    var isFlag: Bool { value == nil }
}

/// The options of `check` and `build`, one table each.
enum CommandLineTable {
    static let help = "show this help"

    /// The options both commands take, applied to their shared part.
    static func shared<Options>(_ part: WritableKeyPath<Options, SharedOptions> & Sendable) -> [OptionSpec<Options>] {
        [
            OptionSpec(names: ["--strict"], value: nil, help: "treat warnings as errors") { options, _ in
                options[keyPath: part].strict = true
            },
            OptionSpec(names: ["--timeout"], value: "SECONDS", help: "stop a scenario that runs longer (default 10)") { options, text throws(UsageError) in
                options[keyPath: part].timeLimit = try duration(text, option: "--timeout")
            },
            OptionSpec(names: ["--compile-timeout"], value: "SECONDS", help: "stop a compiler run that takes longer (default 300)") { options, text throws(UsageError) in
                options[keyPath: part].compileTimeLimit = try duration(text, option: "--compile-timeout")
            },
            OptionSpec(names: ["--memory-limit"], value: "MIB", help: "stop a scenario whose processes use more memory together, in MiB (default 512)") { options, text throws(UsageError) in
                options[keyPath: part].limits.memory = try count(text, option: "--memory-limit", least: 16, most: 1 << 20) << 20
            },
            OptionSpec(names: ["--process-limit"], value: "N", help: "stop a scenario that runs this many processes and threads at once (default 256)") { options, text throws(UsageError) in
                options[keyPath: part].limits.processes = try count(text, option: "--process-limit", least: 8, most: 1 << 22)
            },
            OptionSpec(names: ["--file-limit"], value: "N", help: "the files one process of a scenario may hold open (default 256)") { options, text throws(UsageError) in
                options[keyPath: part].limits.openFiles = try count(text, option: "--file-limit", least: 16, most: 1 << 20)
            },
            OptionSpec(names: ["--tmp-size"], value: "MIB", help: "the size of a scenario's /tmp and of its /dev/shm, each, and of its largest file, in MiB (default 64)") { options, text throws(UsageError) in
                options[keyPath: part].limits.temporarySpace = try count(text, option: "--tmp-size", least: 1, most: 1 << 20) << 20
            },
            OptionSpec(names: ["--output-limit"], value: "MIB", help: "stop a scenario that prints more, in MiB (default 1)") { options, text throws(UsageError) in
                options[keyPath: part].outputCap = try count(text, option: "--output-limit", least: 1, most: 1 << 12) << 20
            },
            OptionSpec(names: ["--compile-memory-limit"], value: "MIB", help: "stop a compiler job that uses more memory, in MiB (default 1024)") { options, text throws(UsageError) in
                options[keyPath: part].limits.compilerMemory = try count(text, option: "--compile-memory-limit", least: 128, most: 1 << 20) << 20
            },
            OptionSpec(names: ["--sandbox"], value: "MODE", help: "auto (default): run scenarios in bubblewrap when it can start here; required: or not at all; off") { options, text throws(UsageError) in
                guard let text, let mode = SandboxMode(rawValue: text) else {
                    throw UsageError(message: "'--sandbox' is auto, required or off, not '\(text ?? "")'")
                }
                options[keyPath: part].sandbox = mode
            },
            OptionSpec(names: ["--no-sandbox"], value: nil, help: "run scenarios without the sandbox (same as --sandbox off)") { options, _ in
                options[keyPath: part].sandbox = .off
            },
            OptionSpec(names: ["--no-cache"], value: nil, help: "compile and run every scenario, ignoring cached results") { options, _ in
                options[keyPath: part].cache = .none
            },
            OptionSpec(names: ["--cache-dir"], value: "DIR", help: "keep cached results in DIR (default COURSE_DIR/.coursebook-cache)") { options, folder throws(UsageError) in
                // An empty name would put the cache into the current folder.
                guard let folder, !folder.isEmpty else { throw UsageError(message: "'--cache-dir' needs a folder, not an empty name") }
                // `--no-cache` wins, whichever comes first.
                if options[keyPath: part].cache != .none { options[keyPath: part].cache = .folder(folder) }
            },
        ]
    }

    /// A whole number from `least` to `most`.
    static func count(_ text: String?, option: String, least: Int, most: Int) throws(UsageError) -> Int {
        guard let text, let number = Int(text), number >= least, number <= most else {
            throw UsageError(message: "'\(option)' needs a whole number from \(least) to \(most), not '\(text ?? "")'")
        }
        return number
    }

    /// A number of seconds greater than 0, as a duration.
    static func duration(_ text: String?, option: String) throws(UsageError) -> Duration {
        guard let text, let seconds = Double(text), seconds > 0, seconds.isFinite, seconds < 1e6 else {
            throw UsageError(message: "'\(option)' needs a number of seconds greater than 0, not '\(text ?? "")'")
        }
        // Limits are kept in milliseconds: a shorter one would stop every run at once.
        guard seconds >= 0.001 else {
            throw UsageError(message: "'\(option)' needs at least 0.001 seconds (1 ms), not '\(text)'")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `--report` and `--format`: what a CI reads.
    static func reporting<Options>(_ reports: WritableKeyPath<Options, [String]> & Sendable,
                                   _ format: WritableKeyPath<Options, DiagnosticStyle?> & Sendable) -> [OptionSpec<Options>] {
        [
            OptionSpec(names: ["--report"], value: "FILE", help: "also write the result to FILE: JUnit XML when it ends in .xml, JSON when it ends in .json (repeatable)", repeatable: true) { options, file throws(UsageError) in
                guard let file, ReportKind(path: file) != nil else {
                    throw UsageError(message: "'--report' writes a .json or a .xml file, not '\(file ?? "")'")
                }
                options[keyPath: reports].append(file)
            },
            OptionSpec(names: ["--format"], value: "STYLE", help: "text, or github: findings as GitHub Actions annotations (the default when GITHUB_ACTIONS=true)") { options, text throws(UsageError) in
                guard let text, let style = DiagnosticStyle(rawValue: text) else {
                    throw UsageError(message: "'--format' is text or github, not '\(text ?? "")'")
                }
                options[keyPath: format] = style
            },
        ]
    }

    static let check: [OptionSpec<CheckCommandOptions>] = [
        OptionSpec(names: ["--update"], value: nil, help: "rewrite 'output' and 'swift core' blocks from this run") { options, _ in
            options.update = true
        },
        OptionSpec(names: ["--shard"], value: "K/N", help: "run the K-th of N shares of the scenarios (course-wide rules on 1/N only), for a CI matrix") { options, text throws(UsageError) in
            guard let text, let shard = Shard(text) else {
                throw UsageError(message: "'--shard' is K/N with 1 <= K <= N (2/4), not '\(text ?? "")'")
            }
            options.shard = shard
        },
    ] + shared(\.shared) + reporting(\.shared.reports, \.shared.format)

    static let build: [OptionSpec<BuildCommandOptions>] = [
        OptionSpec(names: ["--out"], value: "DIR", help: "the site's folder (required)") { options, folder in
            options.out = folder ?? ""
        },
        OptionSpec(names: ["--no-search"], value: nil, help: "no search index, even when pagefind is installed") { options, _ in
            options.search = false
        },
    ] + shared(\.shared) + reporting(\.shared.reports, \.shared.format)

    static let watch: [OptionSpec<WatchCommandOptions>] = [
        OptionSpec(names: ["--out"], value: "DIR", help: "also rebuild the site into DIR after each check that passes") { options, folder in
            options.out = folder ?? ""
        },
        OptionSpec(names: ["--no-search"], value: nil, help: "no search index, even when pagefind is installed") { options, _ in
            options.search = false
        },
    ] + shared(\.shared)

    static let serve: [OptionSpec<ServeCommandOptions>] = [
        OptionSpec(names: ["--port"], value: "N", help: "the port on 127.0.0.1 (default 8000; 0 for any free one)") { options, text throws(UsageError) in
            guard let text, let port = UInt16(text) else {
                throw UsageError(message: "'--port' is a number from 0 to 65535, not '\(text ?? "")'")
            }
            options.port = port
        },
        OptionSpec(names: ["--no-search"], value: nil, help: "no search index, even when pagefind is installed") { options, _ in
            options.search = false
        },
    ] + shared(\.shared)

    static let newLesson: [OptionSpec<NewLessonOptions>] = [
        OptionSpec(names: ["--errors"], value: nil, help: "a scenario the compiler must refuse: an empty 'errors' block instead of the 'output' block") { options, _ in
            options.errors = true
        },
    ]

    static let lsp: [OptionSpec<LanguageServerOptions>] = [
        OptionSpec(names: ["--stdio"], value: nil, help: "talk on standard input and output (the only way; editors that pass it are welcome)") { _, _ in },
        OptionSpec(names: ["--debounce"], value: "SECONDS", help: "how long typing must pause before the unsaved text is checked (default 0.3)") { options, text throws(UsageError) in
            options.debounce = try duration(text, option: "--debounce")
        },
    ] + shared(\.shared)

    static let mergeReports: [OptionSpec<MergeReportsOptions>] = reporting(\.reports, \.format)
}

/// What a command line asks for: the options, or the command's help.
enum Parsed<Options> {
    case run(Options)
    case help
}

extension Array {
    /// Parses a command's arguments with this table: flags, options with a value (`--out DIR`
    /// or `--out=DIR`), `--` before arguments that start with a dash, at most one positional
    /// argument (the course folder). Anything else is a usage error that names the argument.
    func parse<Options>(_ arguments: [String], into initial: Options,
                        course: WritableKeyPath<Options, String>) throws(UsageError) -> Parsed<Options>
    where Element == OptionSpec<Options> {
        try parse(arguments, into: initial) { (options: inout Options, positionals: [String]) throws(UsageError) in
            guard positionals.count <= 1 else { throw UsageError(message: "unexpected argument '\(positionals[1])'") }
            if let folder = positionals.first { options[keyPath: course] = folder }
        }
    }

    /// Parses as above, handing every positional argument, in order, to `positionals`.
    func parse<Options>(_ arguments: [String], into initial: Options,
                        positionals take: (inout Options, [String]) throws(UsageError) -> Void) throws(UsageError) -> Parsed<Options>
    where Element == OptionSpec<Options> {
        var options = initial
        var positionals: [String] = []
        var given: Set<String> = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "--help" || name == "-h" {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value") }
                return .help
            }
            guard let spec = first(where: { $0.names.contains(name) }) else {
                throw UsageError(message: "unknown option '\(name)'")
            }
            if spec.isFlag {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value") }
                try spec.apply(&options, nil)
                continue
            }
            guard given.insert(spec.names[0]).inserted || spec.repeatable else {
                throw UsageError(message: "'\(name)' is given twice")
            }
            if let inlineValue {
                try spec.apply(&options, inlineValue)
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError(message: "'\(name)' needs a value")
                }
                try spec.apply(&options, arguments[index])
                index += 1
            }
        }
        try take(&options, positionals)
        return .run(options)
    }
}

/// The option lines of a help text: names and value, then the help, in two columns.
func optionLines<Options>(_ table: [OptionSpec<Options>]) -> String {
    let rows = table.map { spec in
        (spec.names.joined(separator: ", ") + (spec.value.map { " \($0)" } ?? ""), spec.help)
    } + [("--help, -h", CommandLineTable.help)]
    // One column for the names, as wide as the widest; the words wrap within 92 columns.
    let width = (rows.map(\.0.count).max() ?? 0) + 2
    return rows.map { left, right in
        var lines: [String] = []
        var line = ""
        for word in right.split(separator: " ") {
            if !line.isEmpty, 2 + width + line.count + 1 + word.count > 92 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        let indent = String(repeating: " ", count: 2 + width)
        return "  " + left + String(repeating: " ", count: width - left.count) + lines.joined(separator: "\n" + indent)
    }.joined(separator: "\n")
}
