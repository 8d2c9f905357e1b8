/// The Swift language mode a scenario is compiled in: `-swift-version N`. The only part of the
/// compiler's command line a course can reach (`course.json`'s `"languageMode"`, a block's
/// `language-mode=N`).
package enum LanguageMode: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case swift5 = "5"
    case swift6 = "6"

    /// `language-mode=6`: the attribute of a `swift scenario` block.
    package static let attributePrefix = "language-mode="
}

/// What a scenario's lesson says it must do, from the blocks that follow it:
///
/// - `output` alone: compile, run to its end and print exactly that;
/// - `errors` (instead of `output`): fail to type-check with exactly the listed errors in its
///   own code, and never be linked or run;
/// - `output` then `trap`: print exactly that, then end by a trap of the Swift runtime whose
///   message is the `trap` block's line.
///
/// One value per scenario, so that what a check compares, what `--update` rewrites, what a
/// page shows and what a report says come from the same place. The blocks are kept whole
/// (their lines, their place in the lesson); how each is read and compared lives with the
/// check (`OutputExpectation`, `ErrorsExpectation`, `TrapExpectation`).
package struct Expectation: Sendable, Equatable {
    /// What the scenario must come to, as reports name it.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case output, errors, trap
    }

    /// The `output` block: what the program prints (for a trap, before it traps).
    package var output: CodeBlock?
    /// The `errors` block: the compiler's errors in the scenario's code, one per line.
    package var errors: CodeBlock?
    /// The `trap` block: the runtime's message as the program traps (empty for none).
    package var trap: CodeBlock?

    package init(output: CodeBlock? = nil, errors: CodeBlock? = nil, trap: CodeBlock? = nil) {
        self.output = output
        self.errors = errors
        self.trap = trap
    }

    package var kind: Kind { errors != nil ? .errors : trap != nil ? .trap : .output }

    /// Whether the lesson says anything of the scenario yet (a new scenario has no block).
    package var isEmpty: Bool { output == nil && errors == nil && trap == nil }

    /// The block of the expectation's own kind: the one a report quotes as `expected`.
    package var block: CodeBlock? {
        switch kind {
        case .output: output
        case .errors: errors
        case .trap: trap
        }
    }

    /// Every block, in lesson order.
    package var blocks: [CodeBlock] { [output, errors, trap].compactMap { $0 }.sorted { $0.id < $1.id } }
}

/// One error of the compiler in a scenario's own code, where its block has it: `line` counts
/// the block's lines (1 is the line after the opening fence; one past the last is the end of
/// the code, where a missing `}` is reported), `column` is the compiler's.
package struct CompilerError: Sendable, Equatable, Hashable, Codable {
    package var line: Int
    package var column: Int
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `2:1: error: cannot assign to value: 'x' is a 'let' constant`: the line of an `errors`
    /// block that states it.
    package var blockLine: String { "\(line):\(column): error: \(message)" }
}

/// An error of the compiler in a core file, met while type-checking a scenario.
package struct CoreError: Sendable, Equatable, Hashable, Codable {
    /// The core file's name (`Invalidation.swift`), as `course.json` lists it.
    package var file: String
    package var line: Int
    package var column: Int
    package var message: String

    package init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
}

/// What type-checking an `errors` scenario came to, as `swiftc -module-name main -typecheck
/// main.swift` (with the core files and the language mode) says it: the errors in the
/// scenario's own code, in the compiler's order, and those in the core files. Nothing is
/// linked or run.
package struct TypeCheck: Sendable, Equatable, Codable {
    package var errors: [CompilerError]
    package var coreErrors: [CoreError]

    package init(errors: [CompilerError], coreErrors: [CoreError] = []) {
        self.errors = errors
        self.coreErrors = coreErrors
    }

    /// The compiler accepted the program.
    package var compiles: Bool { errors.isEmpty && coreErrors.isEmpty }

    /// The errors as the lines of an `errors` block, one per line with a final newline; empty
    /// when there are none.
    package var blockText: String { errors.map { $0.blockLine + "\n" }.joined() }
}

/// The runtime's message when a program traps: the last line of its standard error that
/// holds `Fatal error:`, `Precondition failed:`, `Assertion failed:` or `Simultaneous accesses
/// to`, from that word on (the `file:line: ` before it names standard-library files and is not
/// compared); empty when there is none (an arithmetic overflow traps without a word).
package enum TrapMessage {
    package static let markers = ["Fatal error:", "Precondition failed:", "Assertion failed:", "Simultaneous accesses to"]

    package static func of(standardError: String) -> String {
        for line in standardError.split(separator: "\n", omittingEmptySubsequences: true).reversed() {
            var earliest: String.Index?
            for marker in markers {
                if let found = line.range(of: marker), earliest.map({ found.lowerBound < $0 }) ?? true {
                    earliest = found.lowerBound
                }
            }
            if let earliest {
                var message = line[earliest...]
                while let last = message.last, last == " " || last == "\t" || last == "\r" { message = message.dropLast() }
                return String(message)
            }
        }
        return ""
    }

    /// The signals by which the Swift runtime ends a program that traps: SIGILL (a trap
    /// instruction: a failed precondition, an overflow, a nil unwrapped), SIGTRAP (the same on
    /// some targets) and SIGABRT (the runtime's own `abort`, as an exclusivity violation ends).
    package static let signals: Set<Int32> = [4, 5, 6]

    /// Whether a program that ended so trapped.
    package static func isTrap(_ termination: Termination) -> Bool {
        if case .signaled(let signal) = termination { return signals.contains(signal) }
        return false
    }
}
