import Foundation

/// Runs scenarios for the check. The real one compiles them (`ScenarioRunner`); tests may
/// give their own.
package protocol ScenarioRunning: Sendable {
    /// The compiler's version line: part of every cache key and shown on the site.
    var compilerVersion: String { get }
    func run(_ jobs: [ScenarioJob]) -> RunReport
}

extension ScenarioRunner: ScenarioRunning {
    package var compilerVersion: String { compiler.version }
}

/// How a check runs.
package struct CheckOptions: Sendable {
    /// Warnings count as errors.
    package var strict = false
    /// Rewrite `output` and `swift core` blocks from the run.
    package var update = false

    package init(strict: Bool = false, update: Bool = false) {
        self.strict = strict
        self.update = update
    }
}

/// A scenario and what became of it.
package struct ScenarioResult: Sendable {
    package enum Status: Sendable, Equatable { case passed, failed, skipped }

    package var lessonIndex: Int
    package var scenario: Scenario
    package var status: Status
    /// nil for a skipped scenario.
    package var outcome: ScenarioOutcome?

    /// The output the page shows under the scenario: what it printed when it passed.
    package var verifiedOutput: String? {
        status == .passed ? outcome?.completedOutput : nil
    }
}

/// A block that `--update` rewrote or inserted.
package struct BlockUpdate: Sendable, Equatable {
    package var location: SourceLocation
    package var summary: String
}

/// Everything a check found.
package struct CheckReport: Sendable {
    package var diagnostics: [Diagnostic]
    package var results: [ScenarioResult]
    package var updates: [BlockUpdate]
    package var compiledCount: Int
    package var cachedCount: Int
    package var compilerRuns: Int
    package var compilerVersion: String

    package var passed: Int { results.filter { $0.status == .passed }.count }
    package var failed: Int { results.filter { $0.status == .failed }.count }
    package var skipped: Int { results.filter { $0.status == .skipped }.count }
    package var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    package var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// Nothing failed and nothing is wrong with the lessons.
    package var succeeded: Bool { failed == 0 && errorCount == 0 }

    /// `12 passed, 0 failed` (`, 1 skipped` when any were).
    package var summaryLine: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}

