@testable import ScenarioRunning
import CourseModel
import Foundation
import CourseFiles
import TestSupport
import Testing

/// These compile real programs with the toolchain's `swiftc`.
struct ScenarioRunnerTests {
    let corePath = packageRoot.appendingPathComponent("Sources/Invalidation/Invalidation.swift").path

    func runner(cache: ResultCache? = nil, timeLimit: Duration = .seconds(10), outputCap: Int = 1 << 20) throws -> ScenarioRunner {
        var settings = RunSettings()
        settings.timeLimit = timeLimit
        settings.outputCap = outputCap
        return ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil),
                              coreFiles: [try coreFile(corePath, shown: "Sources/Invalidation/Invalidation.swift")],
                              settings: settings, cache: cache)
    }

    func coreFile(_ path: String, shown: String) throws -> CoreFile {
        CoreFile(name: (path as NSString).lastPathComponent, path: path, displayPath: shown,
                 text: try String(contentsOfFile: path, encoding: .utf8))
    }

    /// A scenario at `line`; `ownProgram` is its shape as the Swift reader would give it.
    func job(_ code: String, line: Int = 10, ownProgram: Bool = false) -> ScenarioJob {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        return ScenarioJob(source: ScenarioSource(code: code, file: "lessons/01-a.md", firstLine: line,
                                                  columnOffsets: Array(repeating: 0, count: max(lines, 1))),
                           shape: ScenarioShape(needsOwnProgram: ownProgram, hasMainAttribute: false))
    }

    /// `@main` in a scenario is what plain `swiftc -module-name main main.swift` makes of it:
    /// an error beside top-level code (the Swift book's own `atMain` listing), never a program
    /// compiled another way.
    @Test func aScenarioWithMainIsRefusedAsPlainSwiftcRefusesIt() throws {
        var main = job("@main\nstruct App {\n    static func main() { print(\"Hello\") }\n}\n", line: 10, ownProgram: true)
        main.shape = ScenarioShape(needsOwnProgram: true, hasMainAttribute: true)
        let report = try runner().run([main])
        guard case let .compileFailed(errors, _) = report.outcomes[0] else {
            Issue.record("expected the compiler's refusal, got \(report.outcomes[0])"); return
        }
        #expect(errors.contains { $0.summary.contains("'main' attribute cannot be used in a module that contains top-level code") },
                "\(errors)")
        #expect(errors.first?.location?.description == "lessons/01-a.md:10:1", "\(errors)")
    }

    @Test func batchesAndIsolatesFailures() throws {
        let jobs = [
            job("print(\"one\")\n", line: 10),
            job("print(\"before\")\nlet xs: [Int] = []\nprint(xs[1])\n", line: 20),
            job("print(\"three\", terminator: \"\")\n", line: 30),
            job("let x: Int = \"no\"\n", line: 40),
            job("extension ViewTree { var size: Int { nodes.count } }\nprint(ViewTree(nodes: [], storage: [:]).size)\n", line: 50, ownProgram: true),
            job("print(ancestorsOfNobody())\nfunc ancestorsOfNobody() -> [String] { ViewTree(nodes: [], storage: [:]).ancestors(of: \"x\") }\n", line: 60),
        ]
        let report = try runner().run(jobs)
        #expect(report.outcomes[0] == .completed(output: "one\n", standardError: "", fromCache: false))
        guard case let .crashed(termination, output, standardError, _) = report.outcomes[1] else {
            Issue.record("expected a crash, got \(report.outcomes[1])"); return
        }
        #expect(termination == .signaled(SIGILL) || termination == .signaled(SIGTRAP))
        #expect(output == "before\n")
        #expect(standardError.contains("Index out of range"))
        #expect(report.outcomes[2].completedOutput == "three")
        guard case let .compileFailed(errors, _) = report.outcomes[3] else {
            Issue.record("expected a compile error, got \(report.outcomes[3])"); return
        }
        #expect(errors.map { $0.location?.description } == ["lessons/01-a.md:40:14"])
        #expect(report.outcomes[4].completedOutput == "0\n")
        #expect(report.outcomes[5].completedOutput == "[]\n")
        #expect(report.compiledCount == 6)
    }

    /// A compile error in one scenario of a batch is placed by the compiler: the batch is
    /// compiled again without it, and it alone: three compiles, however large the batch.
    @Test func aBlamedScenarioCostsTwoMoreCompiles() throws {
        var jobs = (0..<32).map { job("print(\($0))\n", line: 10 + 3 * $0) }
        jobs[21] = job("let broken: Int = \"21\"\n", line: 10 + 3 * 21)
        let report = try runner().run(jobs)
        #expect(report.compilerRuns == 3)
        #expect(report.outcomes[5].completedOutput == "5\n")
        guard case .compileFailed = report.outcomes[21] else { Issue.record("\(report.outcomes[21])"); return }
    }

    /// An error that names no scenario (a failed link whose linker names no member's function
    /// nor object) is narrowed by halving: one culprit among n scenarios costs at most
    /// ⌈log₂ n⌉ + 2 compiles after the failed batch.
    @Test func anUnplacedErrorIsNarrowedInLogarithmicallyManyCompiles() throws {
        let folder = temporaryFolder("fake-compiler")
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = try SwiftCompiler.locate(versionCache: nil)
        // A compiler whose linker fails whenever the culprit's marker is among its sources.
        let script = folder.appendingPathComponent("swiftc").path
        try """
            #!/bin/sh
            for argument in "$@"; do
                case "$argument" in
                *.swift) if grep -q UNLINKABLE "$argument" 2>/dev/null; then
                    echo "error: link command failed with exit code 1 (use -v to see invocation)" >&2
                    exit 1
                fi ;;
                esac
            done
            exec "\(real.executable)" "$@"

            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        for (count, culprit) in [(32, 0), (32, 31), (32, 13), (5, 2), (2, 1)] {
            var jobs = (0..<count).map { job("print(\($0))\n", line: 10 + 3 * $0) }
            jobs[culprit] = job("print(\"x\") // UNLINKABLE\n", line: 10 + 3 * culprit)
            var settings = RunSettings()
            settings.timeLimit = .seconds(10)
            // The fake compiler runs the real one from a folder that a compiler's sandbox hides.
            settings.sandbox = .off
            let report = ScenarioRunner(compiler: SwiftCompiler(executable: script, version: real.version,
                                                                runtimeFolder: real.runtimeFolder,
                                                                defaultLanguageMode: real.defaultLanguageMode),
                                        coreFiles: [], settings: settings, cache: nil).run(jobs)
            let bound = 1 + Int(ceil(log2(Double(count)))) + 2
            #expect(report.compilerRuns <= bound, "\(count) scenarios, culprit \(culprit): \(report.compilerRuns) compiles")
            for index in 0..<count where index != culprit {
                #expect(report.outcomes[index].completedOutput == "\(index)\n", "\(index) of \(count)")
            }
            guard case .compileFailed = report.outcomes[culprit] else {
                Issue.record("\(report.outcomes[culprit])"); continue
            }
        }
    }

    /// A batch compiles with one job more than there are cores, `main.swift` (the runner)
    /// first and the scenario files next: no frontend is left to finish alone.
    @Test func aBatchCompilesItsRunnerFirstWithAJobMoreThanCores() throws {
        let real = try SwiftCompiler.locate(versionCache: nil)
        let folder = temporaryFolder("batch-order")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("swiftc").path
        let log = folder.appendingPathComponent("arguments").path
        try """
            #!/bin/sh
            for argument in "$@"; do echo "$argument" >> "\(log)"; done
            exec "\(real.executable)" "$@"

            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        var settings = RunSettings()
        settings.parallelism = 2
        // The fake compiler writes its log beside itself, where a compiler's sandbox cannot.
        settings.sandbox = .off
        let report = ScenarioRunner(compiler: SwiftCompiler(executable: script, version: real.version,
                                                            runtimeFolder: real.runtimeFolder,
                                                            defaultLanguageMode: real.defaultLanguageMode),
                                    coreFiles: [try coreFile(corePath, shown: "Invalidation.swift")],
                                    settings: settings, cache: nil).run((0..<4).map { job("print(\($0))\n", line: 10 + 3 * $0) })
        #expect(report.outcomes.map(\.completedOutput) == ["0\n", "1\n", "2\n", "3\n"])
        let arguments = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.contains("-j3"))
        let sources = arguments.filter { $0.hasSuffix(".swift") }.map { ($0 as NSString).lastPathComponent }
        #expect(sources == ["main.swift", "scenarios-0.swift", "scenarios-1.swift", "Invalidation.swift"])
    }

    /// The batch runner kept beside the plans and the runner compiled into the batch's own
    /// folder (no store) give every scenario the same outcome: output, error output, exit
    /// status, trap, thrown error.
    @Test func theRunnerKeptAndTheRunnerCompiledForTheBatchAgree() throws {
        let jobs = [
            job("print(\"one\")\n", line: 10),
            job("import Glibc\nfputs(\"to stderr\\n\", stderr)\nexit(3)\n", line: 20),
            job("let xs: [Int] = []\nprint(\"before\")\nprint(xs[1])\n", line: 30),
            job("print(\"x\", terminator: \"\")\nthrow CancellationError()\n", line: 40),
            job("print(CommandLine.arguments.count)\n", line: 50),
        ]
        let kept = try runner()
        #expect(kept.compiler.plans?.objectFolder != nil)
        var unkept = try runner()
        unkept.compiler.plans = nil
        let fromKept = kept.run(jobs), fromUnkept = unkept.run(jobs)
        // Either way: the batch, again without the scenario whose `import` a function cannot
        // hold, and that one alone.
        #expect(fromKept.compilerRuns == 3 && fromUnkept.compilerRuns == 3, "\(fromKept.compilerRuns), \(fromUnkept.compilerRuns)")
        // The runtime's stack trace after a trap holds addresses, which change from run to run.
        func withoutAddresses(_ outcomes: [ScenarioOutcome]) -> [String] {
            outcomes.map { "\($0)".components(separatedBy: "Current stack trace:")[0] }
        }
        #expect(withoutAddresses(fromKept.outcomes) == withoutAddresses(fromUnkept.outcomes))
        #expect(withoutAddresses(fromKept.outcomes)[3].contains("Error raised at top level"))
        #expect(fromKept.outcomes[0].completedOutput == "one\n")
        #expect(fromKept.outcomes[4].completedOutput == "1\n")
        guard case .crashed(.exited(3), _, let errors, _) = fromKept.outcomes[1] else {
            Issue.record("\(fromKept.outcomes[1])"); return
        }
        #expect(errors == "to stderr\n")
    }

    /// A toolchain whose clang cannot compile the runner makes no batch: each scenario is
    /// compiled alone, and gives what it gives alone; the runner is not tried again for parts
    /// of the batch, as a failed batch's parts are.
    @Test func withoutTheRunnerEachScenarioIsCompiledAlone() throws {
        let folder = temporaryFolder("clang-fails")
        defer { try? FileManager.default.removeItem(at: folder) }
        var runner = try runner()
        // A swiftc of a folder of its own, the real one's script, beside a clang that fails and
        // counts its calls.
        let swiftc = folder.appendingPathComponent("swiftc").path, clang = folder.appendingPathComponent("clang").path
        let calls = folder.appendingPathComponent("calls").path
        try "#!/bin/sh\nexec \(runner.compiler.executable) \"$@\"\n".write(toFile: swiftc, atomically: true, encoding: .utf8)
        try "#!/bin/sh\necho called >> '\(calls)'\necho 'clang: error: no' >&2\nexit 1\n".write(toFile: clang, atomically: true, encoding: .utf8)
        chmod(swiftc, 0o755)
        chmod(clang, 0o755)
        runner.compiler.executable = swiftc
        runner.compiler.plans = nil
        runner.settings.sandbox = .off
        #expect(runner.compiler.clang == clang)
        let jobs = (0..<6).map { job("print(\($0))\n", line: 10 + 3 * $0) }
        let report = runner.run(jobs)
        #expect(report.outcomes.map(\.completedOutput) == (0..<6).map { "\($0)\n" })
        #expect(report.compilerRuns == 6, "\(report.compilerRuns) compiles")
        let called = try String(contentsOfFile: calls, encoding: .utf8)
        #expect(called == "called\n", "\(called)")
        // The report says why, in clang's words, for the check to tell.
        #expect(report.batchRunnerProblem == "\(clang) ended with exit status 1: clang: error: no", "\(report.batchRunnerProblem ?? "none")")

        // A batch begun ahead of the shapes needs the runner too: no compiler ran for it.
        try "".write(toFile: calls, atomically: true, encoding: .utf8)
        let ahead = runner.finish(runner.start(jobs.map(\.source), batchGuess: { _ in true }), jobs: jobs)
        #expect(ahead.outcomes.map(\.completedOutput) == (0..<6).map { "\($0)\n" })
        #expect(ahead.compilerRuns == 6, "\(ahead.compilerRuns) compiles")
        #expect(ahead.batchRunnerProblem != nil)
        // With a runner, nothing is said.
        #expect(try self.runner().run(jobs).batchRunnerProblem == nil)

        // With a store to keep the object in, clang's refusal is the answer: it is not asked
        // again in the batch's folder, nor for the next batch of the process.
        try "".write(toFile: calls, atomically: true, encoding: .utf8)
        runner.compiler.plans = CompilePlanStore(file: folder.appendingPathComponent("cache/plans").path)
        let stored = runner.run(jobs), again = runner.run(jobs)
        #expect(stored.outcomes.map(\.completedOutput) == (0..<6).map { "\($0)\n" })
        #expect(stored.batchRunnerProblem == "\(clang) ended with exit status 1: clang: error: no", "\(stored.batchRunnerProblem ?? "none")")
        #expect(again.batchRunnerProblem == stored.batchRunnerProblem && again.compilerRuns == 6)
        let calledWithStore = try String(contentsOfFile: calls, encoding: .utf8)
        #expect(calledWithStore == "called\n", "\(calledWithStore)")
    }

    @Test func standaloneAndBatchedGiveTheSameOutput() throws {
        let code = """
            let tree = ViewTree(nodes: [ViewNode("A", parent: nil, reads: ["k"])], storage: ["k": .environment])
            countCauses(tree.change("c", key: "k"))

            """
        let batched = try runner().run([job(code), job("print(1)\n")])
        let alone = try runner().run([job("import Glibc\n" + code, ownProgram: true)])
        #expect(batched.outcomes[0].completedOutput == alone.outcomes[0].completedOutput)
        #expect(alone.outcomes[0].completedOutput == "c: k degisti | yeniden A ortam | atlanan yok\nyerel: 0\nebeveyn: 0\ngozlem: 0\nortam: 1\n")
    }

    /// A batch begun on a guess, before the shapes were read, serves when the shapes put the
    /// same scenarios in the batch: one compile in all.
    @Test func aBatchBegunOnTheRightGuessServes() throws {
        let jobs = (0..<6).map { job("print(\($0 * 7))\n", line: 10 + 3 * $0) }
        let runner = try runner()
        let started = runner.start(jobs.map(\.source), batchGuess: { _ in true })
        let report = runner.finish(started, jobs: jobs)
        #expect(report.batchAhead == .used)
        #expect(report.compilerRuns == 1)
        #expect(report.outcomes.map(\.completedOutput) == (0..<6).map { "\($0 * 7)\n" })
    }

    /// A wrong guess (a scenario the shapes give a program of its own was put in the batch) is
    /// dropped: the answers are those of a run without a guess, at the cost of one compile.
    @Test func aBatchBegunOnAWrongGuessIsDroppedAndTheAnswersStay() throws {
        var jobs = (0..<4).map { job("print(\($0))\n", line: 10 + 3 * $0) }
        jobs.append(job("var computed: Int { 5 }\nprint(computed)\n", line: 30, ownProgram: true))
        let runner = try runner()
        let plain = runner.run(jobs)
        let guessed = runner.finish(runner.start(jobs.map(\.source), batchGuess: { _ in true }),
                                    jobs: jobs)
        #expect(guessed.batchAhead == .dropped)
        #expect(plain.batchAhead == BatchAheadUse.none)
        #expect(guessed.outcomes == plain.outcomes)
        #expect(guessed.outcomes[4].completedOutput == "5\n")
        #expect(guessed.compilerRuns == plain.compilerRuns + 1)
    }

    /// The guess is asked only of the scenarios the cache does not hold: a warm run of a large
    /// course looks at no scenario's words.
    @Test func theGuessIsAskedOnlyOfScenariosToCompile() throws {
        let folder = temporaryFolder("guess-asked")
        defer { try? FileManager.default.removeItem(at: folder) }
        let runner = try runner(cache: ResultCache(folder: folder.path + "/cache"))
        let kept = [job("print(1)\n", line: 10), job("print(2)\n", line: 20)]
        _ = runner.run(kept)
        let asked = Locked<[String]>([])
        let guess: @Sendable (ScenarioSource) -> Bool = { source in
            asked.withLock { $0.append(source.code) }
            return true
        }
        let warm = runner.finish(runner.start(kept.map(\.source), batchGuess: guess), jobs: kept)
        #expect(warm.cachedCount == 2)
        #expect(asked.withLock { $0 }.isEmpty)
        let edited = kept + [job("print(3)\n", line: 30)]
        _ = runner.finish(runner.start(edited.map(\.source), batchGuess: guess), jobs: edited)
        #expect(asked.withLock { $0 } == ["print(3)\n"])
    }

    /// The one scenario an edit leaves to compile is a program of its own whatever its shape:
    /// it is compiled ahead, alone, and serves unless its `@main` was guessed wrong (a string
    /// that says "@main" is not the attribute: that program is dropped, the answer stays).
    @Test func theOneScenarioToCompileIsBegunAlone() throws {
        let folder = temporaryFolder("ahead-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path + "/cache")
        let runner = try runner(cache: cache)
        let kept = [job("print(1)\n", line: 10), job("print(2)\n", line: 20)]
        _ = runner.run(kept)
        for (code, use) in [("print(3)\n", BatchAheadUse.used), ("print(\"@main\")\n", .dropped)] {
            let jobs = kept + [job(code, line: 30)]
            let report = runner.finish(runner.start(jobs.map(\.source), batchGuess: { _ in true }), jobs: jobs)
            #expect(report.batchAhead == use)
            #expect(report.compilerRuns == (use == .used ? 1 : 2))
            #expect(report.cachedCount == 2)
            #expect(report.outcomes[2].completedOutput == (use == .used ? "3\n" : "@main\n"))
        }
    }

    /// A batched scenario's process has standard input, output and error open and nothing else
    /// of the batch program's (its pipes to the other scenarios, its frames to coursebook).
    @Test func aBatchedScenarioHoldsNoDescriptorOfTheBatch() throws {
        let folder = temporaryFolder("descriptors")
        defer { try? FileManager.default.removeItem(at: folder) }
        let core = folder.appendingPathComponent("Descriptors.swift").path
        try """
            import Glibc

            /// The descriptors open in this process, the listing's own among them.
            func openDescriptors() -> [Int32] {
                guard let listing = opendir("/proc/self/fd") else { return [] }
                defer { closedir(listing) }
                var found: [Int32] = []
                while let entry = readdir(listing) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                    if let number = Int32(name) { found.append(number) }
                }
                return found.sorted()
            }

            """.write(toFile: core, atomically: true, encoding: .utf8)
        let runner = ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil),
                                    coreFiles: [try coreFile(core, shown: "Descriptors.swift")],
                                    settings: RunSettings(), cache: nil)
        let report = runner.run((0..<3).map { job("print(openDescriptors())\n", line: 10 + 3 * $0) })
        #expect(report.outcomes.map(\.completedOutput) == Array(repeating: "[0, 1, 2, 3]\n", count: 3))
    }

    /// A large batch runs as several copies of the program side by side, each a run of
    /// consecutive scenarios; a scenario stopped in one share restarts that share's program
    /// after it, and every other scenario still has its own answer.
    @Test func sharesOfABatchRunSideBySide() throws {
        var jobs = (0..<40).map { job("print(\"scenario \($0)\")\n", line: 10 + 3 * $0) }
        jobs[30] = job("print(\"start\")\nwhile true {}\n", line: 100)
        var settings = RunSettings()
        settings.parallelism = 2
        settings.timeLimit = .milliseconds(500)
        let runner = ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil),
                                    coreFiles: [try coreFile(corePath, shown: "Sources/Invalidation/Invalidation.swift")],
                                    settings: settings, cache: nil)
        let report = runner.run(jobs)
        #expect(report.outcomes[30] == .timedOut(limit: .milliseconds(500), output: "start\n", standardError: ""))
        for index in jobs.indices where index != 30 {
            #expect(report.outcomes[index].completedOutput == "scenario \(index)\n")
        }
        #expect(ScenarioRunner.shares(of: Array(0..<40), processes: 2) == [Array(0..<20), Array(20..<40)])
        #expect(ScenarioRunner.shares(of: Array(0..<31), processes: 2) == [Array(0..<31)])
        #expect(ScenarioRunner.shares(of: Array(0..<100), processes: 3).map(\.count) == [33, 33, 34])
    }

    @Test func aScenarioPastItsTimeIsStoppedAndTheOthersStillRun() throws {
        let report = try runner(timeLimit: .milliseconds(500)).run([
            job("print(\"start\")\nwhile true {}\n"), job("print(\"after\")\n"),
        ])
        #expect(report.outcomes[0] == .timedOut(limit: .milliseconds(500), output: "start\n", standardError: ""))
        #expect(report.outcomes[1].completedOutput == "after\n")
    }

    @Test func outputPastTheCapIsCut() throws {
        let report = try runner(outputCap: 1000).run([
            job("for _ in 0..<100_000 { print(\"0123456789\") }\n"), job("print(2)\n"),
        ])
        guard case let .outputCapped(cap, output, _) = report.outcomes[0] else {
            Issue.record("expected a cut output, got \(report.outcomes[0])"); return
        }
        #expect(cap == 1000)
        #expect(output.utf8.count == 1000)
        #expect(report.outcomes[1].completedOutput == "2\n")
    }

    @Test func aNonZeroExitFailsTheScenario() throws {
        let report = try runner().run([job("import Glibc\nprint(\"bye\")\nexit(3)\n", ownProgram: true),
                                       job("import Glibc\nexit(0)\n", ownProgram: true)])
        #expect(report.outcomes[0] == .crashed(.exited(3), output: "bye\n", standardError: ""))
        #expect(report.outcomes[1].completedOutput == "")
    }

    /// A program of one scenario keeps what it printed before a trap: its output is unbuffered
    /// from outside, without a file of ours beside its own.
    @Test func aProgramOfItsOwnKeepsWhatItPrintedBeforeATrap() throws {
        let report = try runner().run([
            job("extension Int { var twice: Int { self * 2 } }\nprint(\"before\", 2.twice)\nlet xs: [Int] = []\nprint(xs[1])\n",
                ownProgram: true),
        ])
        guard case let .crashed(_, output, standardError, _) = report.outcomes[0] else {
            Issue.record("expected a crash, got \(report.outcomes[0])"); return
        }
        #expect(output == "before 4\n")
        #expect(standardError.contains("Index out of range"))
    }

    @Test func resultsComeFromTheCacheTheSecondTime() throws {
        let folder = temporaryFolder("cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path + "/cache")
        let jobs = [job("print(1)\n"), job("print(2)\n")]
        let first = try runner(cache: cache).run(jobs)
        #expect(first.compiledCount == 2 && first.cachedCount == 0 && first.compilerRuns == 1)
        let second = try runner(cache: cache).run(jobs + [job("print(3)\n")])
        #expect(second.compiledCount == 1 && second.cachedCount == 2)
        #expect(second.outcomes[0] == .completed(output: "1\n", standardError: "", fromCache: true))
        #expect(second.outcomes[2].completedOutput == "3\n")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/cache/.gitignore"))
    }

    /// A program that does not compile fails the same way until its code, its place or the
    /// compiler changes: the second run compiles nothing and says what the first said; moved,
    /// edited or under another toolchain, it is compiled again.
    @Test func aCompileFailureComesFromTheCacheTheSecondTime() throws {
        let folder = temporaryFolder("failure-cache")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path + "/cache")
        let jobs = [job("print(1)\n"), job("print(2)\n", line: 20), job("let x: Int = \"no\"\n", line: 40)]
        let first = try runner(cache: cache).run(jobs)
        guard case let .compileFailed(errors, false) = first.outcomes[2] else {
            Issue.record("expected a compile error, got \(first.outcomes[2])"); return
        }
        #expect(errors.map { $0.location?.description } == ["lessons/01-a.md:40:14"])
        let second = try runner(cache: cache).run(jobs)
        #expect(second.compilerRuns == 0 && second.compiledCount == 0 && second.cachedCount == 3, "\(second)")
        #expect(second.outcomes[2] == .compileFailed(errors, fromCache: true))

        let moved = try runner(cache: cache).run([job("let x: Int = \"no\"\n", line: 43)])
        #expect(moved.compilerRuns == 1)
        guard case let .compileFailed(movedErrors, false) = moved.outcomes[0] else {
            Issue.record("expected a compile error, got \(moved.outcomes[0])"); return
        }
        #expect(movedErrors.map { $0.location?.description } == ["lessons/01-a.md:43:14"])
        let edited = try runner(cache: cache).run([job("let x: Int = \"none\"\n", line: 40)])
        #expect(edited.compilerRuns == 1 && edited.cachedCount == 0)
        var otherToolchain = try runner(cache: cache)
        otherToolchain.compiler.stamp += " rebuilt"
        let again = otherToolchain.run([jobs[2]])
        #expect(again.compilerRuns == 1 && again.outcomes[0] == .compileFailed(errors, fromCache: false))
    }

    /// A program that compiles and does not link (a function no library defines) fails the
    /// same way while the files its link read are as they were: the second run compiles
    /// nothing; a library folder, the linker or a library that changed since compiles it again.
    @Test func aLinkFailureComesFromTheCacheWhileWhatTheLinkReadStands() throws {
        let folder = temporaryFolder("link-failure")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path + "/cache")
        var linking = try runner(cache: cache)
        linking.compiler = try SwiftCompiler.locate(versionCache: nil, planCache: folder.path + "/plans")
        let unlinked = job("@_silgen_name(\"coursebook_defined_nowhere\") func nowhere()\nnowhere()\n", line: 40)
        let first = linking.run([unlinked])
        guard case let .compileFailed(errors, false) = first.outcomes[0] else {
            Issue.record("expected a failed link, got \(first.outcomes[0])"); return
        }
        #expect(errors.contains { $0.summary.contains("coursebook_defined_nowhere") }, "\(errors)")
        let second = linking.run([unlinked])
        #expect(second.compilerRuns == 0 && second.cachedCount == 1, "\(second)")
        #expect(second.outcomes[0] == .compileFailed(errors, fromCache: true))

        // What was kept names the linker and the folders it searched; a change to any of them
        // is a failure no longer believed.
        let key = ResultCache.compileFailureKey("k", toolchain: "t", source: unlinked.source)
        let library = folder.appendingPathComponent("libsample.so").path
        try #require(FileManager.default.createFile(atPath: library, contents: Data("one".utf8)))
        cache.store(compileFailures: [(key, ResultCache.KeptFailure(findings: errors, linkInputs: [LinkInput.now(library)]))])
        #expect(cache.compileFailure(key) == .compileFailed(errors, fromCache: true))
        try #require(FileManager.default.createFile(atPath: library, contents: Data("two!".utf8)))
        #expect(cache.compileFailure(key) == nil)
    }

    /// A compile the time limit stopped says nothing about the program: it is compiled again.
    @Test func aCompileStoppedByItsTimeLimitIsNotKept() throws {
        let folder = temporaryFolder("failure-timeout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path + "/cache")
        var hurried = try runner(cache: cache)
        hurried.settings.compileTimeLimit = .milliseconds(1)
        let broken = job("let x: Int = \"no\"\n", line: 40)
        guard case .compileFailed = hurried.run([broken]).outcomes[0] else { Issue.record("expected a failed compile"); return }
        let second = try runner(cache: cache).run([broken])
        #expect(second.compilerRuns == 1 && second.cachedCount == 0, "\(second)")
        guard case let .compileFailed(errors, false) = second.outcomes[0] else {
            Issue.record("expected a compile error, got \(second.outcomes[0])"); return
        }
        #expect(errors.map { $0.location?.description } == ["lessons/01-a.md:40:14"])
    }

    @Test func aBrokenCoreIsReportedOnceAgainstTheCoreFile() throws {
        let folder = temporaryFolder("core")
        defer { try? FileManager.default.removeItem(at: folder) }
        let core = folder.appendingPathComponent("Core.swift").path
        try "struct Broken { let x: Int = \"s\" }\n".write(toFile: core, atomically: true, encoding: .utf8)
        let runner = ScenarioRunner(compiler: try SwiftCompiler.locate(versionCache: nil),
                                    coreFiles: [try coreFile(core, shown: "core/Core.swift")],
                                    settings: RunSettings(), cache: nil)
        let report = runner.run([job("print(1)\n"), job("print(2)\n")])
        #expect(report.outcomes == [.coreFailed, .coreFailed])
        #expect(report.diagnostics.map { $0.location?.description } == ["core/Core.swift:1:30"])
    }

    @Test func cacheKeysChangeWithEveryInput() {
        let core = ResultCache.coreDigest([("C.swift", "x")])
        #expect(ResultCache.coreDigest([("C.swift", "y")]) != core)
        #expect(ResultCache.coreDigest([("D.swift", "x")]) != core)
        let source = ScenarioSource(code: "print(1)\n", file: "a.md", firstLine: 3, columnOffsets: [0])
        func key(_ source: ScenarioSource, tool: String = "1", compiler: String = "s", digest: String = core) -> String {
            ResultCache.key(toolVersion: tool, compilerVersion: compiler, coreDigest: digest, source: source)
        }
        let base = key(source)
        var moved = source
        moved.firstLine = 9
        #expect(key(moved) == base)
        #expect(key(source, tool: "2") != base)
        #expect(key(source, compiler: "t") != base)
        #expect(key(source, digest: ResultCache.coreDigest([("C.swift", "y")])) != base)
        var edited = source
        edited.code = "print(2)\n"
        #expect(key(edited) != base)
        // The course modules a scenario imports: their digests are part of its key.
        #expect(ResultCache.key(toolVersion: "1", compilerVersion: "s", coreDigest: core, modules: "module Shapes 1", source: source) != base)
        #expect(ResultCache.key(toolVersion: "1", compilerVersion: "s", coreDigest: core, modules: "module Shapes 1", source: source)
                    != ResultCache.key(toolVersion: "1", compilerVersion: "s", coreDigest: core, modules: "module Shapes 2", source: source))
        // `#line` is the line in main.swift, which moving the scenario in its lesson does not change.
        var placed = source
        placed.code = "print(#line)\n"
        var placedMoved = placed
        placedMoved.firstLine = 9
        #expect(key(placed) == key(placedMoved))
        // A compile failure names lesson places: where the code stands is part of its key, and
        // so is the toolchain.
        let failure = ResultCache.compileFailureKey(base, toolchain: "swiftc 1", source: source)
        #expect(ResultCache.compileFailureKey(base, toolchain: "swiftc 1", source: source) == failure)
        #expect(ResultCache.compileFailureKey(base, toolchain: "swiftc 2", source: source) != failure)
        #expect(ResultCache.compileFailureKey(key(edited), toolchain: "swiftc 1", source: edited) != failure)
        #expect(ResultCache.compileFailureKey(base, toolchain: "swiftc 1", source: moved) != failure)
        var indented = source
        indented.columnOffsets = [4]
        #expect(ResultCache.compileFailureKey(base, toolchain: "swiftc 1", source: indented) != failure)
        var renamed = source
        renamed.file = "b.md"
        #expect(ResultCache.compileFailureKey(base, toolchain: "swiftc 1", source: renamed) != failure)
    }

    /// The output is kept twice, in its own entry and in the run's pack: both damaged, neither
    /// is believed.
    @Test func aDamagedCacheEntryIsNotBelieved() throws {
        let folder = temporaryFolder("damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path)
        _ = try runner(cache: cache).run([job("print(\"truth\")\n")])
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".out") || $0.hasSuffix(".pack") }
        #expect(entries.count == 2)
        for entry in entries {
            let path = folder.appendingPathComponent(entry)
            let bytes = try Data(contentsOf: path)
            try Data(bytes.dropLast(3) + Array("lie\n".utf8)).write(to: path)
        }
        let again = try runner(cache: cache).run([job("print(\"truth\")\n")])
        #expect(again.cachedCount == 0)
        #expect(again.outcomes[0].completedOutput == "truth\n")
    }

    /// A run's outputs are kept in one pack as well, which the next run reads whole: with the
    /// entries one by one gone, they still come from the cache; a scenario the pack lacks is
    /// compiled, and the pack written again with it.
    @Test func outputsComeFromTheRunsPack() throws {
        let folder = temporaryFolder("packed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResultCache(folder: folder.path)
        func removeEntries() throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".out") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        let jobs = [job("print(1)\n"), job("print(2)\n")]
        _ = try runner(cache: cache).run(jobs)
        try removeEntries()
        let warm = try runner(cache: cache).run(jobs)
        #expect(warm.cachedCount == 2 && warm.compilerRuns == 0)
        #expect(warm.outcomes[1] == .completed(output: "2\n", standardError: "", fromCache: true))
        let more = try runner(cache: cache).run(jobs + [job("print(3)\n")])
        #expect(more.cachedCount == 2 && more.compiledCount == 1)
        try removeEntries()
        let again = try runner(cache: cache).run(jobs + [job("print(3)\n")])
        #expect(again.cachedCount == 3)
        #expect(again.outcomes[2].completedOutput == "3\n")
    }
}
