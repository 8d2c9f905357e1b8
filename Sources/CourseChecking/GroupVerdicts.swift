import CourseModel

/// Programs told over several blocks (listings.md, section 4): the blocks of a lesson with the
/// same `group=NAME` are one program, run once; each `output` block holds what the program
/// printed since the group's previous one. The runner gives the program's outcome at the
/// place of the group's first block, its output split at the blocks (`GroupOutput`); here it
/// becomes each block's own outcome, so that every `output` block is judged, rewritten and
/// reported as a scenario's is.
extension CourseCheck {
    /// The groups of a lesson, in the order their first blocks come: each the indices of its
    /// scenarios (skipped groups left out: nothing of them runs).
    package static func groups(of lesson: Lesson) -> [(name: String, members: [Int])] {
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (index, scenario) in lesson.scenarios.enumerated() where !scenario.isSkipped {
            guard let group = scenario.group else { continue }
            if members[group] == nil { order.append(group) }
            members[group, default: []].append(index)
        }
        return order.map { ($0, members[$0]!) }
    }

    /// The program a group's blocks make, as the runner compiles it.
    static func groupSource(_ members: [Scenario], in lesson: Lesson, languageMode: LanguageMode?) -> ScenarioSource {
        let parts = members.map {
            ScenarioPart(code: $0.compiledCode, firstLine: $0.block.firstCodeLine, columnOffsets: $0.compiledColumnOffsets)
        }
        return ScenarioSource(group: parts, file: lesson.path, languageMode: members[0].languageMode ?? languageMode)
    }

    /// Every block's outcome, from those of the groups' programs (at each group's first block);
    /// the other outcomes as they are. A block of a group gets an outcome when it is judged: it
    /// has an `output` (or `trap`) block, it is the group's last, or a finding stands at it.
    package static func withGroupBlocks(_ course: Course, _ outcomes: [ScenarioPlace: ScenarioOutcome]) -> [ScenarioPlace: ScenarioOutcome] {
        var result = outcomes
        for (lessonIndex, lesson) in course.lessons.enumerated() {
            for group in groups(of: lesson) {
                let first = ScenarioPlace(lesson: lessonIndex, scenario: group.members[0])
                guard let outcome = outcomes[first] else { continue }
                let members = group.members.map { lesson.scenarios[$0] }
                for (member, shared) in zip(group.members, memberOutcomes(members, name: group.name, outcome: outcome, in: lesson)) {
                    result[ScenarioPlace(lesson: lessonIndex, scenario: member)] = shared
                }
            }
        }
        return result
    }

    /// What the program's outcome is for each of its blocks, nil for a block that is not judged.
    static func memberOutcomes(_ members: [Scenario], name: String, outcome: ScenarioOutcome,
                               in lesson: Lesson) -> [ScenarioOutcome?] {
        let last = members.count - 1
        func judged(_ index: Int) -> Bool {
            index == last || members[index].expectation.output != nil || members[index].expectation.trap != nil
                || members[index].expectation.errors != nil
        }
        var shares = [ScenarioOutcome?](repeating: nil, count: members.count)
        switch outcome {
        case let .compileFailed(diagnostics, fromCache):
            var placed = [[Diagnostic]](repeating: [], count: members.count)
            for diagnostic in diagnostics {
                let line = diagnostic.location?.line ?? 0
                let owner = members.lastIndex { $0.block.firstCodeLine <= line } ?? last
                placed[owner].append(diagnostic)
            }
            let firstError = diagnostics.first?.location.map { " (its first error is at line \($0.line))" } ?? ""
            for index in members.indices where judged(index) || !placed[index].isEmpty {
                shares[index] = .compileFailed(placed[index].isEmpty ? [.error(
                    .compileError,
                    "the program of the group 'group=\(name)' does not compile\(firstError), so this block did not run",
                    at: lesson.location(line: members[index].line))] : placed[index], fromCache: fromCache)
            }
            return shares
        case .coreFailed, .typeChecked, .notReached:
            for index in members.indices where judged(index) { shares[index] = outcome }
            return shares
        case .completed, .crashed, .timedOut, .outputCapped, .limitReached:
            break
        }
        let raw = outcome.printedOutput ?? ""
        let segments = GroupOutput.decoded(raw) ?? [raw]
        // The block it stopped in: the last one it began.
        let stopped = min(segments.count - 1, last)
        let completed: Bool
        if case .completed = outcome { completed = true } else { completed = false }
        var printed = ""
        for index in members.indices {
            if index <= stopped {
                printed += segments[index]
                if index == stopped, !completed {
                    // A program that ran past its last block's marker is not possible; the rest
                    // of the output belongs to the block it stopped in.
                    printed += segments.dropFirst(stopped + 1).joined()
                    shares[index] = outcome.replacingOutput(printed)
                    printed = ""
                } else if judged(index) {
                    shares[index] = .completed(output: printed, standardError: outcome.standardError ?? "",
                                               fromCache: outcome.isFromCache)
                    printed = ""
                }
            } else if judged(index) {
                shares[index] = .notReached(stoppedAt: members[stopped].line)
            }
        }
        return shares
    }
}

extension ScenarioOutcome {
    /// What the program printed, for an outcome of a program that ran.
    var printedOutput: String? {
        switch self {
        case let .completed(output, _, _), let .crashed(_, output, _, _), let .timedOut(_, output, _),
             let .outputCapped(_, output, _), let .limitReached(_, output, _):
            return output
        case .compileFailed, .coreFailed, .typeChecked, .notReached:
            return nil
        }
    }

    var standardError: String? {
        switch self {
        case let .completed(_, standardError, _), let .crashed(_, _, standardError, _), let .timedOut(_, _, standardError),
             let .outputCapped(_, _, standardError), let .limitReached(_, _, standardError):
            return standardError
        case .compileFailed, .coreFailed, .typeChecked, .notReached:
            return nil
        }
    }

    var isFromCache: Bool {
        switch self {
        case let .completed(_, _, fromCache), let .crashed(_, _, _, fromCache), let .typeChecked(_, fromCache),
             let .compileFailed(_, fromCache): fromCache
        default: false
        }
    }

    /// The same ending with another output (a group's block's share of it).
    func replacingOutput(_ output: String) -> ScenarioOutcome {
        switch self {
        case let .completed(_, standardError, fromCache):
            .completed(output: output, standardError: standardError, fromCache: fromCache)
        case let .crashed(termination, _, standardError, fromCache):
            .crashed(termination, output: output, standardError: standardError, fromCache: fromCache)
        case let .timedOut(limit, _, standardError): .timedOut(limit: limit, output: output, standardError: standardError)
        case let .outputCapped(cap, _, standardError): .outputCapped(cap: cap, output: output, standardError: standardError)
        case let .limitReached(limit, _, standardError): .limitReached(limit, output: output, standardError: standardError)
        case .compileFailed, .coreFailed, .typeChecked, .notReached: self
        }
    }
}
