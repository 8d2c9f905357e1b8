import CourseModel
import CourseReports
import Foundation
import Testing
import TestSupport

/// `docs/diagnostics.md` is the page `DiagnosticsPage` writes from the table of findings, so the
/// manual names every id the tool reports, at the severity it reports it.
/// `COURSEBOOK_RECORD_DOCS=1` (or `make docs-reference`) writes the page again.
struct DiagnosticsPageTests {
    static let page = packageRoot.appendingPathComponent("docs/diagnostics.md")

    @Test func theManualsPageIsTheOneTheTableWrites() throws {
        let written = DiagnosticsPage.markdown()
        if ProcessInfo.processInfo.environment["COURSEBOOK_RECORD_DOCS"] == "1" {
            try written.write(to: Self.page, atomically: true, encoding: .utf8)
        }
        let onDisk = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(onDisk == written, "docs/diagnostics.md is not what the table of findings writes; run 'make docs-reference'")
    }

    @Test func everyIdHasASectionAndARow() {
        let written = DiagnosticsPage.markdown()
        for id in DiagnosticID.allCases {
            #expect(written.contains("\n## \(id.rawValue)\n"), "\(id.rawValue)")
            #expect(written.contains("| [`\(id.rawValue)`](#\(id.rawValue)) |"), "\(id.rawValue)")
        }
    }

    @Test func anExampleIsAMessageOfItsSeverity() {
        for id in DiagnosticID.allCases {
            let reference = id.reference
            #expect(!reference.example.isEmpty && !reference.fix.isEmpty, "\(id.rawValue)")
            #expect(!reference.example.hasSuffix("."), "\(id.rawValue): coursebook's messages end without a full stop")
        }
    }
}
