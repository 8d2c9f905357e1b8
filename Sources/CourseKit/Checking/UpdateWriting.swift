extension CheckReport {
    /// Writes the lesson files `--update` rewrote, each atomically and once. A file that
    /// cannot be written becomes an error, and its scenarios count as failed.
    package func writingRewrites() -> CheckReport {
        var report = self
        var written: [LessonRewrite] = []
        for rewrite in rewrites {
            do {
                try writeAtomically(rewrite.bytes, to: rewrite.path)
                written.append(rewrite)
            } catch {
                report.diagnostics.append(.error(
                    "update-failed", "cannot write the lesson: \(error)",
                    at: rewrite.updates.first.map { SourceLocation(file: $0.location.file, line: 1) }))
                for index in report.results.indices
                where report.results[index].lessonIndex == rewrite.lessonIndex && report.results[index].status == .passed {
                    report.results[index].status = .failed
                }
            }
        }
        report.rewrites = written
        return report
    }
}
