@testable import ScenarioRunning
import CourseModel
import Testing

/// A failed link of a batch names its culprits, in the words GNU gold and lld print (captured
/// from this toolchain's `swiftc` and `swiftc -use-ld=lld`, on a batch whose `scenarios-0.swift`
/// holds scenario 3 and the type `Rounding` it lifted, and `scenarios-1.swift` scenario 4, a
/// closure of it, and a function `helper` of no scenario, each calling `rounded()` without libm).
struct LinkBlameTests {
    /// Scenario 3 and 7 in file 0 (3 lifted `Rounding`, 7 `Ruler`), 4 and 9 in file 1.
    let members = [
        LinkBlame.Member(index: 3, file: 0, liftedNames: ["Rounding"]),
        LinkBlame.Member(index: 7, file: 0, liftedNames: ["Ruler"]),
        LinkBlame.Member(index: 4, file: 1),
        LinkBlame.Member(index: 9, file: 1, liftedNames: ["Round"]),
    ]

    static let gold = """
        error: link command failed with exit code 1 (use -v to see invocation)
        /tmp/TemporaryDirectory.DMuJ0a/scenarios-0-1.o:scenarios-0-1.o:function $s4main8RoundingV7nearestSdyF: error: undefined reference to 'round'
        /tmp/TemporaryDirectory.DMuJ0a/scenarios-1-1.o:scenarios-1-1.o:function $s4main6helperyS2dF: error: undefined reference to 'round'
        /tmp/TemporaryDirectory.DMuJ0a/scenarios-1-1.o:scenarios-1-1.o:function $s4main21__coursebookScenario4yyKFS2dXEfU_: error: undefined reference to 'round'
        clang: error: linker command failed with exit code 1 (use -v to see invocation)
        """

    static let lld = """
        error: link command failed with exit code 1 (use -v to see invocation)
        ld.lld: error: undefined symbol: round
        >>> referenced by scenarios-1-1.o
        >>>               /tmp/TemporaryDirectory.pXmHOz/scenarios-1-1.o:($s4main6helperyS2dF)
        >>> referenced by scenarios-1-1.o
        >>>               /tmp/TemporaryDirectory.pXmHOz/scenarios-1-1.o:($s4main21__coursebookScenario4yyKFS2dXEfU_)
        >>> referenced by scenarios-0-1.o
        >>>               /tmp/TemporaryDirectory.pXmHOz/scenarios-0-1.o:($s4main8RoundingV7nearestSdyF)

        ld.lld: error: undefined symbol: ceil
        >>> referenced by scenarios-1-1.o
        >>>               /tmp/TemporaryDirectory.pXmHOz/scenarios-1-1.o:($s4main6helperyS2dF)
        >>> referenced by scenarios-1-1.o
        >>>               /tmp/TemporaryDirectory.pXmHOz/scenarios-1-1.o:($s4main6helperyS2dF)
        >>> referenced 3 more times
        clang: error: linker command failed with exit code 1 (use -v to see invocation)
        """

    @Test func goldNamesTheFunctionOfEachBadReference() {
        let found = CompilerDiagnostic.parse(Self.gold)
        #expect(found.count == 4)
        #expect(found[0].isLinkSummary && !found[0].fromLinker)
        let linker = found.filter(\.fromLinker)
        #expect(linker.map(\.message) == Array(repeating: "undefined reference to 'round'", count: 3))
        // A method of a type the member lifted, a closure in a member's function, and a
        // function of no member, in a batch file whose members are suspects.
        #expect(linker.map { LinkBlame.of($0.linkerPlace, members: members) } == [.members([3]), .files([4, 9]), .members([4])])
    }

    @Test func lldNamesThemUnderItsWords() {
        let linker = CompilerDiagnostic.parse(Self.lld).filter(\.fromLinker)
        #expect(linker.map(\.message) == ["undefined symbol: round", "undefined symbol: ceil"])
        #expect(linker.allSatisfy { $0.file == nil && $0.severity == "error" })
        #expect(LinkBlame.of(linker[0].linkerPlace, members: members) == .members([3, 4]))
        #expect(LinkBlame.of(linker[1].linkerPlace, members: members) == .files([4, 9]))
    }

