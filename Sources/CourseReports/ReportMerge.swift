import CourseChecking
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

        try checkScenarios(reports, count: count)

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

    /// What each shard claims, against what a real shard holds (`ShardPlan`: every scenario
    /// that runs goes to exactly one shard, the costliest first, each to the shard with the
    /// least work, so that shards 1 to M each get one before any gets a second; skipped
    /// scenarios are shard 1's): each scenario in one shard only and in a lesson of the course,
    /// a status that its output bears out, no empty shard where the split would have given it
    /// a scenario, no finding of a kind or severity this coursebook does not know. A report
    /// that says "passed" for an output that differs from its block cannot turn the merged
    /// verdict green.
    static func checkScenarios(_ reports: [(file: String, document: ReportDocument)], count: Int) throws(Failure) {
        var owner: [String: String] = [:]
        var running: [Int: Int] = [:]
        for (file, document) in reports {
            let shard = document.scope.shard!
            let lessons = Set(document.scope.lessons ?? document.files.dropFirst().filter { $0.hasSuffix(".md") })
            func refuse(_ reason: String) -> Failure { Failure(file: file, reason: reason) }
            for finding in document.diagnostics + document.scenarios.flatMap(\.findings) {
                guard Diagnostic.Severity(rawValue: finding.severity) != nil else {
                    throw refuse("a finding of severity '\(finding.severity)'; findings are errors, warnings or notes")
                }
                guard DiagnosticID(rawValue: finding.id) != nil else {
                    throw refuse("a finding of a kind this coursebook does not know ('\(finding.id)')")
                }
            }
            for scenario in document.scenarios {
                let place = "\(scenario.file):\(scenario.line)"
                guard lessons.contains(scenario.file) else {
                    throw refuse("the scenario at \(place) is in no lesson of the report's course")
                }
                if let other = owner[place] {
                    throw refuse("the scenario at \(place) is also in \(other); each scenario is in exactly one shard")
                }
                owner[place] = file
                if let problem = inconsistency(scenario, shard: shard) { throw refuse("the scenario at \(place) \(problem)") }
                if scenario.status != "skipped" { running[shard.index, default: 0] += 1 }
            }
        }
        // Shards 1 to M hold one scenario each before any holds two: an empty shard among them
        // dropped what it ran.
        let total = running.values.reduce(0, +)
        for (file, document) in reports {
            let shard = document.scope.shard!
            if running[shard.index, default: 0] == 0, shard.index <= total {
                throw Failure(file: file, reason: "shard \(shard) holds no scenario, but the shards hold \(counted(total, "scenario")) between them: a split of \(count) gives each of the first \(min(total, count)) at least one")
            }
        }
    }

    /// Why a scenario's status does not fit the rest of what the report says of it, or nil.
    static func inconsistency(_ scenario: ReportDocument.ScenarioEntry, shard: Shard) -> String? {
        switch scenario.status {
        case "passed":
            guard let expected = scenario.expected, let actual = scenario.actual else {
                switch scenario.expectation {
                case "errors": return "says passed, but it has no 'errors' block or no errors the compiler gave"
                case "trap": return "says passed, but it has no 'trap' block or no message of a trap"
                default: return "says passed, but it has no 'output' block or printed nothing a run produced"
                }
            }
            // As the check compares: the same readings of the blocks, the same matches.
            switch scenario.expectation {
            case "errors":
                let stated = ErrorsExpectation.read(expected, codeLines: Int(Int32.max))
                let said = ErrorsExpectation.read(actual, codeLines: Int(Int32.max))
                let errors = said.errors.map { CompilerError(line: $0.line, column: $0.column ?? 0, message: $0.message) }
                guard !errors.isEmpty, said.problems.isEmpty, stated.problems.isEmpty, ErrorsExpectation.matches(stated.errors, errors) else {
                    return "says passed, but the compiler's errors ('actual') differ from its 'errors' block ('expected')"
                }
            case "trap":
                let stated = TrapExpectation.read(expected)
                guard stated.extraLine == nil, TrapExpectation.matches(stated.message, actual),
                      let output = scenario.output, let printed = output.actual,
                      OutputExpectation.matches(output.expected ?? "", CourseCheck.lessonOutput(printed),
                                                unordered: scenario.unordered) else {
                    return "says passed, but its trap's message or its output ('actual') differs from its blocks ('expected')"
                }
            default:
                guard OutputExpectation.matches(expected, CourseCheck.lessonOutput(actual), unordered: scenario.unordered) else {
                    return "says passed, but what it printed ('actual') differs from its 'output' block ('expected')"
                }
            }
            if let error = scenario.findings.first(where: { $0.severity == "error" }) {
                return "says passed, but it has an error (\(error.id))"
            }
            return nil
        case "failed":
            return nil
        case "skipped":
            if scenario.actual != nil { return "says skipped, but it has output; a skipped scenario never runs" }
            if !scenario.findings.isEmpty { return "says skipped, but it has findings of its own" }
            if shard.index != 1 { return "says skipped in shard \(shard); skipped scenarios are reported by shard 1 only" }
            return nil
        default:
            return "has the status '\(scenario.status)'; a scenario is passed, failed or skipped"
        }
    }
}
