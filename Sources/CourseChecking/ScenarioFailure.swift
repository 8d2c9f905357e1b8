import CourseModel
import Foundation

/// The findings for a scenario that did not run to its end: how it ended, and what it printed.
enum ScenarioFailure {
    static func findings(_ scenario: Scenario, outcome: ScenarioOutcome, in lesson: Lesson) -> [Diagnostic] {
        let here = lesson.location(line: scenario.line)
        switch outcome {
        case .completed, .coreFailed:
            return []
        case .compileFailed(let diagnostics, _):
            return diagnostics
        case .typeChecked(let check, _):
            // Only an `errors` scenario is type-checked without running; its verdict says more.
            return check.compiles ? [] : [.error(.compileError, "scenario does not compile", at: here,
                                                  attachment: check.blockText)]
        case let .crashed(termination, output, standardError, _):
            return [.error(.scenarioCrashed, "scenario \(how(termination))", at: here,
                           attachment: printed(output, standardError))]
        case .notReached(let stoppedAt):
            return [.error(.groupNotReached,
                           "block not run: the group's program stopped in its block at line \(stoppedAt)", at: here)]
        case let .timedOut(limit, output, standardError):
            return [.error(.scenarioTimeout,
                           "scenario ran longer than \(seconds(limit)) and was stopped (--timeout sets the limit)",
                           at: here, attachment: printed(output, standardError))]
        case let .outputCapped(cap, output, standardError):
            return [.error(.scenarioOutputCap,
                           "scenario printed more than \(bytes(cap)) and was stopped; its output is cut there",
                           at: here, attachment: printed(lastLines(output, 20), standardError))]
        case let .limitReached(limit, output, standardError):
            return [.error(.scenarioLimit, "scenario \(reached(limit)) and was stopped (\(option(limit)) raises the limit)",
                           at: here, attachment: printed(lastLines(output, 20), standardError))]
        }
    }

    /// What the scenario did, in words: "used more than 512 MiB of memory".
    static func reached(_ limit: ScenarioLimit) -> String {
        switch limit {
        case .memory(let bytes): return "used more than \(self.bytes(bytes)) of memory"
        case .processes(let count): return "reached \(count) processes and threads at once"
        case .openFiles(let count): return "held \(count) open files in one process"
        case let .temporarySpace(folder, bytes): return "filled \(folder) (\(self.bytes(bytes)))"
        }
    }

    /// The command-line option that sets `limit`.
    static func option(_ limit: ScenarioLimit) -> String {
        switch limit {
        case .memory: return "--memory-limit"
        case .processes: return "--process-limit"
        case .openFiles: return "--file-limit"
        case .temporarySpace: return "--tmp-size"
        }
    }

    /// How a program ended, said after "scenario": `crashed: signal 11 (SIGSEGV)`, `exited with
    /// status 3`.
    static func how(_ termination: Termination) -> String {
        switch termination {
        case .signaled: "crashed: \(termination)"
        case .exited(0): "ended its program before finishing"
        case .exited(let status): "exited with status \(status)"
        }
    }

    /// What a program printed, for under a finding; nil when it printed nothing.
    static func printed(_ output: String, _ standardError: String) -> String? {
        var parts: [String] = []
        if !output.isEmpty { parts.append("standard output:\n" + indented(output)) }
        let errors = withoutStackTrace(standardError)
        if !errors.isEmpty { parts.append("standard error:\n" + indented(lastLines(errors, 40))) }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }

    private static func indented(_ text: String) -> String {
        LineDiff.lines(text).map { "    " + $0 }.joined(separator: "\n")
    }

    /// The runtime's own stack trace after a fatal error names addresses in a generated program:
    /// nothing a lesson author can use. The message above it stays.
    private static func withoutStackTrace(_ text: String) -> String {
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

    private static func lastLines(_ text: String, _ count: Int) -> String {
        let lines = LineDiff.lines(text)
        guard lines.count > count else { return text }
        return (["... (\(lines.count - count) lines before)"] + lines.suffix(count)).joined(separator: "\n")
    }

    private static func bytes(_ count: Int) -> String {
        count % (1 << 20) == 0 ? "\(count >> 20) MiB" : count % 1024 == 0 ? "\(count >> 10) KiB" : "\(count) bytes"
    }
}
