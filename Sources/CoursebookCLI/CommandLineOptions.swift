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
/// and the manual's tables (docs/commands.md, `CommandsPage`) read it.
struct OptionSpec<Options>: Sendable {
    var names: [String]
    var value: String?
    var help: String
    /// The manual's words for it, when they say more than `help`.
    var manual: String?
    /// Whether the option may be given more than once (`--report a.json --report b.xml`).
    var repeatable = false
    /// Why the command needs it, for an option that must be given (`--out` of `build`).
    var required: String?
    var apply: @Sendable (inout Options, String?) throws(UsageError) -> Void

    init(names: [String], value: String?, help: String, manual: String? = nil, repeatable: Bool = false,
         required: String? = nil, apply: @escaping @Sendable (inout Options, String?) throws(UsageError) -> Void) {
        self.names = names
        self.value = value
        self.help = help
        self.manual = manual
        self.repeatable = repeatable
        self.required = required
        self.apply = apply
    }

    var isFlag: Bool { value == nil }

    /// The option as help and the manual show it.
    var row: OptionRow {
        OptionRow(names: names, value: value, help: help, manual: manual ?? help, required: required)
    }
}

extension OptionRow {
    /// `--help, -h`, which every command takes (the parser answers it before any table).
    static let help = OptionRow(names: ["--help", "-h"], value: nil, help: "show this help",
                                manual: "show the command's help", required: nil)
}

/// The options of the commands, each declared once: those several commands share are made
/// here and composed into each command's table (`CheckCommand.grammar` ...).
enum CommandLineTable {
    /// The options of every command that checks a course (`check`, `build`, `watch`, `serve`,
    /// `lsp`), applied to their shared part.
    static func shared<Options>(_ part: WritableKeyPath<Options, SharedOptions> & Sendable) -> [OptionSpec<Options>] {
        [
            OptionSpec(names: ["--strict"], value: nil, help: "treat warnings as errors") { options, _ in
                options[keyPath: part].strict = true
            },
            OptionSpec(names: ["--timeout"], value: "SECONDS", help: "stop a scenario that runs longer (default 10)",
                       manual: "stop a scenario that runs longer (default 10; fractions down to 0.001 allowed)") { options, text throws(UsageError) in
                options[keyPath: part].timeLimit = try duration(text, option: "--timeout")
            },
            OptionSpec(names: ["--compile-timeout"], value: "SECONDS", help: "stop a compiler run that takes longer (default 300)",
                       manual: "stop a compiler run that takes longer (default 300; fractions down to 0.001 allowed)") { options, text throws(UsageError) in
                options[keyPath: part].compileTimeLimit = try duration(text, option: "--compile-timeout")
            },
        ] + limits(part) + caching(part)
    }

    /// What a scenario (or the compiler) may take of the machine, and the sandbox it runs in.
    static func limits<Options>(_ part: WritableKeyPath<Options, SharedOptions> & Sendable) -> [OptionSpec<Options>] {
        [
            OptionSpec(names: ["--memory-limit"], value: "MIB", help: "stop a scenario whose processes use more memory together, in MiB (default 512)",
                       manual: "stop a scenario whose processes use more memory together, in MiB (default 512; 16 at least); no process of it gets more") { options, text throws(UsageError) in
                options[keyPath: part].limits.memory = try count(text, option: "--memory-limit", least: 16, most: 1 << 20) << 20
            },
            OptionSpec(names: ["--process-limit"], value: "N", help: "stop a scenario that runs this many processes and threads at once (default 256)",
                       manual: "stop a scenario that runs this many processes and threads at once (default 256; 8 at least)") { options, text throws(UsageError) in
                options[keyPath: part].limits.processes = try count(text, option: "--process-limit", least: 8, most: 1 << 22)
            },
            OptionSpec(names: ["--file-limit"], value: "N", help: "the files one process of a scenario may hold open (default 256)",
                       manual: "the files one process of a scenario may hold open (default 256; 16 at least)") { options, text throws(UsageError) in
                options[keyPath: part].limits.openFiles = try count(text, option: "--file-limit", least: 16, most: 1 << 20)
            },
            OptionSpec(names: ["--tmp-size"], value: "MIB", help: "the size of a scenario's /tmp and of its /dev/shm, each, and of its largest file, in MiB (default 64)",
                       manual: "the size of a scenario's `/tmp` and of its `/dev/shm`, each, and of its largest file, in MiB (default 64)") { options, text throws(UsageError) in
                options[keyPath: part].limits.temporarySpace = try count(text, option: "--tmp-size", least: 1, most: 1 << 20) << 20
            },
            OptionSpec(names: ["--output-limit"], value: "MIB", help: "stop a scenario that prints more, in MiB (default 1)") { options, text throws(UsageError) in
                options[keyPath: part].outputCap = try count(text, option: "--output-limit", least: 1, most: 1 << 12) << 20
            },
            OptionSpec(names: ["--compile-memory-limit"], value: "MIB", help: "stop a compiler job that uses more memory, in MiB (default 1024)",
                       manual: "stop a compiler job that uses more memory, in MiB (default 1024; 128 at least)") { options, text throws(UsageError) in
                options[keyPath: part].limits.compilerMemory = try count(text, option: "--compile-memory-limit", least: 128, most: 1 << 20) << 20
            },
            OptionSpec(names: ["--sandbox"], value: "MODE", help: "auto (default): run scenarios in bubblewrap when it can start here; required: or not at all; off",
                       manual: "`auto` (default): run scenarios in the sandbox when it can start here, else without it, said in one line; `required`: in the sandbox or not at all (exit status 6), for CI; `off`: without it") { options, text throws(UsageError) in
                guard let text, let mode = SandboxMode(rawValue: text) else {
                    throw UsageError(message: "'--sandbox' is auto, required or off, not '\(text ?? "")'")
                }
                options[keyPath: part].sandbox = mode
            },
            OptionSpec(names: ["--no-sandbox"], value: nil, help: "run scenarios without the sandbox (same as --sandbox off)",
                       manual: "run scenarios without the sandbox (the same as `--sandbox off`)") { options, _ in
                options[keyPath: part].sandbox = .off
            },
        ]
    }

