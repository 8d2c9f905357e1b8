@testable import CoursebookCLI
import CoursePipeline
import Testing

struct CommandLineOptionsTests {
    func build(_ arguments: [String]) throws(UsageError) -> BuildCommandOptions? {
        guard case .run(let options) = try CommandLineTable.build.parse(arguments, into: BuildCommandOptions(),
                                                                         course: \.shared.course) else { return nil }
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
        #expect(try build(["--cache-dir", "c", "--no-cache"])?.shared.cache == SharedOptions.Cache.none)
        #expect(try build(["--no-cache", "--cache-dir", "c"])?.shared.cache == SharedOptions.Cache.none)
    }

    @Test func doubleDashEndsOptionsAndHelpWins() throws {
        #expect(try build(["--", "--strict"])?.shared.course == "--strict")
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
    ])
    func errors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try build(arguments) }
    }

    /// The help text is made from the same table the parser reads: every option with its
    /// words (wrapped within 92 columns, in one column as wide as the widest name).
    @Test func helpListsEveryOptionOfTheTable() {
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        for (help, table) in [(HelpText.check, CommandLineTable.check.map { ($0.names, $0.help) }),
                              (HelpText.build, CommandLineTable.build.map { ($0.names, $0.help) })] {
            for (names, text) in table {
                #expect(help.contains("  " + names.joined(separator: ", ")))
                #expect(words(help).contains(text), "\(text)")
            }
            #expect(help.split(separator: "\n").allSatisfy { $0.count <= 92 })
        }
        #expect(HelpText.build.contains("""
              --out DIR                  the site's folder (required)
              --no-search                no search index, even when pagefind is installed
              --strict                   treat warnings as errors
              --timeout SECONDS          stop a scenario that runs longer (default 10)
              --compile-timeout SECONDS  stop a compiler run that takes longer (default 300)
              --sandbox MODE             auto (default): run scenarios in bubblewrap when it can start
                                         here; required: or not at all; off
            """))
    }
}
