import CourseModel
import Foundation

/// A check's result as a file for tools (`--report result.json`): every scenario with its
/// place, caption, status, expected and actual output, how long it ran and whether it came
/// from the cache; every finding with its place. docs/ci.md documents the schema
/// (`docs/report.schema.json`); shards' documents merge into one (`ReportMerge`), and the
/// JUnit report and GitHub annotations are written from it.
package struct ReportDocument: Codable, Sendable, Equatable {
    /// Always `coursebook-report`.
    package var format: String
    /// The schema's version: 2 (version 1 had no `expectation` and no `output` in a scenario).
    package var version: Int
    /// coursebook's version.
    package var tool: String
    /// The compiler's version line.
    package var compiler: String
    /// The course folder as the command named it.
    package var course: String
    /// The course's title.
    package var title: String
    /// Every file of the course that findings can name, in the order reports list them:
    /// course.json, the core files, the lessons in course order.
    package var files: [String]
    package var scope: Scope
    /// Nothing failed and no finding is an error.
    package var succeeded: Bool
    package var summary: Summary
    package var scenarios: [ScenarioEntry]
    package var diagnostics: [Finding]

    package static let formatName = "coursebook-report"
    package static let currentVersion = 2

    /// What part of the course the report covers.
    package struct Scope: Codable, Sendable, Equatable {
        /// The lessons checked when `check` was given lesson files; nil for all.
        package var lessons: [String]?
        /// `--shard K/N`; nil for all scenarios.
        package var shard: Shard?
    }

    package struct Summary: Codable, Sendable, Equatable {
        package var passed: Int
        package var failed: Int
        package var skipped: Int
        package var errors: Int
        package var warnings: Int
        /// Findings that only inform (what was left out, such as a scenario's diagrams).
        package var notes: Int
        /// Scenarios compiled by this run, taken from the cache, and `swiftc` runs.
        package var compiled: Int
        package var cached: Int
        package var compilerRuns: Int
    }

    /// One scenario.
    package struct ScenarioEntry: Codable, Sendable, Equatable {
        /// The lesson file, as messages name it.
        package var file: String
        /// The line of the scenario's opening fence.
        package var line: Int
        /// Its caption (the first comment line), or nil.
        package var caption: String?
        /// `passed`, `failed` or `skipped`.
        package var status: String
        /// What its lesson says it must do: `output` (print its output block), `errors` (fail
        /// to compile with its errors block), `trap` (print its output block, then trap with
        /// its trap block's message).
        package var expectation: String
        /// The text of the block of its expectation (its output, errors or trap block); nil
        /// when it has none.
        package var expected: String?
        /// What the run gave for it: what it printed; the compiler's errors as an errors block
        /// writes them (empty when it compiles); the runtime's message as it trapped. Nil when
        /// it did not come to that (skipped, did not compile, did not type-check, did not trap).
        package var actual: String?
        /// A trap scenario's output block and what it printed before the trap; nil for the others.
        package var output: OutputPair?
        /// Whether its output block is ` ```output unordered ` (its lines compared in any order);
        /// always written, read as false when missing (a report of an older coursebook).
        package var unordered: Bool = false
        /// Seconds its program ran; 0 when it did not run here.
        package var duration: Double
        /// Whether its output came from the result cache.
        package var cached: Bool
        /// Its own findings (the diff, the compiler's errors, how it crashed).
        package var findings: [Finding]
    }

    /// An expected text and the actual one.
    package struct OutputPair: Codable, Sendable, Equatable {
        package var expected: String?
        package var actual: String?
    }

    /// One finding.
    package struct Finding: Codable, Sendable, Hashable {
        package var file: String?
        /// 0 when the finding is about the whole file.
        package var line: Int?
        package var column: Int?
        /// `error`, `warning` or `note`.
        package var severity: String
        /// The stable name of its kind (`output-mismatch` ...).
        package var id: String
        package var message: String
        package var notes: [Note]
        /// A unified diff or a program's output, lines as they are.
        package var details: String?
    }

    package struct Note: Codable, Sendable, Hashable {
        package var file: String?
        package var line: Int?
        package var column: Int?
        package var message: String
    }
}

