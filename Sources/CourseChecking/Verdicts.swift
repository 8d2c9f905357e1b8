import CourseModel

/// What a scenario's outcome means against its `Expectation`: passed or failed, the findings,
/// and with `update` the edits that make its blocks say what the run gave. One function per
/// kind of expectation; each reads its blocks through `OutputExpectation`,
/// `ErrorsExpectation` or `TrapExpectation`, so that a new way of writing a block (a pattern)
/// changes the reading, never the verdicts.
extension CourseCheck {
    static func evaluate(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson,
                         coreFiles: [CoreFile] = [], update: Bool) -> Verdict {
        switch scenario.expectation.kind {
        case .output: return evaluateOutput(scenario, outcome: outcome, in: lesson, update: update)
        case .errors: return evaluateErrors(scenario, outcome: outcome, in: lesson, coreFiles: coreFiles, update: update)
        case .trap: return evaluateTrap(scenario, outcome: outcome, in: lesson, update: update)
        }
    }

    /// The edits `check --update` makes for one scenario after `outcome`: its `output`,
    /// `errors` or `trap` block rewritten, or its missing `output` block inserted; none when its
    /// blocks already say what the run gave, or when no block can say it (a compile error of a
    /// scenario without an `errors` block stays an error). The editor's quick fixes are these
    /// same edits, so that accepting one there writes what `--update` would, byte for byte.
    package static func updateEdits(for scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson) -> [BlockRewrite.Edit] {
        evaluate(scenario, outcome: outcome, in: lesson, update: true).edits
    }

    // MARK: output

    static func evaluateOutput(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson, update: Bool) -> Verdict {
        guard let printed = outcome.completedOutput else {
            return (.failed, ScenarioFailure.findings(scenario, outcome: outcome, in: lesson), [])
        }
        return judgeOutput(scenario, printed: printed, in: lesson, update: update)
    }

    /// What the program printed against the `output` block (inserted by `update` when missing).
    static func judgeOutput(_ scenario: Scenario, printed: String, in lesson: Lesson, update: Bool) -> Verdict {
        if let byte = unholdableByte(in: printed) {
            return (.failed, [.error(
                .outputUnholdable,
                "scenario printed \(byte.name) on line \(byte.line) of its output, which an 'output' block cannot hold (\(byte.why)); print it some other way, such as escaped",
                at: lesson.location(line: scenario.line))], [])
        }
        // The edit `--update` makes (the editor's quick fix is the same one); none when the
        // block already says what the program printed.
        guard let edit = outputEdit(for: scenario, printed: printed) else { return (.passed, [], []) }
        if update { return (.passed, [], [edit]) }
        // A missing block is already an error of the lesson's structure.
        guard let expected = scenario.expectation.output else { return (.failed, [], []) }
        return (.failed, [mismatch(scenario, expected: expected, actual: lessonOutput(printed), in: lesson)], [])
    }

    /// The finding for an output that differs: at the first expected line that differs, with
    /// a unified diff from the expected block to what the scenario printed.
    static func mismatch(_ scenario: Scenario, expected: CodeBlock, actual: String, in lesson: Lesson) -> Diagnostic {
        let first = LineDiff.firstDifference(LineDiff.lines(expected.code), LineDiff.lines(actual))
        return .error(
            .outputMismatch,
            "output of the scenario at line \(scenario.line) differs from its 'output' block at line \(expected.line)",
            at: lesson.location(line: expected.firstCodeLine + first),
            attachment: LineDiff.unified(from: expected.code, to: actual,
                                         oldLabel: "expected (\(lesson.path):\(expected.line))",
                                         newLabel: "actual"))
    }

    // MARK: errors

