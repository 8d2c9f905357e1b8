@testable import CourseChecking
import CourseModel
import Foundation
import TestSupport
import Testing

/// `errors` and `trap` blocks: how they are read, compared and rewritten, every verdict, and
/// what `--update` does and never does.
struct ErrorsExpectationTests {
    @Test func linesWithAndWithoutColumn() {
        let read = ErrorsExpectation.read("2:1: error: cannot assign\n\n3: error: no column: here\n", codeLines: 3)
        #expect(read.problems.isEmpty)
        #expect(read.errors == [
            .init(blockLine: 1, line: 2, column: 1, message: "cannot assign"),
            .init(blockLine: 3, line: 3, column: nil, message: "no column: here"),
        ])
    }

    @Test func linesThatStateNoErrorOfTheScenario() {
        let read = ErrorsExpectation.read("""
            2:1: warning: deprecated
            error: no line
            x:1: error: not a number
            0: error: before the first line
            5: error: after the end
            4:1: error: the end of the code
            2:1:3: error: too many numbers

            """, codeLines: 3)
        #expect(read.errors == [.init(blockLine: 6, line: 4, column: 1, message: "the end of the code")])
        #expect(read.problems.map(\.blockLine) == [1, 2, 3, 4, 5, 7])
        #expect(read.problems.map(\.id) == [.errorsLineMalformed, .errorsLineMalformed, .errorsLineMalformed,
                                            .errorsLineOutside, .errorsLineOutside, .errorsLineMalformed])
        #expect(read.problems[0].message == "an 'errors' block lists errors only; a warning is not compared: remove this line")
        #expect(read.problems[4].message == "the scenario has 3 lines, so it has no line 5 for an error to stand at")
    }

    @Test func aColumnIsComparedOnlyWhereGiven() {
        let actual = [CompilerError(line: 2, column: 14, message: "cannot convert value of type 'String' to specified type 'Int'")]
        let given = ErrorsExpectation.read("2:14: error: cannot convert value of type 'String' to specified type 'Int'\n", codeLines: 2).errors
        let columnless = ErrorsExpectation.read("2: error: cannot convert value of type 'String' to specified type 'Int'\n", codeLines: 2).errors
        let wrongColumn = ErrorsExpectation.read("2:13: error: cannot convert value of type 'String' to specified type 'Int'\n", codeLines: 2).errors
        let wrongLine = ErrorsExpectation.read("1: error: cannot convert value of type 'String' to specified type 'Int'\n", codeLines: 2).errors
        #expect(ErrorsExpectation.matches(given, actual))
        #expect(ErrorsExpectation.matches(columnless, actual))
        #expect(!ErrorsExpectation.matches(wrongColumn, actual))
        #expect(!ErrorsExpectation.matches(wrongLine, actual))
        #expect(!ErrorsExpectation.matches(given + given, actual))
        #expect(!ErrorsExpectation.matches([], actual))
    }

    /// `--update` writes the compiler's errors, leaving without a column each line whose line and
    /// message the block already states without one.
    @Test func rewritingKeepsTheColumnlessForm() {
        let actual = [CompilerError(line: 2, column: 1, message: "a"), CompilerError(line: 3, column: 5, message: "b"),
                      CompilerError(line: 3, column: 9, message: "b"), CompilerError(line: 4, column: 2, message: "c")]
        let block = ErrorsExpectation.read("2: error: a\n3: error: b\n4: error: old message\n", codeLines: 4).errors
        #expect(ErrorsExpectation.rewritten(actual, keeping: block) == "2: error: a\n3: error: b\n3:9: error: b\n4:2: error: c\n")
    }
}

