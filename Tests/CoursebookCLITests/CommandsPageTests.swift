@testable import CoursebookCLI
import Foundation
import Testing

/// docs/commands.md's tables of commands and options are the ones the command registry writes
/// (`CommandsPage`); the prose around them is the manual's own. `COURSEBOOK_RECORD_DOCS=1` (or
/// `make docs-reference`) writes the tables into the page again.
struct CommandsPageTests {
    static let page = packageRoot.appendingPathComponent("docs/commands.md")

    @Test func theManualsTablesAreTheOnesTheRegistryWrites() throws {
        let onDisk = try String(contentsOf: Self.page, encoding: .utf8)
        let written = try CommandsPage.regenerated(onDisk)
        if ProcessInfo.processInfo.environment["COURSEBOOK_RECORD_DOCS"] == "1" {
            try written.write(to: Self.page, atomically: true, encoding: .utf8)
            return
        }
        #expect(onDisk == written, "the tables of docs/commands.md are not what the command registry writes; run 'make docs-reference'")
    }

    /// Every command and every option of it has its row, `|` in a synopsis escaped.
    @Test func everyCommandAndOptionHasARow() {
        let commands = CommandsPage.commandsTable
        #expect(commands.contains("| `coursebook check [COURSE_DIR \\| LESSON.md ...]` | run the scenarios"))
        for command in Coursebook.commands {
            #expect(commands.contains("| `coursebook \(command.synopsis.replacingOccurrences(of: "|", with: "\\|"))` | \(command.summary) |"))
        }
        #expect(commands.contains("| `coursebook --help`, `coursebook -h` | show this help |"))
        for command in Coursebook.subcommands {
            let table = CommandsPage.optionsTable(command.options)
            for option in command.options {
                #expect(table.contains("| `\(option.names[0])\(option.value.map { " \($0)" } ?? "")` | \(option.manual)"), "\(command.name) \(option.names[0])")
            }
        }
        #expect(CommandsPage.optionsTable(Coursebook.build.options)
            .contains("| `--out DIR` | the site's folder (required) |\n"))
    }

    /// Each command's section is headed by its usage line, and its options' table stands in
    /// that section (after its heading, before the next one).
    @Test func eachCommandsTableIsInTheSectionOfItsUsage() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        for command in Coursebook.subcommands {
            let heading = try #require(page.range(of: "\n## `\(command.usage)`\n"), "no heading '## `\(command.usage)`'")
            let region = try #require(page.range(of: CommandsPage.begin("options of '\(command.name)'")))
            let next = page.range(of: "\n## ", range: heading.upperBound..<page.endIndex)?.lowerBound ?? page.endIndex
            #expect(heading.upperBound <= region.lowerBound && region.upperBound <= next, "\(command.name)")
        }
    }

    /// A page without a command's region, with a region left open, or with a region of a
    /// command that is not there is refused, naming the region.
    @Test func aRegionMissingOpenOrUnknownIsRefused() throws {
        let page = try CommandsPage.regenerated(String(contentsOf: Self.page, encoding: .utf8))
        let check = "options of 'check'"
        #expect(throws: CommandsPageError.missing(check)) {
            try CommandsPage.regenerated(page.replacingOccurrences(of: CommandsPage.begin(check), with: ""))
        }
        #expect(throws: CommandsPageError.unclosed(check)) {
            try CommandsPage.regenerated(page.replacingOccurrences(of: CommandsPage.end(check), with: ""))
        }
        let gone = CommandsPage.begin("options of 'publish'")
        #expect(throws: CommandsPageError.unknown(String(gone.dropLast()))) {
            try CommandsPage.regenerated(page + "\n" + gone + CommandsPage.end("options of 'publish'"))
        }
    }
}
