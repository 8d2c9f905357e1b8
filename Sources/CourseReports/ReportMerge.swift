import CourseModel

/// The JSON reports of a CI matrix's shards (`check --shard K/N --report shard-K.json`) joined
/// into one verdict, equal to what one check of the whole course reports: the scenarios of all
/// shards in course order, the findings in the order `check` gives them (each the core's
/// compile errors, which every shard that compiled may report, once).
package enum ReportMerge {
    /// Why the reports do not make one whole course.
    package struct Failure: Error, Sendable, Equatable {
        /// The report at fault, when one is.
        package var file: String?
        package var reason: String
    }

    package static func merge(_ reports: [(file: String, document: ReportDocument)]) throws(Failure) -> ReportDocument {
        guard let (firstFile, first) = reports.first else { throw Failure(file: nil, reason: "no reports to merge") }
        guard let count = first.scope.shard?.count else {
            throw Failure(file: firstFile, reason: "not the report of a shard (check --shard K/N --report FILE.json)")
        }
        var seen: [Int: String] = [:]
        for (file, document) in reports {
            guard let shard = document.scope.shard else {
                throw Failure(file: file, reason: "not the report of a shard (check --shard K/N --report FILE.json)")
            }
            guard shard.count == count else {
                throw Failure(file: file, reason: "shard \(shard) of another split than \(firstFile) (of \(count))")
            }
            guard document.course == first.course, document.files == first.files, document.scope.lessons == first.scope.lessons else {
                throw Failure(file: file, reason: "a report of another course (or another version of it) than \(firstFile)")
            }
            guard document.tool == first.tool, document.compiler == first.compiler else {
                throw Failure(file: file, reason: "made by another coursebook or compiler than \(firstFile)")
            }
            if let other = seen[shard.index] {
                throw Failure(file: file, reason: "shard \(shard) is also \(other)")
            }
            seen[shard.index] = file
        }
        let missing = (1...count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw Failure(file: nil, reason: "the shards do not make the whole course: missing \(missing.map { "\($0)/\(count)" }.joined(separator: ", "))")
        }

        let ordered = reports.sorted { $0.document.scope.shard!.index < $1.document.scope.shard!.index }.map(\.document)
        var rank: [String: Int] = [:]
        for (index, file) in first.files.enumerated() { rank[file] = index }
        func key(_ file: String?, _ line: Int?, _ column: Int?) -> (Int, Int, Int) {
            (file.flatMap { rank[$0] } ?? Int.max, line ?? 0, column ?? 0)
        }

        let scenarios = ordered.flatMap(\.scenarios).enumerated().sorted { left, right in
            let a = key(left.element.file, left.element.line, 0), b = key(right.element.file, right.element.line, 0)
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
        var findings: [ReportDocument.Finding] = []
        var kept = Set<ReportDocument.Finding>()
        for finding in ordered.flatMap(\.diagnostics).enumerated().sorted(by: { left, right in
            let a = key(left.element.file, left.element.line, left.element.column)
            let b = key(right.element.file, right.element.line, right.element.column)
            return a != b ? a < b : left.offset < right.offset
        }).map(\.element) where kept.insert(finding).inserted {
            findings.append(finding)
        }

        var merged = first
        merged.scope.shard = nil
        merged.scenarios = scenarios
        merged.diagnostics = findings
        func tally(_ status: String) -> Int { scenarios.filter { $0.status == status }.count }
        merged.summary = ReportDocument.Summary(
            passed: tally("passed"), failed: tally("failed"), skipped: tally("skipped"),
            errors: findings.filter { $0.severity == "error" }.count,
            warnings: findings.filter { $0.severity == "warning" }.count,
            notes: findings.filter { $0.severity == "note" }.count,
            compiled: ordered.reduce(0) { $0 + $1.summary.compiled },
            cached: ordered.reduce(0) { $0 + $1.summary.cached },
            compilerRuns: ordered.reduce(0) { $0 + $1.summary.compilerRuns })
        merged.succeeded = merged.summary.failed == 0 && merged.summary.errors == 0
        return merged
    }
}