struct TrapMessageTests {
    @Test(arguments: [
        ("Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range\nCurrent stack trace:\n0  libswiftCore.so 0x1\n",
         "Fatal error: Index out of range"),
        ("main/pre.swift:2: Precondition failed: A person's age can't be less than zero.\n",
         "Precondition failed: A person's age can't be less than zero."),
        ("main/a.swift:2: Assertion failed: age  \n", "Assertion failed: age"),
        ("Simultaneous accesses to 0x555555557158, but modification requires exclusive access.\nPrevious access (a modification) started at main`<unavailable> + 3100 (0x555555555c1c).\nCurrent access (a read) started at:\nFatal access conflict detected.\n",
         "Simultaneous accesses to 0x555555557158, but modification requires exclusive access."),
        ("Fatal error: first\nsomething\nmain/x.swift:9: Fatal error: last\n", "Fatal error: last"),
        ("", ""),
        ("just words\n", ""),
    ])
    func theMessageIsTheLastLineWithAMarker(standardError: String, message: String) {
        #expect(TrapMessage.of(standardError: standardError) == message)
    }

    @Test func trapsAreTheRuntimesSignals() {
        #expect(TrapMessage.isTrap(.signaled(4)) && TrapMessage.isTrap(.signaled(5)) && TrapMessage.isTrap(.signaled(6)))
        #expect(!TrapMessage.isTrap(.signaled(11)) && !TrapMessage.isTrap(.exited(0)) && !TrapMessage.isTrap(.exited(134)))
    }
}

struct ListingsThatMustFailTests {
    static let refused = """
        # L

        ```swift scenario
        let name = "Swift"
        name = "Swift++"
        ```

        ```errors
        2:1: error: cannot assign to value: 'name' is a 'let' constant
        ```

        """
    static let code = "let name = \"Swift\"\nname = \"Swift++\"\n"
    static let letError = CompilerError(line: 2, column: 1, message: "cannot assign to value: 'name' is a 'let' constant")

