@testable import ScenarioRunning
import CourseModel
import Foundation
import CourseFiles
import TestSupport
import Testing

/// `errors` scenarios type-checked (and never run), language modes, traps kept in the cache,
/// memory laid out the same on every run, the linker's own words. Real compiles.
struct TypeCheckAndTrapTests {
    let corePath = packageRoot.appendingPathComponent("Sources/Invalidation/Invalidation.swift").path

    func runner(core: Bool = true, cache: ResultCache? = nil, mode: LanguageMode? = nil,
                sandbox: SandboxMode = .automatic) throws -> ScenarioRunner {
        var settings = RunSettings()
        settings.languageMode = mode
        settings.sandbox = sandbox
        let coreFiles = core ? [CoreFile(name: "Invalidation.swift", path: corePath, displayPath: "Sources/Invalidation/Invalidation.swift",
                                         text: try String(contentsOfFile: corePath, encoding: .utf8))] : []
        return ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil), coreFiles: coreFiles,
                              settings: settings, cache: cache)
    }

    func job(_ code: String, goal: ScenarioGoal = .run, mode: LanguageMode? = nil, alone: Bool = false,
             leavesCoreAlone: Bool = false) -> ScenarioJob {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        var source = ScenarioSource(code: code, file: "lessons/01-a.md", firstLine: 10,
                                    columnOffsets: Array(repeating: 0, count: max(lines, 1)), languageMode: mode, goal: goal)
        source.leavesCoreAlone = leavesCoreAlone
        return ScenarioJob(source: source, shape: ScenarioShape(needsOwnProgram: alone, hasMainAttribute: false))
    }

    /// The errors come at their block's lines and columns; nothing is linked or run; the second
    /// time they come from the cache, and no compiler runs.
    @Test func anErrorsScenarioIsTypeCheckedAndKept() throws {
        let folder = temporaryFolder("typecheck-cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path)
        let jobs = [job("let name = \"Swift\"\nname = \"Swift++\"\n", goal: .typeCheck),
                    job("print(\"fine\")\n", goal: .typeCheck)]
        let first = try runner(cache: cache).run(jobs)
        #expect(first.outcomes == [
            .typeChecked(TypeCheck(errors: [CompilerError(line: 2, column: 1, message: "cannot assign to value: 'name' is a 'let' constant")]),
                         fromCache: false),
            .typeChecked(TypeCheck(errors: []), fromCache: false),
        ])
        #expect(first.compilerRuns == 2 && first.compiledCount == 2)
        let second = try runner(cache: cache).run(jobs)
        #expect(second.compilerRuns == 0 && second.cachedCount == 2)
        #expect(second.outcomes == first.outcomes.map { outcome in
            guard case let .typeChecked(check, _) = outcome else { return outcome }
            return .typeChecked(check, fromCache: true)
        })
    }

    /// The driver lists an output map for a job of three primary files, in a temporary folder
    /// gone by the next run (`coursebook check` twice failed on a course with two core files):
    /// the kept command leaves an empty map out, and a map that names outputs is never kept.
    @Test func anEmptyOutputMapIsLeftOut() throws {
        let folder = temporaryFolder("output-map")
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.json").path
        let named = folder.appendingPathComponent("named.json").path
        try Data(#"{ "a.swift" : { }, "b.swift" : { } }"#.utf8).write(to: URL(fileURLWithPath: empty))
        try Data(#"{ "a.swift" : { "dependencies" : "a.d" } }"#.utf8).write(to: URL(fileURLWithPath: named))
        #expect(withoutEmptyOutputMap(["f", "-typecheck", "-supplementary-output-file-map", empty, "-target", "x"])
                == ["f", "-typecheck", "-target", "x"])
        #expect(withoutEmptyOutputMap(["f", "-supplementary-output-file-map", named]) == nil)
        #expect(withoutEmptyOutputMap(["f", "-supplementary-output-file-map", folder.path + "/gone.json"]) == nil)
        #expect(withoutEmptyOutputMap(["f", "-typecheck"]) == ["f", "-typecheck"])
    }

    /// The language mode is the compiler's `-swift-version`: the same code is refused in mode 6
    /// and compiles in mode 5; a type-check and a run of it are kept apart in the cache.
    @Test func theLanguageModeReachesTheCompiler() throws {
        let code = "var counter = 0\nfunc increment() {\n    counter += 1\n}\nincrement()\nprint(counter)\n"
        let report = try runner(core: false).run([
            job(code, goal: .typeCheck, mode: .swift6), job(code, goal: .typeCheck, mode: .swift5),
            job(code, mode: .swift5), job(code),
        ])
        #expect(report.outcomes[0] == .typeChecked(TypeCheck(errors: [
            CompilerError(line: 3, column: 5, message: "main actor-isolated var 'counter' can not be mutated from a nonisolated context"),
        ]), fromCache: false))
        #expect(report.outcomes[1] == .typeChecked(TypeCheck(errors: []), fromCache: false))
        #expect(report.outcomes[2].completedOutput == "1\n" && report.outcomes[3].completedOutput == "1\n")
        let keys = Set([job(code, goal: .typeCheck, mode: .swift6), job(code, goal: .typeCheck, mode: .swift5),
                        job(code, mode: .swift5), job(code)].map {
            ResultCache.key(toolVersion: "t", compilerVersion: "c", coreDigest: "d", source: $0.source)
        })
        #expect(keys.count == 4)
    }

    /// With the core: scenarios that leave the core alone share one check of it, and say what
    /// the whole type-check says; one that breaks the core meets its errors.
    @Test func scenariosThatLeaveTheCoreAloneShareItsCheck() throws {
        let jobs = (0..<3).map { job("let count\($0): Int = \"\($0)\"\n", goal: .typeCheck, leavesCoreAlone: true) }
            + [job("typealias StringLiteralType = Int\n", goal: .typeCheck)]
        let shared = try runner().run(jobs)
        // Three own jobs, one of the core, one whole type-check.
        #expect(shared.compilerRuns == 5)
        let alone = try runner().run(jobs.map { var exact = $0; exact.source.leavesCoreAlone = false; return exact })
        #expect(alone.compilerRuns == 4)
        #expect(shared.outcomes == alone.outcomes)
        #expect(shared.outcomes[0] == .typeChecked(TypeCheck(errors: [
            CompilerError(line: 1, column: 19, message: "cannot convert value of type 'String' to specified type 'Int'"),
        ]), fromCache: false))
        guard case let .typeChecked(check, _) = shared.outcomes[3] else { Issue.record("\(shared.outcomes[3])"); return }
        #expect(check.errors.isEmpty && !check.coreErrors.isEmpty && check.coreErrors.allSatisfy { $0.file == "Invalidation.swift" })
    }

    /// A core that does not compile by itself: the scenarios that would share its check are
    /// type-checked again with it, and each meets its errors, as the whole type-check says.
    @Test func aBrokenCoreIsCheckedWithEveryScenario() throws {
        let folder = temporaryFolder("broken-core")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Broken.swift").path
        let text = "func broken() -> Int {\n    return \"x\"\n}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let runner = ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil),
                                    coreFiles: [CoreFile(name: "Broken.swift", path: path, displayPath: "Broken.swift", text: text)],
                                    settings: RunSettings(), cache: nil)
        let report = runner.run((0..<3).map { job("let value\($0) = \($0)\n", goal: .typeCheck, leavesCoreAlone: true) })
        let core = CoreError(file: "Broken.swift", line: 2, column: 12, message: "cannot convert return expression of type 'String' to return type 'Int'")
        #expect(report.outcomes == Array(repeating: .typeChecked(TypeCheck(errors: [], coreErrors: [core]), fromCache: false), count: 3))
        // Three own jobs and the core's, then the three again with it.
        #expect(report.compilerRuns == 7)
    }

    /// A trap is kept in the cache from a program of its own, and comes back as it was.
    @Test func aTrapIsKeptFromAProgramOfItsOwn() throws {
        let folder = temporaryFolder("trap-cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path)
        let code = "print(\"before\")\nlet xs = [1]\nprint(xs[2])\n"
        let first = try runner(core: false, cache: cache).run([job(code, alone: true)])
        guard case let .crashed(termination, output, standardError, false) = first.outcomes[0] else {
            Issue.record("\(first.outcomes[0])"); return
        }
        #expect(TrapMessage.isTrap(termination) && output == "before\n")
        #expect(TrapMessage.of(standardError: standardError) == "Fatal error: Index out of range")
        let second = try runner(core: false, cache: cache).run([job(code, alone: true)])
        #expect(second.compilerRuns == 0)
        guard case let .crashed(again, output2, _, true) = second.outcomes[0] else { Issue.record("\(second.outcomes[0])"); return }
        #expect(again == termination && output2 == output)
    }

    /// A trap in a batch is not kept: its message could name another address than the
    /// program alone gives, and a trap scenario runs alone.
    @Test func aTrapInABatchIsNotKept() throws {
        let folder = temporaryFolder("batch-trap-cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path)
        let jobs = [job("print(1)\n"), job("print([1][2])\n"), job("print(3)\n")]
        let first = try runner(core: false, cache: cache).run(jobs)
        guard case .crashed(let termination, _, _, false) = first.outcomes[1], TrapMessage.isTrap(termination) else {
            Issue.record("\(first.outcomes[1])"); return
        }
        let second = try runner(core: false, cache: cache).run(jobs)
        #expect(second.cachedCount == 2 && second.compiledCount == 1)
    }

    /// Memory is laid out the same on every run of a program (address randomisation off), in
    /// the sandbox and out of it, batched and alone.
    @Test(arguments: [SandboxMode.automatic, .off])
    func aPrintedAddressIsTheSameOnEveryRun(sandbox: SandboxMode) throws {
        let code = "var value = 1\nwithUnsafePointer(to: &value) { print($0) }\nprint(Unmanaged.passUnretained([1, 2] as AnyObject).toOpaque())\n"
        let jobs = [job(code, alone: true), job(code + "print(1)\n"), job(code + "print(2)\n")]
        let first = try runner(core: false, sandbox: sandbox).run(jobs)
        let second = try runner(core: false, sandbox: sandbox).run(jobs)
        #expect(first.outcomes.allSatisfy { $0.completedOutput?.hasPrefix("0x") == true }, "\(first.outcomes)")
        // Out of the sandbox a later scenario of a batch inherits a heap that the timing of the
        // scenarios before it shaped (docs/how-a-check-runs.md says so): the program alone and the first of
        // the batch are held to the same addresses there.
        let held = sandbox == .off ? 2 : jobs.count
        #expect(first.outcomes.prefix(held).map(\.completedOutput) == second.outcomes.prefix(held).map(\.completedOutput))
    }

    /// What only the passes after the type-check refuse (a constant read before it is set, two
    /// `inout` arguments that alias, overlapping accesses) are the scenario's errors, at their
    /// lines, without the diagnostic group; code they accept still compiles.
    @Test func theMandatoryPassesErrorsAreTheVerdictsToo() throws {
        let jobs = [job("let x: Int\nprint(x)\n", goal: .typeCheck),
                    job("func h(_ a: inout Int, _ b: inout Int) {}\nvar v = 1\nh(&v, &v)\n", goal: .typeCheck),
                    job("let y: Int\ny = 2\nprint(y)\n", goal: .typeCheck)]
        let ran = try runner(core: false).run(jobs)
        #expect(ran.outcomes == [
            .typeChecked(TypeCheck(errors: [CompilerError(line: 2, column: 7, message: "constant 'x' used before being initialized")]),
                         fromCache: false),
            .typeChecked(TypeCheck(errors: [
                CompilerError(line: 3, column: 7, message: "inout arguments are not allowed to alias each other"),
                CompilerError(line: 3, column: 3, message: "overlapping accesses to 'v', but modification requires exclusive access; consider copying to a local variable"),
            ]), fromCache: false),
            .typeChecked(TypeCheck(errors: []), fromCache: false),
        ])
    }

    /// The group a newer compiler names after a message is left out of it; brackets that are
    /// part of what the message says stay.
    @Test func aDiagnosticsGroupIsLeftOutOfItsMessage() {
        let found = CompilerDiagnostic.parse("""
            main.swift:3:3: error: overlapping accesses to 'v', but modification requires exclusive access [#ExclusivityViolation]
            main.swift:1:1: warning: 'old()' is deprecated [#DeprecatedDeclaration] [#Other2]
            main.swift:2:1: error: cannot convert value of type '[#Int]' to '[Int]'
            main.swift:2:1: error: no group here [# Spaced]

            """)
        #expect(found.map(\.message) == ["overlapping accesses to 'v', but modification requires exclusive access",
                                         "'old()' is deprecated",
                                         "cannot convert value of type '[#Int]' to '[Int]'",
                                         "no group here [# Spaced]"])
    }

    /// A link that fails says the linker's words, not only that the link failed.
    @Test func theLinkersWords() {
        let transcript = """
            error: link command failed with exit code 1 (use -v to see invocation)
            /tmp/TemporaryDirectory.x/main-1.o:main-1.o:function main: error: undefined reference to 'round_somewhere'
            clang: error: linker command failed with exit code 1 (use -v to see invocation)
            ld.lld: error: undefined symbol: other_symbol

            """
        let found = CompilerDiagnostic.parse(transcript)
        #expect(found.map(\.message) == ["link command failed with exit code 1 (use -v to see invocation)",
                                         "undefined reference to 'round_somewhere'", "undefined symbol: other_symbol"])
        #expect(found.map(\.fromLinker) == [false, true, true])
        #expect(found.map(\.isLinkSummary) == [true, false, false])
    }
}