extension ReportDocument {
    /// The document of a check of `course`.
    package init(course: Course, report: CheckReport, tool: String = CoursebookVersion.current) {
        format = Self.formatName
        version = Self.currentVersion
        self.tool = tool
        compiler = report.compilerVersion
        self.course = course.folder
        title = course.config.title
        files = [course.configPath] + course.coreFiles.map(\.displayPath) + course.lessons.map(\.path)
        scope = Scope(lessons: report.scope.lessons.map { _ in report.scope.lessonPaths }, shard: report.scope.shard)
        succeeded = report.succeeded
        summary = Summary(passed: report.passed, failed: report.failed, skipped: report.skipped,
                          errors: report.errorCount, warnings: report.warningCount, notes: report.noteCount,
                          compiled: report.compiledCount, cached: report.cachedCount,
                          compilerRuns: report.compilerRuns)
        scenarios = report.results.map { result in
            let lesson = course.lessons[result.lessonIndex]
            let status: String
            switch result.status {
            case .passed: status = "passed"
            case .failed: status = "failed"
            case .skipped: status = "skipped"
            }
            let expectation = result.scenario.expectation
            var actual = result.outcome.flatMap(Self.printed)
            var output: OutputPair?
            switch expectation.kind {
            case .output: break
            case .errors:
                if case let .typeChecked(check, _)? = result.outcome { actual = check.blockText } else { actual = nil }
            case .trap:
                output = OutputPair(expected: expectation.output?.code, actual: actual)
                if case let .crashed(termination, _, standardError, _)? = result.outcome, TrapMessage.isTrap(termination) {
                    actual = TrapMessage.of(standardError: standardError)
                } else {
                    actual = nil
                }
            }
            return ScenarioEntry(
                file: lesson.path, line: result.scenario.line, caption: result.scenario.caption, status: status,
                expectation: expectation.kind.rawValue, expected: expectation.block?.code, actual: actual,
                output: output, unordered: expectation.output?.isUnordered ?? false,
                duration: result.duration.map(Self.seconds) ?? 0, cached: result.fromCache,
                findings: result.findings.map(Finding.init))
        }
        diagnostics = report.diagnostics.map(Finding.init)
    }

    /// What a scenario printed, however it ended; nil when it never ran.
    static func printed(_ outcome: ScenarioOutcome) -> String? {
        switch outcome {
        case let .completed(output, _, _): return output
        case let .crashed(_, output, _, _), let .timedOut(_, output, _), let .outputCapped(_, output, _),
             let .limitReached(_, output, _): return output
        case .compileFailed, .coreFailed, .typeChecked, .notReached: return nil
        }
    }

    /// Seconds, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return (Double(whole) + Double(fraction) / 1e18).rounded(toPlaces: 3)
    }

    /// The document as JSON: keys sorted, indented, one final newline.
    package func json() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value here encodes; a failure would be a bug in this type.
        let data = try! encoder.encode(self)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// A document read back from a file's bytes, or why it is not one.
    package static func read(_ bytes: [UInt8]) throws(ReportReadError) -> ReportDocument {
        let document: ReportDocument
        do {
            document = try JSONDecoder().decode(ReportDocument.self, from: Data(bytes))
        } catch {
            throw ReportReadError(reason: "not a coursebook JSON report (\(Self.describe(error)))")
        }
        guard document.format == formatName else {
            throw ReportReadError(reason: "not a coursebook JSON report (its format is '\(document.format)')")
        }
        guard document.version == currentVersion else {
            throw ReportReadError(reason: "a report of version \(document.version); this coursebook reads version \(currentVersion)")
        }
        return document
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return "no '\(key.stringValue)'"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case .dataCorrupted?: return "invalid JSON"
        default: return "\(error)"
        }
    }

    /// The findings as diagnostics again, for printing.
    package var diagnosticValues: [Diagnostic] { diagnostics.compactMap(\.diagnostic) }
}

/// A file that is not a report coursebook can read.
package struct ReportReadError: Error, Sendable, Equatable {
    package var reason: String
}

