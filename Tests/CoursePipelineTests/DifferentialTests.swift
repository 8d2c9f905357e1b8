import CourseChecking
import CourseModel
@testable import CoursePipeline
import Foundation
import LessonParsing
import ScenarioRunning
import SwiftReading
import TestSupport
import Testing

/// Batching is only a speed-up: every scenario of Tests/Fixtures/batching (deinit in the core,
/// global state, tasks, exits, crashes, errors thrown at the top level, type names, hashing
/// order, names that shadow the core's ...) prints batched exactly what it prints compiled
/// alone as main.swift with the core files, and ends the same way.
struct DifferentialTests {
    @Test func everyScenarioEndsBatchedAsItEndsAlone() throws {
        let (course, compiler, toRun, jobs) = try Self.corpus("batching")
        #expect(toRun.count >= 40)
        // Most of the corpus is batched: the test compares something.
        #expect(jobs.filter { !$0.shape.needsOwnProgram }.count >= 35)

        var settings = RunSettings()
        settings.sandbox = .required
        let runner = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles, settings: settings, cache: nil)
        let batched = runner.run(jobs)
        #expect(batched.sandbox == .sandboxed)
        let replayed = compiler.plans?.replayedCompiles.load(ordering: .relaxed) ?? 0
        #expect(replayed > 0, "the batched run replayed no plan of the driver's")
        // Alone, by the driver itself: the replay of its plans (batched, below) is compared with
        // what it does.
        var driver = compiler
        driver.replaysDriverPlans = false
        let alone = ScenarioRunner(compiler: driver, coreFiles: course.coreFiles, settings: settings, cache: nil).run(jobs.map { job in
            ScenarioJob(source: job.source, shape: ScenarioShape(needsOwnProgram: true, hasMainAttribute: job.shape.hasMainAttribute))
        })
        #expect(alone.compilerRuns == jobs.count)
        #expect(compiler.plans?.replayedCompiles.load(ordering: .relaxed) == replayed, "the driver's run replayed plans")
        // The batch program itself compiles (a broken runner would send all 50 alone): one
        // batch, the batch again without the scenarios the compiler blamed, and a program of its
        // own for those and for the shapes that need one. A few scenarios (a closure that
        // captures a global before its declaration) are rejected only inside a function, and
        // retried alone.
        let ownPrograms = jobs.indices.filter { index in
            if case .compileFailed = alone.outcomes[index] { return true }
            return jobs[index].shape.needsOwnProgram
        }.count
        #expect(batched.compilerRuns <= ownPrograms + 2 + 2, "\(batched.compilerRuns) compiles for \(ownPrograms) programs of their own")
        // Outside the sandbox too, a batch gives what a program of its own gives.
        var plainSettings = settings
        plainSettings.sandbox = .off
        let plain = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles, settings: plainSettings, cache: nil)
            .run(jobs)
        #expect(plain.sandbox == .off)
        Self.expectAgreement(jobs, batched: batched, alone: alone, unsandboxed: plain)
        // Spot checks of what "alone" means, so that the comparison cannot pass on two wrongs.
        func outcome(_ code: String) -> ScenarioOutcome? {
            toRun.firstIndex { $0.source.code.hasPrefix(code) }.map { batched.outcomes[$0] }
        }
        #expect(outcome("let resource = Resource")?.completedOutput == "made kept\n")
        #expect(outcome("print(bump(), bump())")?.completedOutput == "1 2\n")
        #expect(outcome("print(bump())\n")?.completedOutput == "1\n")
        #expect(outcome("print(CommandLine")?.completedOutput == "1\n")
        #expect(outcome("print(String(reflecting: Point()))")?.completedOutput == "main.Point(x: 1, y: 2)\n")
        #expect(outcome("struct Local")?.completedOutput == "[main.Local(value: 1)]\n")
        #expect(outcome("Task {")?.completedOutput == "top level done\n")
        // Literals of place say what they say in a learner's main.swift, not the lesson's place.
        #expect(outcome("print(#line, #file, #fileID)")?.completedOutput == "1 main.swift main/main.swift\n")
        // `exit` needs Glibc, which main.swift does not import: a compile error, batched or not.
        if case let .compileFailed(errors, _)? = outcome("print(\"before exit\")") {
            #expect(errors.map(\.summary) == ["cannot find 'exit' in scope"])
        } else {
            Issue.record("exit without Glibc must not compile")
        }
        // `exit` inside a batch (through the core, so that the scenario imports nothing and is
        // batched): its process ends there, as a program of its own would: `exit(0)` is a
        // program that finished, any other status one that failed. The batch goes on.
        let ending = try #require(toRun.firstIndex { $0.source.code.hasPrefix("print(\"before the end\")") })
        #expect(!jobs[ending].shape.needsOwnProgram, "exit(0) must run batched")
        #expect(batched.outcomes[ending].completedOutput == "before the end\n")
        let failing = try #require(toRun.firstIndex { $0.source.code.hasPrefix("print(\"failing end\")") })
        #expect(!jobs[failing].shape.needsOwnProgram, "exit(4) must run batched")
        if case let .crashed(ending, output, _, _) = batched.outcomes[failing] {
            #expect(ending == .exited(4))
            #expect(output == "failing end\n")
        } else {
            Issue.record("exit(4): \(batched.outcomes[failing])")
        }
        #expect(batched.compilerRuns < alone.compilerRuns)
        if case let .crashed(ending, output, _, _)? = outcome("print(\"throwing\")") {
            #expect(ending == .signaled(SIGILL) || ending == .signaled(SIGTRAP))
            #expect(output == "throwing\n")
        } else {
            Issue.record("a throw at the top level must end the scenario")
        }
    }

    /// Programs of their own that a batch holds with their types lifted out (Tests/Fixtures/
    /// lifting: every way a type's name prints, a name two scenarios declare, a name one uses
    /// and another declares, an extension of Int, a type that uses a global, a literal's
    /// default type, groups) end batched as they end alone; those that must stay alone do.
    @Test func everyLiftedProgramEndsBatchedAsItEndsAlone() throws {
        let (course, compiler, toRun, jobs) = try Self.corpus("lifting")
        #expect(toRun.count == 29)
        func job(_ code: String) -> ScenarioJob? { jobs.first { $0.source.code.hasPrefix(code) } }
        // What must stay alone: an extension of Int, a type that uses the scenario's own global
        // (alone or in a group), a literal's default type, place literals.
        for code in ["struct Meter", "var ticks", "typealias IntegerLiteralType", "struct Where", "var made"] {
            #expect(job(code)?.shape.hoisting == nil, "\(code) must be compiled alone")
        }
        let liftable = jobs.filter { $0.shape.needsOwnProgram && $0.shape.hoisting != nil }
        #expect(liftable.count == 22)

        var settings = RunSettings()
        settings.sandbox = .required
        let runner = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles, settings: settings, cache: nil)
        let batched = runner.run(jobs)
        let alone = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles, settings: settings, cache: nil).run(jobs.map { job in
            ScenarioJob(source: job.source, shape: ScenarioShape(needsOwnProgram: true, hasMainAttribute: job.shape.hasMainAttribute))
        })
        #expect(alone.compilerRuns == jobs.count)
        // The lifted ones share two batches (the two `Twin`s, `Widget` and its user apart);
        // those that do not compile or link are compiled again alone, each batch compiled again
        // without the members its type errors name, then without those its link errors name
        // (a scenario's function, or a method of a type it lifted: `Circle.area`), never halved;
        // the two plain ones share a batch: 18 compiles where programs alone are 29 (27 when a
        // link error was narrowed by halving).
        #expect(batched.compilerRuns <= jobs.count - liftable.count + 11,
                "\(batched.compilerRuns) compiles for \(jobs.count) programs, \(liftable.count) liftable")
        var plainSettings = settings
        plainSettings.sandbox = .off
        let plain = ScenarioRunner(compiler: compiler, coreFiles: course.coreFiles, settings: plainSettings, cache: nil).run(jobs)
        Self.expectAgreement(jobs, batched: batched, alone: alone, unsandboxed: plain)
        // Spot checks of what "alone" means.
        func outcome(_ code: String) -> ScenarioOutcome? {
            toRun.firstIndex { $0.source.code.hasPrefix(code) }.map { batched.outcomes[$0] }
        }
        #expect(outcome("struct Planet")?.completedOutput
                == "Planet Planet(name: \"Mars\", moons: 2) main.Planet(name: \"Mars\", moons: 2)\nPlanet main.Planet\n")
        #expect(outcome("class Box")?.completedOutput?.hasPrefix("main.Box main.Crate main.Crate\n- main.Crate #0\n  ▿ super: main.Box\n") == true)
        #expect(outcome("struct Twin")?.completedOutput == "Twin(side: \"left\") main.Twin\n")
        #expect(outcome("enum Twin")?.completedOutput == "right main.Twin\n")
        #expect(outcome("struct Widget")?.completedOutput == "Widget(label: \"widget\")\n")
        #expect(outcome("struct Bumper")?.completedOutput == "1 2 2\n")
        #expect(outcome("struct Half")?.completedOutput == "0 Half(value: 0)\n")
        #expect(outcome("class Loud")?.completedOutput == "made brief kept\ndeinit brief\nend\n")
        // `round` is libm's, which a program alone does not link: neither does a batch.
        for code in ["struct Holder", "struct Ruler", "struct Broken", "struct Rounding", "print(Int(exactly: 2.5)", "struct Circle"] {
            guard case .compileFailed? = outcome(code) else {
                Issue.record("\(code) must not compile, batched or not")
                continue
            }
        }
    }

    /// A fixture course under Tests/Fixtures read as a check reads it: its scenarios, and the
    /// jobs the parser's shapes make of them.
    static func corpus(_ name: String) throws
        -> (course: Course, compiler: SwiftCompiler, toRun: [(place: ScenarioPlace, source: ScenarioSource)], jobs: [ScenarioJob]) {
        let course = try CourseLoader.load(folder: fixtures.appendingPathComponent(name).path).course
        let compiler = try SwiftCompiler.locate(versionCache: nil)
        let reader = SwiftBlockReader(storeFolder: nil, toolVersion: "test", compilerVersion: compiler.version)
        let toRun = CourseCheck.scenariosToRun(course)
        let readings = reader.read(toRun.map { ($0.source.code, .problems) })
        let coreNames = course.coreFiles.reduce(into: Set<String>()) { $0.formUnion((try? reader.globalNames(of: $1.text).get()) ?? []) }
        return (course, compiler, toRun, Pipeline.jobs(toRun.map(\.source), readings: readings, coreNames: coreNames))
    }

    /// Every job's outcome batched, and batched without the sandbox, is its outcome alone.
    static func expectAgreement(_ jobs: [ScenarioJob], batched: RunReport, alone: RunReport,
                                unsandboxed: RunReport) {
        for (index, job) in jobs.enumerated() {
            let left = batched.outcomes[index], right = alone.outcomes[index]
            #expect(same(left, right), "line \(job.source.firstLine): batched \(left), alone \(right)")
            #expect(same(unsandboxed.outcomes[index], right),
                    "line \(job.source.firstLine): batched without the sandbox \(unsandboxed.outcomes[index]), alone \(right)")
        }
    }

    static func same(_ left: ScenarioOutcome, _ right: ScenarioOutcome) -> Bool {
        switch (left, right) {
        case let (.completed(a, _, _), .completed(b, _, _)): return a == b
        case let (.crashed(x, a, _, _), .crashed(y, b, _, _)): return x == y && a == b
        case let (.compileFailed(a, _), .compileFailed(b, _)): return a.map(\.summary) == b.map(\.summary)
        case (.coreFailed, .coreFailed): return true
        default: return false
        }
    }
}
