import CoursePipeline
import Foundation
import Testing
import TestSupport

/// The table of exit statuses in `docs/commands.md` is the one `ExitStatus.manualTable` writes.
/// `COURSEBOOK_RECORD_DOCS=1` (or `make docs-reference`) writes it into the page again.
struct ExitStatusTableTests {
    static let page = packageRoot.appendingPathComponent("docs/commands.md")
    static let heading = "## Exit statuses\n\n"

    @Test func theManualsTableIsTheOneTheStatusesWrite() throws {
        var text = try String(contentsOf: Self.page, encoding: .utf8)
        let table = try #require(Self.table(in: text), "docs/commands.md has no table under '## Exit statuses'")
        if ProcessInfo.processInfo.environment["COURSEBOOK_RECORD_DOCS"] == "1" {
            text.replaceSubrange(table, with: ExitStatus.manualTable)
            try text.write(to: Self.page, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[table]) == ExitStatus.manualTable,
                "the exit statuses of docs/commands.md are not what ExitStatus writes; run 'make docs-reference'")
    }

    @Test func everyStatusHasARow() {
        let table = ExitStatus.manualTable
        for status in ExitStatus.allCases {
            #expect(table.contains("| \(status.rawValue) |") || table.contains(" \(status.rawValue),") || table.contains(", \(status.rawValue) |"),
                    "\(status)")
        }
        #expect(table.contains("| 129, 130, 143 |"), "the three signals share one row")
    }

    /// The lines of the table that follows the heading, through its last row's newline.
    static func table(in text: String) -> Range<String.Index>? {
        guard let heading = text.range(of: heading) else { return nil }
        var end = heading.upperBound
        while end < text.endIndex, text[end] == "|" {
            guard let newline = text[end...].firstIndex(of: "\n") else { return nil }
            end = text.index(after: newline)
        }
        return end > heading.upperBound ? heading.upperBound..<end : nil
    }
}
