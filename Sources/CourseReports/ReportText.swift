import CourseModel

/// The lines a check ends with, as `check` prints them and as the preview shows a failed check:
/// how much was compiled, the count of errors and warnings, the tally.
package enum ReportText {
    /// `compiled 3 scenarios (1 swiftc run), 297 from the cache`
    package static func statistics(compiled: Int, compilerRuns: Int, fromCache: Int, cacheUsed: Bool) -> String {
        var line = "compiled " + counted(compiled, "scenario")
        if compilerRuns > 0 { line += " (\(counted(compilerRuns, "swiftc run")))" }
        line += cacheUsed ? ", \(fromCache) from the cache" : ", cache not used"
        return line
    }

    package static func statistics(_ report: CheckReport, cacheUsed: Bool) -> String {
        statistics(compiled: report.compiledCount, compilerRuns: report.compilerRuns, fromCache: report.cachedCount,
                   cacheUsed: cacheUsed)
    }

    /// `1 error, 2 warnings` (`, 1 note` when there are notes), or nil when there is nothing.
    /// Notes (what was left out, such as a scenario's diagrams) are counted, never failed on.
    package static func findingCounts(errors: Int, warnings: Int, notes: Int = 0) -> String? {
        guard errors > 0 || warnings > 0 || notes > 0 else { return nil }
        return counted(errors, "error") + ", " + counted(warnings, "warning") + (notes > 0 ? ", " + counted(notes, "note") : "")
    }

    /// A check's findings and its closing lines as plain text (no colour): what the preview
    /// shows in place of a site when the check failed.
    package static func plain(_ report: CheckReport, cacheUsed: Bool) -> String {
        let formatter = DiagnosticFormatter(colors: false)
        var lines = report.diagnostics.map(formatter.format)
        if !lines.isEmpty { lines.append("") }
        lines.append(statistics(report, cacheUsed: cacheUsed))
        if let counts = findingCounts(errors: report.errorCount, warnings: report.warningCount, notes: report.noteCount) {
            lines.append(counts)
        }
        lines.append(report.summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `1 lesson`, `3 lessons`.
package func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