    @Test func aNameCountsOnlyWithItsOwnLength() {
        #expect(LinkBlame.mangles("$s4main8RoundingV7nearestSdyF", name: "Rounding"))
        // `Round` is not `Rounding`: its length would be 5.
        #expect(!LinkBlame.mangles("$s4main8RoundingV7nearestSdyF", name: "Round"))
        // `Ab` in `12Abcdefghijkl` is part of a 12-byte name.
        #expect(!LinkBlame.mangles("$s4main12AbcdefghijklV", name: "Ab"))
        #expect(LinkBlame.symbols(in: "a.o:a.o:function $s4main1xyF") == ["$s4main1xyF"])
        #expect(LinkBlame.batchFiles(in: "/t/scenarios-12-ab3.o:scenarios-12-ab3.o:function f") == [12])
        #expect(LinkBlame.batchFiles(in: "/t/main-1.o:main-1.o:function main") == [])
        // Nothing of the batch: not its objects, not its functions.
        #expect(LinkBlame.of("ld.lld", members: members) == .nothing)
    }
}

/// A batch whose link fails on one member sends that member alone and compiles the rest again:
/// three compiles, where halving the batch to find it took five or six. (These compile real
/// programs; `rounded()` needs libm, which a program alone does not link, nor a batch.)
struct BatchLinkBlameTests {
    func runner() throws -> ScenarioRunner {
        var settings = RunSettings()
        settings.parallelism = 2
        settings.timeLimit = .seconds(10)
        return ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil), coreFiles: [], settings: settings, cache: nil)
    }

    func job(_ code: String, line: Int, lifting: ScenarioHoisting? = nil) -> ScenarioJob {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        return ScenarioJob(source: ScenarioSource(code: code, file: "lessons/01-a.md", firstLine: line,
                                                  columnOffsets: Array(repeating: 0, count: max(lines, 1))),
                           shape: ScenarioShape(needsOwnProgram: lifting != nil, hasMainAttribute: false, hoisting: lifting))
    }

    func expectOneUnlinked(_ report: RunReport, culprit: Int, count: Int) {
        #expect(report.compilerRuns == 3, "\(report.compilerRuns) compiles")
        for index in 0..<count where index != culprit {
            #expect(report.outcomes[index].completedOutput?.hasSuffix("\(index)\n") == true, "\(index): \(report.outcomes[index])")
        }
        guard case let .compileFailed(errors, _) = report.outcomes[culprit] else {
            Issue.record("\(report.outcomes[culprit])"); return
        }
        #expect(errors.contains { $0.summary == "undefined reference to 'round'" }, "\(errors)")
    }

    /// The linker names a method of a type the culprit lifted (`$s4main7Circle5V4areaSdyF`).
    @Test func aLiftedTypesUnlinkedMethodIsBlamedOnItsScenario() throws {
        let culprit = 5
        let jobs = (0..<8).map { number in
            number == culprit
                ? job("struct Circle\(number) {\n    var radius = 1.5\n    func area() -> Double { (radius * radius * 3).rounded() }\n}\n"
                      + "print(Circle\(number)().area(), \(number))\n",
                      line: 10 + 10 * number, lifting: ScenarioHoisting(lines: [1...4], names: ["Circle\(number)"]))
                : job("struct Shape\(number) { var sides = \(number) }\nprint(Shape\(number)().sides)\n",
                      line: 10 + 10 * number, lifting: ScenarioHoisting(lines: [1...1], names: ["Shape\(number)"]))
        }
        expectOneUnlinked(try runner().run(jobs), culprit: culprit, count: jobs.count)
    }

    /// The linker names a closure in the culprit's function (`$s4main21__coursebookScenario2yyKF...U_`).
    @Test func aPlainScenariosUnlinkedClosureIsBlamedOnIt() throws {
        let culprit = 2
        let jobs = (0..<8).map { number in
            number == culprit
                ? job("print([1.5].map { $0.rounded() }, \(number))\n", line: 10 + 10 * number)
                : job("print(\(number))\n", line: 10 + 10 * number)
        }
        expectOneUnlinked(try runner().run(jobs), culprit: culprit, count: jobs.count)
    }
}
