import Foundation

/// The check: a course's lessons against its rules, and its scenarios against their outputs.
/// Rules that need no run → run scenarios → compare → plan `--update` rewrites → report.
/// Pure but for the runner: the rewrites are written by `CheckReport.writingRewrites()`.
package enum CourseCheck {
    /// The tool's version: part of every cache key.
    package static let toolVersion = CoursebookVersion.current

    package static func run(_ course: Course, loadDiagnostics: [Diagnostic], options: CheckOptions,
                            runner: any ScenarioRunning) -> CheckReport {
        var diagnostics = loadDiagnostics + LimitNoteRules.check(course.lessons)
        var edits: [Int: [BlockRewrite.Edit]] = [:]
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            let (findings, coreEdits) = checkBlocks(of: lesson, coreFiles: course.coreFiles, update: options.update)
            diagnostics += findings
            if !coreEdits.isEmpty { edits[lessonIndex, default: []] += coreEdits }
        }

        let (jobs, jobOf) = scenarioJobs(course, compilerVersion: runner.compilerVersion)
        let run = jobs.isEmpty
            ? RunReport(outcomes: [], compiledCount: 0, cachedCount: 0, compilerRuns: 0, diagnostics: [])
            : runner.run(jobs)
        diagnostics += run.diagnostics

        var results: [ScenarioResult] = []
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            for (scenarioIndex, scenario) in lesson.scenarios.enumerated() {
                guard let job = jobOf[ScenarioPlace(lesson: lessonIndex, scenario: scenarioIndex)] else {
                    results.append(ScenarioResult(lessonIndex: lessonIndex, scenario: scenario,
                                                  status: .skipped, outcome: nil))
                    continue
                }
                let verdict = evaluate(scenario, outcome: run.outcomes[job], in: lesson, update: options.update)
                diagnostics += verdict.findings
                if let edit = verdict.edit {
                    edits[lessonIndex, default: []].append(edit)
                    if case .insertOutput = edit.kind {
                        diagnostics.removeAll { $0.id == "scenario-without-output" && $0.location == lesson.location(line: scenario.line) }
                    }
                }
                results.append(ScenarioResult(lessonIndex: lessonIndex, scenario: scenario,
                                              status: verdict.status, outcome: run.outcomes[job]))
            }
        }

        var rewrites: [LessonRewrite] = []
        for (lessonIndex, lessonEdits) in edits.sorted(by: { $0.key < $1.key }) {
            let lesson = course.lessons[lessonIndex]
            do {
                let (bytes, placed) = try BlockRewrite.apply(lessonEdits, to: lesson.source)
                rewrites.append(LessonRewrite(
                    lessonIndex: lessonIndex, path: course.folderPath + "/" + lesson.fileName, bytes: bytes,
                    updates: placed.map { BlockUpdate(location: lesson.location(line: $0.line), summary: $0.edit.summary) }))
            } catch {
                diagnostics.append(.error("update-failed", "cannot update: \(error.reason)",
                                          at: lesson.location(line: max(error.line, 1))))
                for index in results.indices where results[index].lessonIndex == lessonIndex && results[index].status == .passed {
                    results[index].status = .failed
                }
            }
        }

        if options.strict { diagnostics = diagnostics.map { $0.severity == .warning ? $0.asError : $0 } }
        return CheckReport(
            diagnostics: ordered(diagnostics, course: course), results: results, rewrites: rewrites,
            compiledCount: run.compiledCount, cachedCount: run.cachedCount,
            compilerRuns: run.compilerRuns, compilerVersion: runner.compilerVersion)
    }

    /// The rules of a lesson's blocks that need no run: illustrations parse, core listings
    /// show their file. With `update`, a drifted listing becomes an edit instead of an error.
    static func checkBlocks(of lesson: Lesson, coreFiles: [CoreFile],
                            update: Bool) -> ([Diagnostic], [BlockRewrite.Edit]) {
        var findings: [Diagnostic] = []
        var edits: [BlockRewrite.Edit] = []
        for block in lesson.codeBlocks {
            switch block.role {
            case .illustration:
                findings += IllustrationSyntax.check(block, in: lesson)
            case .coreListing:
                switch CoreListingRules.coreFile(for: block, in: lesson, coreFiles: coreFiles) {
                case .failure(let finding):
                    findings.append(finding)
                case .success(let file) where !CoreListingRules.matches(block.code, file):
                    if update {
                        edits.append(.init(.replaceCode(block), code: normalizingLineEnds(file.text),
                                           summary: "updated the core listing from \(file.displayPath)"))
                    } else {
                        findings.append(CoreListingRules.drift(block, in: lesson, file: file))
                    }
                case .success:
                    break
                }
            default:
                break
            }
        }
        return (findings, edits)
    }

    /// Where a scenario is: its lesson and its place among the lesson's scenarios.
    struct ScenarioPlace: Hashable {
        var lesson: Int
        var scenario: Int
    }

    /// A job for every scenario that is not skipped, keyed for the cache.
    static func scenarioJobs(_ course: Course, compilerVersion: String) -> ([ScenarioJob], [ScenarioPlace: Int]) {
        let core = course.coreFiles.map { (name: $0.name, text: $0.text) }
        var jobs: [ScenarioJob] = []
        var jobOf: [ScenarioPlace: Int] = [:]
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            for (scenarioIndex, scenario) in lesson.scenarios.enumerated() where !scenario.isSkipped {
                let source = ScenarioSource(code: scenario.code, file: lesson.path,
                                            firstLine: scenario.block.firstCodeLine,
                                            columnOffsets: scenario.block.columnOffsets)
                jobOf[ScenarioPlace(lesson: lessonIndex, scenario: scenarioIndex)] = jobs.count
                jobs.append(ScenarioJob(source: source, cacheKey: ResultCache.key(
                    toolVersion: toolVersion, compilerVersion: compilerVersion, core: core, source: source)))
            }
        }
        return (jobs, jobOf)
    }

    /// What a scenario's run means: passed or failed, the findings, and with `update` the
    /// edit that makes its `output` block say what it printed.
    static func evaluate(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson,
                         update: Bool) -> (status: ScenarioResult.Status, findings: [Diagnostic], edit: BlockRewrite.Edit?) {
        guard let output = outcome.completedOutput else {
            return (.failed, failure(scenario, outcome: outcome, in: lesson), nil)
        }
        guard let expected = scenario.expected else {
            // The missing block is already an error of the lesson's structure.
            guard update else { return (.failed, [], nil) }
            return (.passed, [], .init(.insertOutput(after: scenario.block), code: output,
                                       summary: "inserted an output block for the scenario at line \(scenario.line)"))
        }
        if trimmingFinalNewline(expected.code) == trimmingFinalNewline(output) {
            return (.passed, [], nil)
        }
        guard update else {
            return (.failed, [mismatch(scenario, expected: expected, actual: output, in: lesson)], nil)
        }
        return (.passed, [], .init(.replaceCode(expected), code: output,
                                   summary: "updated the output block of the scenario at line \(scenario.line)"))
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
