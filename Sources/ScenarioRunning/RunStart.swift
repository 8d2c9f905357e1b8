import BackgroundWork
import CourseFiles
import CourseModel
import Processes
import Foundation

/// What `ScenarioRunner.start` learned and began: the cache's answers, and perhaps a batch
/// compiling ahead of the shapes.
package struct RunStart: Sendable {
    let sources: [ScenarioSource]
    let placement: Sandbox.Placement
    let keys: [String]
    /// Each scenario's outcome from the cache; nil for one to compile.
    let cached: [ScenarioOutcome?]
    let aheadOfShapes: BatchAhead?
    /// The type-checks begun at once, of the `errors` scenarios the cache did not hold.
    let typeChecks: TypeCheckRun?
    /// The course's modules as built for this run (nil when it has none).
    let builds: ModuleBuilds?
    /// A scratch folder the modules were built in, when the compiler keeps no store.
    var scratch: String? = nil
    /// The outputs the cache's pack held (`ResultCache.packedOutputs`).
    var packed: [String: [UInt8]] = [:]
}

/// A program compiling before the scenarios' shapes are known, in a scratch folder of its own:
/// a batch of the scenarios (indices into the run's sources) that the guess put in it, or the
/// one scenario a run has to compile, alone.
final class BatchAhead: Sendable {
    enum Kind: Equatable {
        case batch([Int])
        case alone(Int, hasMainAttribute: Bool)
    }

    let kind: Kind
    let workspace: String
    let folder: String
    let program: String
    /// The generated files (a program of one scenario places its compiler messages by them).
    let files: [(name: String, contents: String)]
    let compiled: Background<CompileResult>

    /// The batch of `indices`.
    convenience init(runner: ScenarioRunner, indices: [Int], sources: [ScenarioSource]) {
        self.init(kind: .batch(indices), files: runner.batchProgram(indices.map { ($0, sources[$0]) })) {
            runner.compileBatch(files: $0, in: $1, output: $2)
        }
    }

    /// The program of scenario `index` alone.
    convenience init(runner: ScenarioRunner, alone index: Int, hasMainAttribute: Bool, sources: [ScenarioSource]) {
        let files = ScenarioProgram.standalone(sources[index], hasMainAttribute: hasMainAttribute,
                                               unbufferedFromOutside: ScenarioProgram.unbufferedOutput != nil)
        self.init(kind: .alone(index, hasMainAttribute: hasMainAttribute), files: files) {
            runner.compileAlone(files: $0, in: $1, output: $2, jobs: runner.settings.parallelism,
                                languageMode: sources[index].languageMode,
                                modules: runner.moduleLink(for: sources[index]))
        }
    }

    private init(kind: Kind, files: [(name: String, contents: String)],
                 compile: @escaping @Sendable ([(name: String, contents: String)], String, String) -> CompileResult) {
        self.kind = kind
        self.files = files
        workspace = ScenarioRunner.makeWorkspace()
        folder = workspace + "/ahead"
        program = folder + "/program"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (folder, program) = (folder, program)
        compiled = Background { compile(files, folder, program) }
    }

    /// Whether the shapes compile `pending` the way this program was begun: the batch holds
    /// exactly the scenarios the shapes batch; the one scenario is alone, with `@main` or not as
    /// its shape says.
    func serves(pending: [Int], jobs: [ScenarioJob], runner: ScenarioRunner) -> Bool {
        switch kind {
        case .batch(let indices):
            return indices == pending.filter { runner.batchable(jobs[$0]) }
        case .alone(let index, let hasMainAttribute):
            return pending == [index] && jobs[index].shape.hasMainAttribute == hasMainAttribute
        }
    }

    /// Removes the scratch folder, once the compiler is done with it.
    func removeWorkspace() {
        _ = compiled.wait()
        try? FileManager.default.removeItem(atPath: workspace)
        Interruption.release(workspace)
    }
}
