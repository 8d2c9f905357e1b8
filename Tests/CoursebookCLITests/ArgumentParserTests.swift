@testable import CoursebookCLI
import Testing

struct ArgumentParserTests {
    let spec = ArgumentSpec(flags: ["--strict", "-h"], options: ["--out", "--timeout"], maxPositionals: 1)

    @Test func flagsOptionsAndPositionals() throws {
        let parsed = try spec.parse(["lessons", "--strict", "--out", "site", "--timeout=3"])
        #expect(parsed == ParsedArguments(flags: ["--strict"], options: ["--out": "site", "--timeout": "3"],
                                          positionals: ["lessons"]))
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try spec.parse(["--", "--strict"]).positionals == ["--strict"])
    }

    @Test(arguments: [
        (["--nope"], "unknown option '--nope'"),
        (["--out"], "'--out' needs a value"),
        (["--out", "--strict"], "'--out' needs a value"),
        (["--out", "a", "--out", "b"], "'--out' is given twice"),
        (["--strict=1"], "'--strict' takes no value"),
        (["a", "b"], "unexpected argument 'b'"),
    ])
    func errors(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try spec.parse(arguments) }
    }
}
