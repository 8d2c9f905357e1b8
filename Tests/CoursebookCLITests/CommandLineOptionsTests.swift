@testable import CoursebookCLI
import CourseModel
import CoursePipeline
import Testing

struct CommandLineOptionsTests {
    func build(_ arguments: [String]) throws(UsageError) -> BuildCommandOptions? {
        guard case .run(let options) = try BuildCommand.grammar.parse(arguments) else { return nil }
        return options
    }

    @Test func flagsOptionsAndTheCourseFolderLandInTypedOptions() throws {
        let options = try #require(try build(["mycourse", "--strict", "--out", "site", "--timeout=2.5", "--cache-dir", "c"]))
        var expected = BuildCommandOptions()
        expected.shared.course = "mycourse"
        expected.shared.strict = true
        expected.shared.timeLimit = .milliseconds(2500)
        expected.shared.cache = .folder("c")
        expected.out = "site"
        #expect(options == expected)
    }

    @Test func noCacheWinsWhateverTheOrder() throws {
        #expect(try build(["--out", "s", "--cache-dir", "c", "--no-cache"])?.shared.cache == SharedOptions.Cache.none)
        #expect(try build(["--out", "s", "--no-cache", "--cache-dir", "c"])?.shared.cache == SharedOptions.Cache.none)
    }

    @Test func doubleDashEndsOptionsAndHelpWins() throws {
        #expect(try build(["--out", "s", "--", "--strict"])?.shared.course == "--strict")
        #expect(try build(["--out", "x", "--help"]) == nil)
        #expect(try build(["-h"]) == nil)
    }