    /// Where results are kept between runs.
    static func caching<Options>(_ part: WritableKeyPath<Options, SharedOptions> & Sendable) -> [OptionSpec<Options>] {
        [
            OptionSpec(names: ["--no-cache"], value: nil, help: "compile and run every scenario, ignoring cached results",
                       manual: "compile and run every scenario, ignoring and not writing cached results") { options, _ in
                options[keyPath: part].cache = .none
            },
            OptionSpec(names: ["--cache-dir"], value: "DIR", help: "keep cached results in DIR (default COURSE_DIR/.coursebook-cache)",
                       manual: "keep cached results in DIR (default `COURSE_DIR/.coursebook-cache`); made when missing; an empty name, a file, or a folder that cannot be made is a usage error (exit 64)") { options, folder throws(UsageError) in
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
    static func reporting<Options>(_ reports: WritableKeyPath<Options, [ReportFile]> & Sendable,
                                   _ format: WritableKeyPath<Options, DiagnosticStyle?> & Sendable) -> [OptionSpec<Options>] {
        [
            OptionSpec(names: ["--report"], value: "FILE", help: "also write the result to FILE: JUnit XML when it ends in .xml, JSON when it ends in .json (repeatable)",
                       manual: "also write the result to FILE, whatever the check found: JUnit XML when it ends in `.xml`, the JSON report when it ends in `.json`; may be given more than once. A file that cannot be written is exit status 4, and so is a FILE that is a symbolic link (it is left as it is: give the path of the file itself).",
                       repeatable: true) { options, file throws(UsageError) in
                guard let file, let report = ReportFile(path: file) else {
                    throw UsageError(message: "'--report' writes a .json or a .xml file, not '\(file ?? "")'")
                }
                options[keyPath: reports].append(report)
            },
            OptionSpec(names: ["--format"], value: "STYLE", help: "text, or github: findings as GitHub Actions annotations (the default when GITHUB_ACTIONS=true)",
                       manual: "`text` (default): findings on standard error as `file:line:column: error: ...`; `github`: findings as GitHub Actions annotations on standard output. `github` is the default when `GITHUB_ACTIONS=true`.") { options, text throws(UsageError) in
                guard let text, let style = DiagnosticStyle(rawValue: text) else {
                    throw UsageError(message: "'--format' is text or github, not '\(text ?? "")'")
                }
                options[keyPath: format] = style
            },
        ]
    }

    /// `--out DIR`: the folder a site is written into (an empty name is no folder).
    static func out<Options>(help: String, required: String? = nil,
                             _ set: @escaping @Sendable (inout Options, String) -> Void) -> OptionSpec<Options> {
        OptionSpec(names: ["--out"], value: "DIR", help: help, required: required) { options, folder throws(UsageError) in
            guard let folder, !folder.isEmpty else { throw UsageError(message: "'--out' needs a folder") }
            set(&options, folder)
        }
    }

    /// `--no-search`: a site without a search index.
    static func noSearch<Options>(_ search: WritableKeyPath<Options, Bool> & Sendable) -> OptionSpec<Options> {
        OptionSpec(names: ["--no-search"], value: nil, help: "no search index, even when pagefind is installed") { options, _ in
            options[keyPath: search] = false
        }
    }
}

/// What a command line asks for: the options, or the command's help.
enum Parsed<Options> {
    case run(Options)
    case help
}

extension Array {
    /// Parses a command's arguments with this table: flags, options with a value (`--out DIR`
    /// or `--out=DIR`), `--` before arguments that start with a dash; every positional
    /// argument, in order, goes to `positionals`. Anything else is a usage error that names
    /// the argument, and so is a required option left out.
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
        if let missing = first(where: { $0.required != nil && !given.contains($0.names[0]) }), let why = missing.required {
            throw UsageError(message: "'\(missing.row.shown)' is required: \(why)")
        }
        return .run(options)
    }
}

/// The option lines of a help text: names and value, then the help (and whether the option
/// must be given), in two columns.
func optionLines(_ table: [OptionRow]) -> String {
    columns(table.map { ($0.shown, $0.help + ($0.required == nil ? "" : " (required)")) })
}

/// Rows of two columns, indented by two: the left one as wide as `width` (the widest left
/// text, by default) and two more, the right one's words wrapped within 92 columns.
func columns(_ rows: [(String, String)], width widest: Int? = nil) -> String {
    let width = (widest ?? rows.map(\.0.count).max() ?? 0) + 2
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
