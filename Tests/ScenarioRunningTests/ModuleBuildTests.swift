@testable import ScenarioRunning
import CourseModel
import Testing

/// Course modules in the runner (listings.md, section 7): which scenarios a module's source
/// keys, and where its compile errors stand. (Building and importing are run end to end on
/// `Tests/Fixtures/swift-book` and `swift-book-modules`.)
struct ModuleBuildTests {
    func module(_ name: String, _ code: String, file: String = "c/01-a.md", firstLine: Int = 4, offsets: [Int]? = nil) -> CourseModule {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        return CourseModule(name: name, parts: [ModulePart(
            file: file, blockLine: firstLine - 1,
            code: ScenarioPart(code: code, firstLine: firstLine, columnOffsets: offsets ?? Array(repeating: 0, count: lines)))])
    }

    func runner(_ modules: [CourseModule]) -> ScenarioRunner {
        ScenarioRunner(compiler: SwiftCompiler(executable: "/bin/false", version: "v"), coreFiles: [], settings: RunSettings(),
                       cache: nil, modules: modules)
    }

    func source(_ code: String) -> ScenarioSource {
        ScenarioSource(code: code, file: "c/02-b.md", firstLine: 5, columnOffsets: [0, 0])
    }

    @Test func aModuleKeysOnlyTheScenariosThatImportIt() {
        let before = runner([module("Shapes", "public let a = 1\n"), module("Other", "public let o = 0\n")])
        let after = runner([module("Shapes", "public let a = 2\n"), module("Other", "public let o = 0\n")])
        let importing = source("import Shapes\nprint(a)\n")
        let other = source("import Other\nprint(o)\n")
        let plain = source("print(1)\n")
        #expect(before.moduleKeyPart(importing) != after.moduleKeyPart(importing))
        #expect(!before.moduleKeyPart(importing).isEmpty)
        #expect(before.moduleKeyPart(other) == after.moduleKeyPart(other))
        #expect(before.moduleKeyPart(plain) == "")
        // The language mode it is compiled in is part of it too.
        var settings = RunSettings()
        settings.languageMode = .swift6
        let six = ScenarioRunner(compiler: SwiftCompiler(executable: "/bin/false", version: "v"), coreFiles: [], settings: settings,
                                 cache: nil, modules: [module("Shapes", "public let a = 1\n")])
        #expect(six.moduleKeyPart(importing) != before.moduleKeyPart(importing))
    }

    @Test func aScenarioThatImportsAModuleIsNeverBatched() {
        var settings = RunSettings()
        settings.languageMode = .swift5
        let runner = ScenarioRunner(compiler: SwiftCompiler(executable: "/bin/false", version: "v"), coreFiles: [],
                                    settings: settings, cache: nil, modules: [module("Shapes", "public let a = 1\n")])
        var importing = source("import Shapes\nprint(a)\n"), plain = source("print(1)\n")
        importing.languageMode = .swift5
        plain.languageMode = .swift5
        #expect(runner.imports(importing) == ["Shapes"])
        #expect(!runner.batchable(importing))
        #expect(runner.batchable(plain))
    }

    @Test func compileErrorsStandAtTheirLessonLinesAndColumns() {
        let shapes = module("Shapes", "public let a = 1\npublic let b: Int = \"x\"\n", offsets: [0, 2])
        let compiled = CompileResult(termination: .exited(1), diagnostics: [
            CompilerDiagnostic(file: "c/01-a.md", line: 5, column: 21, severity: "error", message: "cannot convert value"),
            CompilerDiagnostic(file: nil, line: 0, column: 0, severity: "error", message: "something else"),
        ], transcript: "")
        let found = ScenarioRunner.moduleDiagnostics(compiled, of: shapes)
        #expect(found.map(\.id) == [.moduleCompileError, .moduleCompileError])
        #expect(found.map { $0.location?.description } == ["c/01-a.md:5:23", "c/01-a.md:3:1"])
        #expect(found.map(\.summary) == ["module 'Shapes': cannot convert value", "module 'Shapes': something else"])
    }
}