    /// An `errors` scenario passes when type-checking it fails with exactly the block's errors
    /// in its own code, and no error in a core file. `update` rewrites the block from the
    /// compiler's errors, but never makes one of a scenario that compiles.
    static func evaluateErrors(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson,
                               coreFiles: [CoreFile], update: Bool) -> Verdict {
        let block = scenario.expectation.errors!
        guard case let .typeChecked(check, _) = outcome else {
            return (.failed, ScenarioFailure.findings(scenario, outcome: outcome, in: lesson), [])
        }
        if !check.coreErrors.isEmpty {
            let notes = check.coreErrors.map { error -> Diagnostic.Note in
                let file = coreFiles.first { $0.name == error.file }?.displayPath ?? error.file
                return .init("error: \(error.message)", at: SourceLocation(file: file, line: error.line, column: error.column))
            }
            return (.failed, [.error(
                .errorsInCore,
                "type-checking the scenario at line \(scenario.line) meets \(check.coreErrors.count == 1 ? "an error" : "errors") in the core files; an 'errors' block lists errors in the scenario's own code, so the core must compile with it",
                at: lesson.location(line: scenario.line), notes: notes)], [])
        }
        if check.errors.isEmpty {
            return (.failed, [.error(
                .errorsCompiled,
                "the scenario at line \(scenario.line) compiles, but its 'errors' block says it must not (plain 'swiftc' finds no error in it)",
                at: lesson.location(line: block.line),
                notes: [.init("an 'errors' block lists what type-checking finds; what only a full compile finds after it (overlapping accesses to a variable, a missing return, a constant used before it is set) is not among it")])], [])
        }
        let read = ErrorsExpectation.read(block.code, codeLines: scenario.block.codeLineCount)
        if read.problems.isEmpty, ErrorsExpectation.matches(read.errors, check.errors) {
            return (.passed, [], [])
        }
        let written = ErrorsExpectation.rewritten(check.errors, keeping: read.errors)
        if update {
            return (.passed, [], [.init(.replaceCode(block), code: written,
                                        summary: "updated the errors block of the scenario at line \(scenario.line)")])
        }
        var findings = read.problems.map { problem in
            Diagnostic.error(problem.id, problem.message, at: lesson.location(line: block.firstCodeLine + problem.blockLine - 1))
        }
        if !ErrorsExpectation.matches(read.errors, check.errors) || !read.problems.isEmpty {
            let first = LineDiff.firstDifference(LineDiff.lines(block.code), LineDiff.lines(written))
            findings.append(.error(
                .errorsMismatch,
                "the compiler's errors for the scenario at line \(scenario.line) differ from its 'errors' block at line \(block.line)",
                at: lesson.location(line: block.firstCodeLine + min(first, max(block.codeLineCount - 1, 0))),
                attachment: LineDiff.unified(from: block.code, to: written,
                                             oldLabel: "expected (\(lesson.path):\(block.line))",
                                             newLabel: "the compiler (plain swiftc)")))
        }
        return (.failed, findings, [])
    }

    // MARK: trap

    /// A `trap` scenario passes when the program ends by a trap of the runtime, having printed
    /// exactly its `output` block, with the `trap` block's message. `update` rewrites both
    /// blocks from a run that trapped; any other ending fails and says how it ended.
    static func evaluateTrap(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson, update: Bool) -> Verdict {
        let block = scenario.expectation.trap!
        let read = TrapExpectation.read(block.code)
        guard case let .crashed(termination, printed, standardError, _) = outcome, TrapMessage.isTrap(termination) else {
            return (.failed, trapMissing(scenario, outcome: outcome, trap: block, in: lesson), [])
        }
        let message = TrapMessage.of(standardError: standardError)
        var verdict = judgeOutput(scenario, printed: printed, in: lesson, update: update)
        if read.extraLine == nil, TrapExpectation.matches(read.message, message) { return verdict }
        if update {
            verdict.edits.append(.init(.replaceCode(block), code: message.isEmpty ? "" : message + "\n",
                                       summary: "updated the trap block of the scenario at line \(scenario.line)"))
            return verdict
        }
        if let extra = read.extraLine {
            verdict.findings.append(.error(
                .trapMalformed,
                "a 'trap' block holds one line: the runtime's message as the program traps (none for a trap it says nothing of)",
                at: lesson.location(line: block.firstCodeLine + extra - 1)))
        }
        if !TrapExpectation.matches(read.message, message) {
            verdict.findings.append(.error(
                .trapMismatch,
                "the scenario at line \(scenario.line) trapped with another message than its 'trap' block at line \(block.line) says",
                at: lesson.location(line: block.firstCodeLine),
                attachment: LineDiff.unified(from: block.code, to: message.isEmpty ? "" : message + "\n",
                                             oldLabel: "expected (\(lesson.path):\(block.line))",
                                             newLabel: "the runtime")
                    + (message.isEmpty ? "(the runtime said nothing: an empty 'trap' block stands for that)" : "")))
        }
        verdict.status = .failed
        return verdict
    }

    /// The finding of a `trap` scenario that did not trap: how it ended instead, and what it printed.
    static func trapMissing(_ scenario: Scenario, outcome: ScenarioOutcome, trap: CodeBlock, in lesson: Lesson) -> [Diagnostic] {
        let expects = "its 'trap' block at line \(trap.line) expects it to trap"
        switch outcome {
        case let .completed(output, standardError, _):
            return [.error(.trapMissing, "the scenario at line \(scenario.line) ran to its end (exit status 0), but \(expects)",
                           at: lesson.location(line: scenario.line),
                           attachment: ScenarioFailure.printed(output, standardError))]
        case let .crashed(termination, output, standardError, _):
            return [.error(.trapMissing, "the scenario at line \(scenario.line) \(ScenarioFailure.how(termination)), but \(expects) (a trap of the Swift runtime ends it with SIGILL, SIGTRAP or SIGABRT)",
                           at: lesson.location(line: scenario.line),
                           attachment: ScenarioFailure.printed(output, standardError))]
        case .timedOut, .outputCapped, .limitReached:
            return ScenarioFailure.findings(scenario, outcome: outcome, in: lesson).map { finding in
                var finding = finding
                finding.notes.append(.init(expects.prefix(1).uppercased() + expects.dropFirst(), at: lesson.location(line: trap.line)))
                return finding
            }
        case .compileFailed, .coreFailed, .typeChecked:
            return ScenarioFailure.findings(scenario, outcome: outcome, in: lesson)
        }
    }
}