/// The check: a course's lessons against its rules, and its scenarios against their outputs.
/// Load course → rules that need no run → run scenarios → compare → (update) → report.
package enum CourseCheck {
    /// The tool's version: part of every cache key.
    package static let toolVersion = CoursebookVersion.current

    package static func run(_ course: Course, loadDiagnostics: [Diagnostic], options: CheckOptions,
                            runner: any ScenarioRunning) -> CheckReport {
        var diagnostics = loadDiagnostics
        diagnostics += LimitNoteRules.check(course.lessons)

        var coreEdits: [Int: [BlockRewrite.Edit]] = [:]
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            for block in lesson.codeBlocks {
                switch block.role {
                case .illustration:
                    diagnostics += IllustrationSyntax.check(block, in: lesson)
                case .coreListing:
                    switch CoreListingRules.coreFile(for: block, in: lesson, coreFiles: course.coreFiles) {
                    case .failure(let finding):
                        diagnostics.append(finding)
                    case .success(let file) where !CoreListingRules.matches(block.code, file):
                        if options.update {
                            coreEdits[lessonIndex, default: []].append(
                                .init(.replaceCode(block), code: normalizingLineEnds(file.text),
                                      summary: "updated the core listing from \(file.displayPath)"))
                        } else {
                            diagnostics.append(CoreListingRules.drift(block, in: lesson, file: file))
                        }
                    default:
                        break
                    }
                default:
                    break
                }
            }
        }

        // Run every scenario that is not skipped.
        let core = course.coreFiles.map { (name: $0.name, text: $0.text) }
        var jobs: [ScenarioJob] = []
        var jobOf: [Int: [Int: Int]] = [:]
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            for (scenarioIndex, scenario) in lesson.scenarios.enumerated() where !scenario.isSkipped {
                let source = ScenarioSource(code: scenario.code, file: lesson.path,
                                            firstLine: scenario.block.firstCodeLine,
                                            columnOffsets: scenario.block.columnOffsets)
                jobOf[lessonIndex, default: [:]][scenarioIndex] = jobs.count
                jobs.append(ScenarioJob(source: source, cacheKey: ResultCache.key(
                    toolVersion: toolVersion, compilerVersion: runner.compilerVersion,
                    core: core, source: source)))
            }
        }
        let run = jobs.isEmpty
            ? RunReport(outcomes: [], compiledCount: 0, cachedCount: 0, compilerRuns: 0, diagnostics: [])
            : runner.run(jobs)
        diagnostics += run.diagnostics

        var results: [ScenarioResult] = []
        var outputEdits = coreEdits
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            for (scenarioIndex, scenario) in lesson.scenarios.enumerated() {
                guard let job = jobOf[lessonIndex]?[scenarioIndex] else {
                    results.append(ScenarioResult(lessonIndex: lessonIndex, scenario: scenario,
                                                  status: .skipped, outcome: nil))
                    continue
                }
                let outcome = run.outcomes[job]
                var status = ScenarioResult.Status.failed
                if let output = outcome.completedOutput {
                    if let expected = scenario.expected {
                        if trimmingFinalNewline(expected.code) == trimmingFinalNewline(output) {
                            status = .passed
                        } else if options.update {
                            outputEdits[lessonIndex, default: []].append(.init(
                                .replaceCode(expected), code: output,
                                summary: "updated the output block of the scenario at line \(scenario.line)"))
                            status = .passed
                        } else {
                            diagnostics.append(mismatch(scenario, expected: expected, actual: output, in: lesson))
                        }
                    } else if options.update {
                        outputEdits[lessonIndex, default: []].append(.init(
                            .insertOutput(after: scenario.block), code: output,
                            summary: "inserted an output block for the scenario at line \(scenario.line)"))
                        status = .passed
                        diagnostics.removeAll { $0.id == "scenario-without-output" && $0.location == lesson.location(line: scenario.line) }
                    }
                } else {
                    diagnostics += failure(scenario, outcome: outcome, in: lesson)
                }
                results.append(ScenarioResult(lessonIndex: lessonIndex, scenario: scenario,
                                              status: status, outcome: outcome))
            }
        }

        var updates: [BlockUpdate] = []
        for (lessonIndex, edits) in outputEdits.sorted(by: { $0.key < $1.key }) {
            let lesson = course.lessons[lessonIndex]
            do {
                let (bytes, placed) = try BlockRewrite.apply(edits, to: lesson.source)
                try writeAtomically(bytes, to: course.folderPath + "/" + lesson.fileName)
                for item in placed {
                    updates.append(BlockUpdate(location: lesson.location(line: item.line), summary: item.edit.summary))
                }
            } catch let error as BlockRewrite.Unplaceable {
                diagnostics.append(.error("update-failed", "cannot update: \(error.reason)",
                                          at: lesson.location(line: max(error.line, 1))))
                for index in results.indices where results[index].lessonIndex == lessonIndex {
                    results[index].status = results[index].status == .skipped ? .skipped : .failed
                }
            } catch {
                diagnostics.append(.error("update-failed", "cannot write the lesson: \(error.localizedDescription)",
                                          at: lesson.location(line: 1)))
            }
        }

        if options.strict { diagnostics = diagnostics.map { $0.severity == .warning ? $0.asError : $0 } }
        return CheckReport(
            diagnostics: ordered(diagnostics, course: course), results: results, updates: updates,
            compiledCount: run.compiledCount, cachedCount: run.cachedCount,
            compilerRuns: run.compilerRuns, compilerVersion: runner.compilerVersion)
    }

    /// The finding for an output that differs: at the first expected line that differs, with
    /// a unified diff from the expected block to what the scenario printed.
    static func mismatch(_ scenario: Scenario, expected: CodeBlock, actual: String, in lesson: Lesson) -> Diagnostic {
        let expectedLines = LineDiff.lines(expected.code)
        let actualLines = LineDiff.lines(actual)
        let first = LineDiff.firstDifference(expectedLines, actualLines)
        return .error(
            "output-mismatch",
            "output of the scenario at line \(scenario.line) differs from its 'output' block at line \(expected.line)",
            at: lesson.location(line: expected.firstCodeLine + first),
            attachment: LineDiff.unified(from: expected.code, to: actual,
                                         oldLabel: "expected (\(lesson.path):\(expected.line))",
                                         newLabel: "actual"))
    }

    /// The findings for a scenario that did not run to its end.
    static func failure(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson) -> [Diagnostic] {
        let here = lesson.location(line: scenario.line)
        func printed(_ output: String, _ standardError: String) -> String? {
            var parts: [String] = []
            if !output.isEmpty { parts.append("standard output:\n" + indented(output)) }
            let errors = withoutStackTrace(standardError)
            if !errors.isEmpty { parts.append("standard error:\n" + indented(lastLines(errors, 40))) }
            return parts.isEmpty ? nil : parts.joined(separator: "\n")
        }
        switch outcome {
        case .completed, .coreFailed:
            return []
        case .compileFailed(let diagnostics):
            return diagnostics
        case let .crashed(termination, output, standardError):
            let how: String
            switch termination {
            case .signaled: how = "crashed: \(termination)"
            case .exited(0): how = "ended its program before finishing"
            case .exited(let status): how = "exited with status \(status)"
            }
            return [.error("scenario-crashed", "scenario \(how)", at: here,
                           attachment: printed(output, standardError))]
        case let .timedOut(limit, output, standardError):
            return [.error("scenario-timeout",
                           "scenario ran longer than \(seconds(limit)) and was stopped (--timeout sets the limit)",
                           at: here, attachment: printed(output, standardError))]
        case let .outputCapped(cap, output, standardError):
            return [.error("scenario-output-cap",
                           "scenario printed more than \(bytes(cap)) and was stopped; its output is cut there",
                           at: here, attachment: printed(lastLines(output, 20), standardError))]
        }
    }

    /// Core file findings first, then lessons in course order, each by line and column.
    static func ordered(_ diagnostics: [Diagnostic], course: Course) -> [Diagnostic] {
        var rank: [String: Int] = [course.configPath: 0]
        for (index, file) in course.coreFiles.enumerated() { rank[file.displayPath] = 1 + index }
        for (index, lesson) in course.lessons.enumerated() { rank[lesson.path] = 1 + course.coreFiles.count + index }
        return diagnostics.enumerated().sorted { left, right in
            let a = left.element.location, b = right.element.location
            let keyA = (rank[a?.file ?? ""] ?? Int.max, a?.line ?? 0, a?.column ?? 0, left.offset)
            let keyB = (rank[b?.file ?? ""] ?? Int.max, b?.line ?? 0, b?.column ?? 0, right.offset)
            return keyA < keyB
        }.map(\.element)
    }
}

private func indented(_ text: String) -> String {
    LineDiff.lines(text).map { "    " + $0 }.joined(separator: "\n")
}

/// The runtime's own stack trace after a fatal error names addresses in a generated program:
/// nothing a lesson author can use. The message above it stays.
private func withoutStackTrace(_ text: String) -> String {
    var kept: [String] = []
    var inTrace = false
    for line in LineDiff.lines(text) {
        if line == "Current stack trace:" { inTrace = true; continue }
        if inTrace, line.first?.isNumber == true { continue }
        inTrace = false
        kept.append(line)
    }
    return kept.joined(separator: "\n")
}

private func lastLines(_ text: String, _ count: Int) -> String {
    let lines = LineDiff.lines(text)
    guard lines.count > count else { return text }
    return (["... (\(lines.count - count) lines before)"] + lines.suffix(count)).joined(separator: "\n")
}

package func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    if fraction == 0 { return "\(whole) s" }
    return String(format: "%.1f s", Double(whole) + Double(fraction) / 1e18)
}

private func bytes(_ count: Int) -> String {
    count % (1 << 20) == 0 ? "\(count >> 20) MiB" : count % 1024 == 0 ? "\(count >> 10) KiB" : "\(count) bytes"
}