    @Test(arguments: [
        (["--nope"], "unknown option '--nope'"),
        (["--update"], "unknown option '--update'"),
        (["--out"], "'--out' needs a value"),
        (["--out", "--strict"], "'--out' needs a value"),
        (["--out", "a", "--out", "b"], "'--out' is given twice"),
        (["--strict=1"], "'--strict' takes no value"),
        (["--timeout", "0"], "'--timeout' needs a number of seconds greater than 0, not '0'"),
        (["a", "b"], "unexpected argument 'b'"),
        (["a"], "'--out DIR' is required: the folder to write the site into"),
        (["--out="], "'--out' needs a folder"),
        (["--out", "", "a"], "'--out' needs a folder"),
    ])
    func errors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try build(arguments) }
    }

    /// The help text is made from the same table the parser reads: every option with its
    /// words (wrapped within 92 columns, in one column as wide as the widest name).
    @Test func helpListsEveryOptionOfTheTable() {
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        for command in Coursebook.commands {
            let help = command.help
            for option in command.options + [OptionRow.help] {
                #expect(help.contains("\n  " + option.shown + " "), "\(command.name) \(option.shown)")
                #expect(words(help).contains(option.help), "\(option.help)")
            }
            #expect(help.split(separator: "\n").allSatisfy { $0.count <= 92 })
        }
        #expect(Coursebook.build.help.contains("""
              --out DIR                   the site's folder (required)
              --no-search                 no search index, even when pagefind is installed
              --strict                    treat warnings as errors
              --timeout SECONDS           stop a scenario that runs longer (default 10)
              --compile-timeout SECONDS   stop a compiler run that takes longer (default 300)
              --memory-limit MIB          stop a scenario whose processes use more memory together, in
                                          MiB (default 512)
              --process-limit N           stop a scenario that runs this many processes and threads at
                                          once (default 256)
              --file-limit N              the files one process of a scenario may hold open (default
                                          256)
              --tmp-size MIB              the size of a scenario's /tmp and of its /dev/shm, each, and
                                          of its largest file, in MiB (default 64)
              --output-limit MIB          stop a scenario that prints more, in MiB (default 1)
              --compile-memory-limit MIB  stop a compiler job that uses more memory, in MiB (default
                                          1024)
              --sandbox MODE              auto (default): run scenarios in bubblewrap when it can start
                                          here; required: or not at all; off
            """))
    }

    func check(_ arguments: [String]) throws(UsageError) -> CheckCommandOptions? {
        guard case .run(let options) = try CheckCommand.grammar.parse(arguments) else { return nil }
        return options
    }

    /// `check` takes a course folder, or lesson files whose folder is then the course.
    @Test func checkTakesACourseOrItsLessons() throws {
        #expect(try check([])?.shared.course == "lessons")
        #expect(try check([])?.lessons == [])
        #expect(try check(["book"])?.shared.course == "book")
        let lessons = try #require(try check(["book/02-b.md", "--strict", "book/01-a.md"]))
        #expect(lessons.shared.course == "book")
        #expect(lessons.lessons == ["book/02-b.md", "book/01-a.md"])
        #expect(lessons.shared.strict)
        let here = try #require(try check(["01-a.md"]))
        #expect(here.shared.course == ".")
        #expect(here.lessons == ["01-a.md"])
        #expect(try check(["book/01-a.md", "./book/02-b.md"])?.shared.course == "book")
    }

    @Test func reportsRepeatFormatAndShardDoNot() throws {
        let options = try #require(try check(["--report", "a.json", "--report=b.xml", "--format", "github", "--shard", "2/3"]))
        #expect(options.shared.reports.map(\.path) == ["a.json", "b.xml"] && options.shared.reports.map(\.kind) == [.json, .junit])
        #expect(options.shared.format == .github)
        #expect(options.shard == Shard(index: 2, count: 3))
        #expect(throws: UsageError(message: "'--format' is given twice")) { try check(["--format", "text", "--format", "github"]) }
        #expect(throws: UsageError(message: "'--shard' is given twice")) { try check(["--shard", "1/2", "--shard", "2/2"]) }
        for bad in ["0/2", "2", "1/0", "a/b", "1/2/3", "-1/2", "1/1001"] {
            #expect(throws: UsageError(message: "'--shard' is K/N with 1 <= K <= N (2/4), not '\(bad)'")) { try check(["--shard=\(bad)"]) }
        }
    }
}

/// The registry's commands: one name each, and help that lists the exit statuses they end with.
struct SubcommandRegistryTests {
    @Test func everyNameIsOneCommand() {
        let names = Coursebook.commands.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(Coursebook.commands.allSatisfy { command in
            !Coursebook.topLevelOptions.contains { $0.names.contains(command.name) }
        })
    }

    /// Every command refuses a wrong command line with 64, so its help says so; no status is
    /// listed twice.
    @Test func everyCommandsHelpListsTheUsageStatusOnce() {
        for command in Coursebook.commands {
            let statuses = command.exitStatuses.flatMap(\.statuses)
            #expect(statuses.contains(.usage), "\(command.name)")
            #expect(Set(statuses).count == statuses.count, "\(command.name)")
            #expect(command.help.contains("\n" + wrapped("exit status: ", command.exitStatuses.map(\.shown).joined(separator: ", "))))
        }
        #expect(Coursebook.check.help.hasSuffix("""
            exit status: 0 all passed, 1 a scenario or a lesson failed, 2 the course cannot be read, 4 a
                         report cannot be written, 5 no Swift compiler, 6 the sandbox is required and
                         cannot start, 64 wrong usage, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM
            """))
    }

    /// A command's help and its usage errors go through the registry: `main` runs it by name.
    @Test func dispatchRunsTheCommandOfTheName() {
        for command in Coursebook.commands {
            let console = RecordingConsole()
            #expect(Coursebook.main([command.name, "--help"], console: console) == 0)
            #expect(console.standardOutput == command.help + "\n")
            let wrong = RecordingConsole()
            #expect(Coursebook.main([command.name, "--no-such-option"], console: wrong) == 64)
            #expect(wrong.standardError == "coursebook \(command.name): unknown option '--no-such-option'\nsee 'coursebook \(command.name) --help'\n")
        }
    }
}