    func check(_ text: String, _ outcomes: [String: ScenarioOutcome], update: Bool = false) -> CheckReport {
        let (read, found) = course([text])
        return CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(update: update),
                               runner: TableRunner(outcomes: outcomes))
    }

    @Test func anErrorsScenarioIsTypeCheckedAndPassesOnItsErrors() {
        let (read, _) = course([Self.refused])
        #expect(CourseCheck.scenariosToRun(read).map(\.source.goal) == [.typeCheck])
        let report = check(Self.refused, [Self.code: .typeChecked(TypeCheck(errors: [Self.letError]), fromCache: false)])
        #expect(report.passed == 1 && report.diagnostics.isEmpty)
        #expect(report.results[0].verifiedErrors == [Self.letError])
    }

    @Test func otherErrorsFailWithADiff() {
        let other = CompilerError(line: 2, column: 6, message: "cannot find 'x' in scope")
        let report = check(Self.refused, [Self.code: .typeChecked(TypeCheck(errors: [other]), fromCache: false)])
        #expect(report.failed == 1)
        #expect(report.diagnostics.map(\.id) == [.errorsMismatch])
        #expect(report.diagnostics[0].summary == "the compiler's errors for the scenario at line 3 differ from its 'errors' block at line 8")
        #expect(report.diagnostics[0].location == SourceLocation(file: "lessons/01-lesson.md", line: 9, column: 1))
        #expect(report.diagnostics[0].attachment == """
            --- expected (lessons/01-lesson.md:8)
            +++ the compiler (plain swiftc)
            @@ -1 +1 @@
            -2:1: error: cannot assign to value: 'name' is a 'let' constant
            +2:6: error: cannot find 'x' in scope

            """)
    }

    @Test func aScenarioThatCompilesFailsAndUpdateLeavesItSo() {
        for update in [false, true] {
            let report = check(Self.refused, [Self.code: .typeChecked(TypeCheck(errors: []), fromCache: false)], update: update)
            #expect(report.failed == 1 && report.rewrites.isEmpty)
            #expect(report.diagnostics.map(\.id) == [.errorsCompiled])
            #expect(report.diagnostics[0].location?.line == 8)
        }
    }

    @Test func anErrorInACoreFileIsAFindingOfItsOwn() {
        let core = CoreError(file: "Core.swift", line: 4, column: 2, message: "invalid redeclaration of 'Core'")
        let report = check(Self.refused, [Self.code: .typeChecked(TypeCheck(errors: [Self.letError], coreErrors: [core]),
                                                                  fromCache: false)], update: true)
        #expect(report.failed == 1 && report.rewrites.isEmpty)
        #expect(report.diagnostics.map(\.id) == [.errorsInCore])
        #expect(report.diagnostics[0].notes == [.init("error: invalid redeclaration of 'Core'",
                                                      at: SourceLocation(file: "Sources/Core.swift", line: 4, column: 2))])
    }

    @Test func aLineTheBlockDoesNotHaveIsAnErrorAtThatLineOfTheBlock() {
        let text = Self.refused.replacingOccurrences(of: "2:1: error:", with: "7:1: error:")
        let report = check(text, [Self.code: .typeChecked(TypeCheck(errors: [Self.letError]), fromCache: false)])
        #expect(report.diagnostics.map(\.id) == [.errorsLineOutside, .errorsMismatch])
        #expect(report.diagnostics[0].location == SourceLocation(file: "lessons/01-lesson.md", line: 9, column: 1))
        #expect(report.diagnostics[0].summary == "the scenario has 2 lines, so it has no line 7 for an error to stand at")
    }

    @Test func updateRewritesTheBlockAndKeepsTheColumnlessForm() throws {
        let text = Self.refused.replacingOccurrences(of: "2:1: error: cannot assign", with: "2: error: cannot assign")
        let second = CompilerError(line: 1, column: 5, message: "something else")
        let report = check(text, [Self.code: .typeChecked(TypeCheck(errors: [second, Self.letError]), fromCache: false)], update: true)
        #expect(report.passed == 1 && report.diagnostics.isEmpty)
        let rewritten = String(decoding: try #require(report.rewrites.first).bytes, as: UTF8.self)
        #expect(rewritten.contains("```errors\n1:5: error: something else\n2: error: cannot assign to value: 'name' is a 'let' constant\n```\n"))
        #expect(report.updates.map(\.summary) == ["updated the errors block of the scenario at line 3"])
    }

    /// A scenario that does not compile and has no `errors` block stays an error of the check,
    /// with or without `--update`.
    @Test func updateNeverMakesAnErrorsBlockOfACompileError() {
        let text = "# L\n\n```swift scenario\nx = 1\n```\n\n```output\n```\n"
        let failure = Diagnostic.error(.compileError, "cannot find 'x' in scope", at: SourceLocation(file: "lessons/01-lesson.md", line: 4, column: 1))
        let report = check(text, ["x = 1\n": .compileFailed([failure])], update: true)
        #expect(report.failed == 1 && report.rewrites.isEmpty && report.diagnostics == [failure])
    }
}

struct TrapScenarioTests {
    static let text = """
        # L

        ```swift scenario
        let scores = [90, 85]
        print(scores[0])
        print(scores[2])
        ```

        ```output
        90
        ```

        ```trap
        Fatal error: Index out of range
        ```

        """
    static let code = "let scores = [90, 85]\nprint(scores[0])\nprint(scores[2])\n"
    static let stderr = "Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range\nCurrent stack trace:\n0 x\n"

    func check(_ outcome: ScenarioOutcome, text: String = Self.text, update: Bool = false) -> CheckReport {
        let (read, found) = course([text])
        return CourseCheck.run(read, loadDiagnostics: found, options: CheckOptions(update: update),
                               runner: TableRunner(outcomes: [Self.code: outcome]))
    }

    @Test func passesOnItsOutputAndMessage() {
        let report = check(.crashed(.signaled(4), output: "90\n", standardError: Self.stderr))
        #expect(report.passed == 1 && report.diagnostics.isEmpty)
        #expect(report.results[0].verifiedOutput == "90\n" && report.results[0].verifiedTrap == "Fatal error: Index out of range")
    }

    @Test func anotherMessageOrOutputFails() {
        let message = check(.crashed(.signaled(4), output: "90\n", standardError: "x: Fatal error: Unexpectedly found nil\n"))
        #expect(message.failed == 1 && message.diagnostics.map(\.id) == [.trapMismatch])
        #expect(message.diagnostics[0].attachment == """
            --- expected (lessons/01-lesson.md:13)
            +++ the runtime
            @@ -1 +1 @@
            -Fatal error: Index out of range
            +Fatal error: Unexpectedly found nil

            """)
        let output = check(.crashed(.signaled(4), output: "91\n", standardError: Self.stderr))
        #expect(output.failed == 1 && output.diagnostics.map(\.id) == [.outputMismatch])
    }

    @Test(arguments: [
        (ScenarioOutcome.completed(output: "90\n", standardError: "", fromCache: false),
         "the scenario at line 3 ran to its end (exit status 0), but its 'trap' block at line 13 expects it to trap"),
        (.crashed(.exited(3), output: "90\n", standardError: ""),
         "the scenario at line 3 exited with status 3, but its 'trap' block at line 13 expects it to trap (a trap of the Swift runtime ends it with SIGILL, SIGTRAP or SIGABRT)"),
        (.crashed(.signaled(11), output: "", standardError: ""),
         "the scenario at line 3 crashed: signal 11 (SIGSEGV), but its 'trap' block at line 13 expects it to trap (a trap of the Swift runtime ends it with SIGILL, SIGTRAP or SIGABRT)"),
    ])
    func anyOtherEndingFailsAndSaysHowItEnded(outcome: ScenarioOutcome, message: String) {
        for update in [false, true] {
            let report = check(outcome, update: update)
            #expect(report.failed == 1 && report.rewrites.isEmpty)
            #expect(report.diagnostics.map(\.summary) == [message])
        }
    }

    @Test func aTimeOutSaysSoWithTheTrapItExpected() {
        let report = check(.timedOut(limit: .seconds(1), output: "", standardError: ""))
        #expect(report.diagnostics.map(\.id) == [.scenarioTimeout])
        #expect(report.diagnostics[0].notes.map(\.message) == ["Its 'trap' block at line 13 expects it to trap"])
    }

    @Test func updateRewritesBothBlocks() throws {
        let report = check(.crashed(.signaled(4), output: "90\n85\n", standardError: "main/m.swift:3: Fatal error: Unexpectedly found nil\n"),
                           update: true)
        #expect(report.passed == 1)
        let rewritten = String(decoding: try #require(report.rewrites.first).bytes, as: UTF8.self)
        #expect(rewritten.hasSuffix("```output\n90\n85\n```\n\n```trap\nFatal error: Unexpectedly found nil\n```\n"))
        #expect(report.updates.map(\.summary) == ["updated the output block of the scenario at line 3",
                                                  "updated the trap block of the scenario at line 3"])
    }

    /// A trap the runtime says nothing of (an overflow) is an empty `trap` block.
    @Test func aSilentTrapIsAnEmptyBlock() throws {
        let text = Self.text.replacingOccurrences(of: "Fatal error: Index out of range\n", with: "")
        #expect(check(.crashed(.signaled(4), output: "90\n", standardError: ""), text: text).passed == 1)
        let updated = check(.crashed(.signaled(4), output: "90\n", standardError: ""), update: true)
        let rewritten = String(decoding: try #require(updated.rewrites.first).bytes, as: UTF8.self)
        #expect(rewritten.hasSuffix("```trap\n```\n"))
    }

    /// A `trap` block with no `output` before it: `--update` inserts the output block.
    @Test func updateInsertsTheMissingOutputBlock() throws {
        let text = Self.text.replacingOccurrences(of: "```output\n90\n```\n\n", with: "")
        let plain = check(.crashed(.signaled(4), output: "90\n", standardError: Self.stderr), text: text)
        #expect(plain.failed == 1 && plain.diagnostics.map(\.id) == [.scenarioWithoutOutput])
        let updated = check(.crashed(.signaled(4), output: "90\n", standardError: Self.stderr), text: text, update: true)
        #expect(updated.passed == 1 && updated.diagnostics.isEmpty)
        let rewritten = String(decoding: try #require(updated.rewrites.first).bytes, as: UTF8.self)
        #expect(rewritten == Self.text)
    }

    @Test func aTrapBlockHoldsOneLine() {
        let text = Self.text.replacingOccurrences(of: "Fatal error: Index out of range\n", with: "Fatal error: Index out of range\nmore\n")
        let report = check(.crashed(.signaled(4), output: "90\n", standardError: Self.stderr), text: text)
        #expect(report.failed == 1 && report.diagnostics.map(\.id) == [.trapMalformed])
        #expect(report.diagnostics[0].location?.line == 15)
    }
}
