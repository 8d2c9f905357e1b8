import BackgroundWork
import ChangeDiagrams
import CourseModel
import Foundation

/// How a check judges.
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

/// Where a scenario is: its lesson and its place among the lesson's scenarios.
package struct ScenarioPlace: Hashable, Sendable {
    package var lesson: Int
    package var scenario: Int

    package init(lesson: Int, scenario: Int) {
        self.lesson = lesson
        self.scenario = scenario
    }
}

/// The check, pure: a course's lessons against their rules, and its scenarios' outcomes against
/// their `output` blocks, into one report with the `--update` rewrites planned (the pipeline
/// runs the scenarios before and writes the rewrites after).
package enum CourseCheck {
    /// The scenarios a check runs (every one that is not skipped), in course order, with the
    /// source the runner compiles: in its language mode, type-checked only when it must fail
    /// to compile.
    package static func scenariosToRun(_ course: Course) -> [(place: ScenarioPlace, source: ScenarioSource)] {
        var found: [(ScenarioPlace, ScenarioSource)] = []
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            // A group is one program, run at the place of its first block.
            var groupAt: [Int: [Int]] = [:]
            var inGroup: Set<Int> = []
            for group in groups(of: lesson) {
                groupAt[group.members[0]] = group.members
                inGroup.formUnion(group.members)
            }
            for (scenarioIndex, scenario) in lesson.scenarios.enumerated() where !scenario.isSkipped {
                let place = ScenarioPlace(lesson: lessonIndex, scenario: scenarioIndex)
                if let members = groupAt[scenarioIndex] {
                    found.append((place, groupSource(members.map { lesson.scenarios[$0] }, in: lesson,
                                                     languageMode: course.config.languageMode)))
                    continue
                }
                if inGroup.contains(scenarioIndex) { continue }
                found.append((place,
                              ScenarioSource(code: scenario.compiledCode, file: lesson.path,
                                             firstLine: scenario.block.firstCodeLine,
                                             columnOffsets: scenario.compiledColumnOffsets,
                                             languageMode: scenario.languageMode ?? course.config.languageMode,
                                             goal: scenario.expectation.kind == .errors ? .typeCheck : .run)))
            }
        }
        return found
    }

    /// Everything the check found, as one report (see `judge`, `CheckReportBuilder`).
    package static func report(
        _ course: Course, findings: [Diagnostic], facts: CourseFacts,
        outcomes: [ScenarioPlace: ScenarioOutcome], run: RunReport, compilerVersion: String,
        options: CheckOptions, scope: CheckScope = .wholeCourse, durations: [ScenarioPlace: Duration] = [:]
    ) -> CheckReport {
        var builder = CheckReportBuilder(strict: options.strict, scope: scope)
        judge(course, findings: findings, facts: facts, outcomes: outcomes, run: run, update: options.update,
              durations: durations, into: &builder)
        builder.ran(run, compilerVersion: compilerVersion, compilerLanguageMode: nil)
        return builder.report(of: course)
    }

    /// Everything the check found, into `builder`. `findings` are what earlier steps found
    /// (the lessons' structure, the site's words); `facts` what the Swift parser learned of
    /// each block; `outcomes` what became of each scenario that ran, and `durations` how long
    /// each ran. The builder's scope says what the report covers: a scenario that is not
    /// skipped and has no outcome was not this check's to run (another lesson, another shard)
    /// and is left out; findings of lessons outside the scope are left out, and findings that
    /// are nobody's scenario are kept by the first shard only.
    package static func judge(
        _ course: Course, findings: [Diagnostic], facts: CourseFacts, outcomes: [ScenarioPlace: ScenarioOutcome],
        run: RunReport, update: Bool, durations: [ScenarioPlace: Duration] = [:], into builder: inout CheckReportBuilder
    ) {
        let scope = builder.scope
        let outcomes = withGroupBlocks(course, outcomes)
        let judged = judgeLessons(course, facts: facts, outcomes: outcomes, update: update, scope: scope)
        var edits: [Int: [BlockRewrite.Edit]] = [:]
        if scope.judgesCourseRules {
            builder.record(findings + LimitNoteRules.check(course.lessons, policy: course.config.limitNotes)
                + course.moduleNameClashes)
            for (lessonIndex, judgement) in judged.enumerated() {
                guard let (blockFindings, coreEdits) = judgement.blocks else { continue }
                builder.record(blockFindings)
                if !coreEdits.isEmpty { edits[lessonIndex, default: []] += coreEdits }
            }
        }
        // The core's own errors come with every share that compiled it: a shard that met them
        // says so even when the first one ran nothing (merged reports keep one of each).
        builder.record(run.diagnostics)

        for (lessonIndex, lesson) in course.lessons.enumerated() where scope.includes(lesson: lessonIndex) {
            for (scenarioIndex, scenario) in lesson.scenarios.enumerated() {
                let place = ScenarioPlace(lesson: lessonIndex, scenario: scenarioIndex)
                guard let outcome = outcomes[place] else {
                    if scenario.isSkipped, scope.judgesCourseRules {
                        builder.record(ScenarioResult(lessonIndex: lessonIndex, scenario: scenario, status: .skipped, outcome: nil),
                                       findings: [])
                    }
                    continue
                }
                let (verdict, drawn) = judged[lessonIndex].scenarios[scenarioIndex]!
                builder.record(ScenarioResult(lessonIndex: lessonIndex, scenario: scenario, status: verdict.status,
                                              outcome: outcome, duration: durations[place], diagrams: drawn?.diagrams ?? []),
                               findings: verdict.findings)
                builder.record(drawn?.findings ?? [])
                for edit in verdict.edits {
                    edits[lessonIndex, default: []].append(edit)
                    if case .insertOutput = edit.kind {
                        builder.drop { $0.id == .scenarioWithoutOutput && $0.location == lesson.location(line: scenario.line) }
                    }
                }
            }
        }
        plan(edits, of: course, into: &builder)
        if let chosen = scope.lessons {
            // Rules that span the course were judged on all of it; only what lands in the
            // chosen lessons (or in no lesson: course.json, the core) is kept.
            let others = Set(course.lessons.indices.filter { !chosen.contains($0) }.map { course.lessons[$0].path })
            builder.drop { $0.location.map { others.contains($0.file) } ?? false }
        }
    }

    /// Each lesson's edits applied to its text: the rewrites `--update` writes (and the quick
    /// fixes an editor offers). A lesson whose edits cannot be applied says why and fails.
    static func plan(_ edits: [Int: [BlockRewrite.Edit]], of course: Course, into builder: inout CheckReportBuilder) {
        for (lessonIndex, lessonEdits) in edits.sorted(by: { $0.key < $1.key }) {
            let lesson = course.lessons[lessonIndex]
            do {
                let (bytes, placed) = try BlockRewrite.apply(lessonEdits, to: lesson.source)
                builder.planned(LessonRewrite(
                    lessonIndex: lessonIndex, path: lesson.realPath ?? course.folderPath + "/" + lesson.fileName,
                    original: lesson.source.bytes, bytes: bytes,
                    updates: placed.map { BlockUpdate(location: lesson.location(line: $0.line), summary: $0.edit.summary) }))
            } catch {
                builder.record([.error(.updateFailed, "cannot update: \(error.reason)", at: lesson.location(line: max(error.line, 1)))])
                builder.failed(lesson: lessonIndex)
            }
        }
    }

    /// What each lesson's own rules and scenarios come to, judged on every core: a lesson's
    /// judgement depends on nothing outside it, and a large course has thousands of outputs to
    /// compare and read for change lines. `report` puts them together in course order, so the
    /// report is the same as when they are judged one after the other.
    struct LessonJudgement: Sendable {
        /// The block rules' findings and edits; nil when the check does not judge them here.
        var blocks: (findings: [Diagnostic], edits: [BlockRewrite.Edit])?
        /// Per scenario that has an outcome: its verdict, and its diagrams when it gets any.
        var scenarios: [(verdict: Verdict, drawn: (diagrams: [ChangeDiagram], findings: [Diagnostic])?)?]
    }

    /// What a scenario's outcome means against what its lesson expects (see `Verdicts`).
    typealias Verdict = (status: ScenarioResult.Status, findings: [Diagnostic], edits: [BlockRewrite.Edit])

    static func judgeLessons(_ course: Course, facts: CourseFacts, outcomes: [ScenarioPlace: ScenarioOutcome],
                             update: Bool, scope: CheckScope) -> [LessonJudgement] {
        Array(course.lessons.indices).concurrentMap { lessonIndex in
            let lesson = course.lessons[lessonIndex]
            guard scope.includes(lesson: lessonIndex) else { return LessonJudgement(blocks: nil, scenarios: []) }
            let blocks = scope.judgesCourseRules
                ? checkBlocks(of: lesson, coreFiles: course.coreFiles,
                              findings: { facts[lessonIndex, $0.id]?.findings ?? [] },
                              unread: { facts[lessonIndex, $0.id]?.unread }, update: update)
                : nil
            let scenarios = lesson.scenarios.indices.map { scenarioIndex -> (verdict: Verdict, drawn: (diagrams: [ChangeDiagram], findings: [Diagnostic])?)? in
                let scenario = lesson.scenarios[scenarioIndex]
                guard let outcome = outcomes[ScenarioPlace(lesson: lessonIndex, scenario: scenarioIndex)] else { return nil }
                let verdict = evaluate(scenario, outcome: outcome, in: lesson, coreFiles: course.coreFiles,
                                       update: update)
                guard verdict.status == .passed, course.config.diagrams == .on, scenario.drawsDiagrams, scenario.group == nil,
                      scenario.expectation.kind == .output, let output = outcome.completedOutput else { return (verdict, nil) }
                return (verdict, ChangeDiagramRules.diagrams(for: scenario, output: output,
                                                             trees: facts[lessonIndex, scenario.block.id]?.trees ?? .none,
                                                             in: lesson))
            }
            return LessonJudgement(blocks: blocks, scenarios: scenarios)
        }
    }

    /// The rules of a lesson's blocks that need no run: illustrations parse, core listings
    /// show their file. With `update`, a drifted listing becomes an edit instead of an error.
    static func checkBlocks(of lesson: Lesson, coreFiles: [CoreFile], findings syntaxFindings: (CodeBlock) -> [SyntaxFinding],
                            unread: (CodeBlock) -> SyntaxFinding? = { _ in nil },
                            update: Bool) -> ([Diagnostic], [BlockRewrite.Edit]) {
        var findings: [Diagnostic] = []
        var edits: [BlockRewrite.Edit] = []
        for block in lesson.codeBlocks {
            if let unread = unread(block) { findings.append(unreadFinding(unread, block, in: lesson)) }
            switch block.role {
            case .illustration:
                for finding in syntaxFindings(block) {
                    let (line, column) = block.lessonPosition(codeLine: finding.line, codeColumn: finding.column)
                    findings.append(.warning(.illustrationSyntax,
                                             "illustration is not valid Swift: \(finding.message)",
                                             at: lesson.location(line: line, column: column)))
                }
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

    /// A Swift block that coursebook did not read, at the place that says why: what it still
    /// is (a scenario is compiled and run all the same) and what it goes without.
    static func unreadFinding(_ unread: SyntaxFinding, _ block: CodeBlock, in lesson: Lesson) -> Diagnostic {
        let (line, column) = block.lessonPosition(codeLine: unread.line, codeColumn: unread.column)
        let consequence: String
        switch block.role {
        case .scenario: consequence = "it is compiled and run as a program of its own, and shown without highlighting"
        case .illustration: consequence = "its syntax is not checked, and it is shown without highlighting"
        default: consequence = "it is shown without highlighting"
        }
        return .warning(.swiftUnread, "coursebook did not read this Swift block: \(unread.message); \(consequence)",
                        at: lesson.location(line: line, column: column))
    }

    /// A scenario's output as an `output` block holds it: a lesson reads CRLF as a line end,
    /// as LF, so the check compares it so and `--update` writes it so.
    package static func lessonOutput(_ printed: String) -> String {
        printed.containsBytes("\r") ? printed.replacingOccurrences(of: "\r\n", with: "\n") : printed
    }

    /// The edit `--update` plans for one scenario that printed `printed`: its `output` block
    /// rewritten, or one inserted after it; nil when the block already says it, or when no
    /// block could hold the output. The editor's quick fix is this same edit.
    package static func outputEdit(for scenario: Scenario, printed: String) -> BlockRewrite.Edit? {
        guard unholdableByte(in: printed) == nil else { return nil }
        let output = lessonOutput(printed)
        guard let expected = scenario.expectation.output else {
            return .init(.insertOutput(after: scenario.block), code: output,
                         summary: "inserted an output block for the scenario at line \(scenario.line)")
        }
        // A block whose patterns are too costly to compare is left as it is (its finding says why).
        guard OutputExpectation.compare(expected.code, output, unordered: expected.isUnordered) == .differs else { return nil }
        return .init(.replaceCode(expected), code: OutputExpectation.rewritten(expected.code, toStandFor: output,
                                                                                unordered: expected.isUnordered),
                     summary: "updated the output block of the scenario at line \(scenario.line)")
    }

    /// The first byte of a scenario's output that no Markdown code block holds as it is: NUL
    /// (cmark-gfm reads it as U+FFFD) and a carriage return without a line feed (read as a line
    /// end). With either, the block `--update` writes could never equal the output again.
    package static func unholdableByte(in output: String) -> (name: String, line: Int, why: String)? {
        guard output.containsBytes("\r") || output.containsBytes("\0") else { return nil }
        let bytes = Array(output.utf8)
        var line = 1
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case 0:
                return ("a NUL byte (\\0)", line, "Markdown reads it as U+FFFD")
            case UInt8(ascii: "\r") where index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n"):
                return ("a carriage return (\\r) without a line feed", line, "Markdown reads it as a line end")
            case UInt8(ascii: "\n"):
                line += 1
            default:
                break
            }
        }
        return nil
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