extension ReportDocument.Finding {
    package init(_ diagnostic: Diagnostic) {
        file = diagnostic.location?.file
        line = diagnostic.location.flatMap { $0.line > 0 ? $0.line : nil }
        column = diagnostic.location.flatMap { $0.line > 0 && $0.column > 0 ? $0.column : nil }
        severity = diagnostic.severity.rawValue
        id = diagnostic.id.rawValue
        message = diagnostic.summary
        notes = diagnostic.notes.map {
            ReportDocument.Note(file: $0.location?.file, line: $0.location.flatMap { $0.line > 0 ? $0.line : nil },
                                column: $0.location.flatMap { $0.line > 0 && $0.column > 0 ? $0.column : nil },
                                message: $0.message)
        }
        details = diagnostic.attachment
    }

    /// The finding as a diagnostic; nil when its kind or severity is not one this coursebook
    /// knows.
    package var diagnostic: Diagnostic? {
        guard let kind = DiagnosticID(rawValue: id), let level = Diagnostic.Severity(rawValue: severity) else { return nil }
        func place(_ file: String?, _ line: Int?, _ column: Int?) -> SourceLocation? {
            file.map { SourceLocation(file: $0, line: line ?? 0, column: column ?? 0) }
        }
        return Diagnostic(level, kind, message, at: place(file, line, column),
                          notes: notes.map { .init($0.message, at: place($0.file, $0.line, $0.column)) },
                          attachment: details)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}

// Every key is written, `null` where there is no value, so that a reader never has to tell a
// missing key from an empty one (the schema requires them all).
extension ReportDocument.Scope {
    enum CodingKeys: String, CodingKey {
        case lessons, shard
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lessons, forKey: .lessons)
        try container.encode(shard?.description, forKey: .shard)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lessons = try container.decodeIfPresent([String].self, forKey: .lessons)
        let text = try container.decodeIfPresent(String.self, forKey: .shard)
        shard = try text.map { text in
            guard let shard = Shard(text) else {
                throw DecodingError.dataCorruptedError(forKey: .shard, in: container, debugDescription: "not K/N")
            }
            return shard
        }
    }
}

extension ReportDocument.ScenarioEntry {
    enum CodingKeys: String, CodingKey {
        case file, line, caption, status, expectation, expected, actual, output, unordered, duration, cached, findings
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        line = try container.decode(Int.self, forKey: .line)
        caption = try container.decodeIfPresent(String.self, forKey: .caption)
        status = try container.decode(String.self, forKey: .status)
        expectation = try container.decode(String.self, forKey: .expectation)
        expected = try container.decodeIfPresent(String.self, forKey: .expected)
        actual = try container.decodeIfPresent(String.self, forKey: .actual)
        output = try container.decodeIfPresent(ReportDocument.OutputPair.self, forKey: .output)
        // Missing in the reports of a coursebook before output patterns: none was unordered.
        unordered = try container.decodeIfPresent(Bool.self, forKey: .unordered) ?? false
        duration = try container.decode(Double.self, forKey: .duration)
        cached = try container.decode(Bool.self, forKey: .cached)
        findings = try container.decode([ReportDocument.Finding].self, forKey: .findings)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(caption, forKey: .caption)
        try container.encode(status, forKey: .status)
        try container.encode(expectation, forKey: .expectation)
        try container.encode(expected, forKey: .expected)
        try container.encode(actual, forKey: .actual)
        try container.encode(output, forKey: .output)
        try container.encode(unordered, forKey: .unordered)
        try container.encode(duration, forKey: .duration)
        try container.encode(cached, forKey: .cached)
        try container.encode(findings, forKey: .findings)
    }
}

extension ReportDocument.Finding {
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
        try container.encode(severity, forKey: .severity)
        try container.encode(id, forKey: .id)
        try container.encode(message, forKey: .message)
        try container.encode(notes, forKey: .notes)
        try container.encode(details, forKey: .details)
    }
}

extension ReportDocument.Note {
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
        try container.encode(message, forKey: .message)
    }
}
