import CourseFiles
import CourseModel
import Foundation
import Synchronization

/// Type-checking an `errors` scenario: `swiftc -module-name main -typecheck main.swift` with
/// the core files and the language mode, and nothing more (no object, no link, no run).
///
/// What it costs is the frontend's work: `swiftc` spends some 80 ms planning even a one-file
/// type-check before the frontend starts, so the driver is asked once for its command (`-###`,
/// every file a primary file of one job: its batch mode, in one batch, so that the core files
/// are read once with the scenario instead of once per file) and that command is run for every
/// later type-check of files with the same names. A frontend that crashes, or a command that
/// cannot be had, leaves the answer to the driver itself.
extension SwiftCompiler {
    package func typeCheck(sources: [String], workingDirectory: String, parseAsLibrary: Bool = false,
                           languageMode: LanguageMode? = nil, timeLimit: Duration? = nil) -> CompileResult {
        var arguments = ["-module-name", ScenarioProgram.moduleName, "-typecheck", "-diagnostic-style=llvm"]
        if parseAsLibrary { arguments.append("-parse-as-library") }
        if let languageMode { arguments += ["-swift-version", languageMode.rawValue] }
        arguments += sources
        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        if let plans, let job = typeCheckJob(arguments, sources: sources, workingDirectory: workingDirectory,
                                             deadline: deadline, plans: plans),
           let ran = Self.run(job, in: workingDirectory, until: deadline) {
            let crashed: Bool
            if case .signaled = ran.termination { crashed = !ran.timedOut } else { crashed = false }
            if !crashed {
                plans.replayedCompiles.add(1, ordering: .relaxed)
                return result(ran, timeLimit: timeLimit, deduplicating: false)
            }
        }
        // One job, as above: each of the driver's jobs per file would report the same parse
        // error again.
        guard let ran = Self.run([executable] + arguments + ["-enable-batch-mode", "-j1"], in: workingDirectory,
                                 until: deadline) else {
            return CompileResult(termination: .exited(127), diagnostics: [],
                                 transcript: "cannot start \(executable)")
        }
        return result(ran, timeLimit: timeLimit, deduplicating: false)
    }

    /// The frontend's command for these arguments: learned from the driver once per compiler
    /// and file names (kept in the plans), with the sources put in; nil when the driver's
    /// listing is not one frontend job that type-checks every source.
    private func typeCheckJob(_ arguments: [String], sources: [String], workingDirectory: String,
                              deadline: ContinuousClock.Instant?, plans: CompilePlanStore) -> [String]? {
        func mark(_ index: Int, _ path: String) -> String { "\u{1}source \(index) \((path as NSString).lastPathComponent)" }
        var template = arguments
        for (index, word) in template.enumerated() {
            if let source = sources.firstIndex(of: word) { template[index] = mark(source, word) }
        }
        let key = (["typecheck", executable, stamp] + template).joined(separator: "\u{0}")
        let job: [String]
        if let known = plans.typeCheckJob(key) {
            job = known
        } else {
            guard let listing = Self.run([executable] + arguments + ["-enable-batch-mode", "-j1", "-###"],
                                         in: workingDirectory, until: deadline),
                  listing.termination.isSuccess else { return nil }
            let lines = String(decoding: listing.standardOutput, as: UTF8.self).split(separator: "\n")
                .filter { !$0.allSatisfy(\.isWhitespace) }
            guard lines.count == 1, let words = ShellWords.split(lines[0]), words.count > 2,
                  (words[0] as NSString).lastPathComponent == "swift-frontend",
                  words[1] == "-frontend", words[2] == "-typecheck",
                  sources.allSatisfy({ words.contains($0) }) else { return nil }
            job = words.map { word in sources.firstIndex(of: word).map { mark($0, word) } ?? word }
            plans.keep(typeCheck: job, as: key)
        }
        return job.map { word in
            guard word.hasPrefix("\u{1}source "), let index = Int(word.split(separator: " ")[1]),
                  index < sources.count else { return word }
            return sources[index]
        }
    }
}

/// What a type-check said, sorted for an `errors` scenario: the errors in its own file (the
/// lines are its block's: the file holds its code alone), those in the core files, and any
/// other (no file, a macro's expansion), which no `errors` block can state.
package enum TypeCheckReading {
    package static func read(_ compiled: CompileResult, ownFile: String,
                             coreFiles: [(path: String, name: String)]) -> (check: TypeCheck, unplaced: [CompilerDiagnostic]) {
        var errors: [CompilerError] = []
        var coreErrors: [CoreError] = []
        var unplaced: [CompilerDiagnostic] = []
        for diagnostic in compiled.diagnostics where diagnostic.severity == "error" {
            if diagnostic.file == ownFile {
                errors.append(CompilerError(line: diagnostic.line, column: diagnostic.column, message: diagnostic.message))
            } else if let core = coreFiles.first(where: { $0.path == diagnostic.file }) {
                coreErrors.append(CoreError(file: core.name, line: diagnostic.line, column: diagnostic.column,
                                            message: diagnostic.message))
            } else {
                unplaced.append(diagnostic)
            }
        }
        return (TypeCheck(errors: errors, coreErrors: coreErrors), unplaced)
    }
}

/// The type-checks of some `errors` scenarios, begun at once on threads of their own so that
/// the caller goes on (reading the other scenarios' shapes, compiling a batch): each scenario
/// alone, its code as `main.swift` in a folder of its own with the core files, as many at a
/// time as there are cores and one more (a frontend spends part of its time starting up and
/// reading files, not computing).
final class TypeCheckRun: Sendable {
    private let workspace: String
    private let done: Background<[Int: ScenarioOutcome]>

    /// - Parameter asLibrary: the scenarios whose shape declares `@main`: type-checked as a
    ///   library file, as their program is compiled.
    init(runner: ScenarioRunner, sources: [ScenarioSource], indices: [Int], asLibrary: Set<Int> = []) {
        let workspace = ScenarioRunner.makeWorkspace()
        self.workspace = workspace
        done = Background {
            let found = Locked<[Int: ScenarioOutcome]>([:])
            let next = Atomic<Int>(0)
            let work: @Sendable () -> Void = {
                while true {
                    let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard position < indices.count else { return }
                    let index = indices[position]
                    let outcome = Self.typeCheck(sources[index], asLibrary: asLibrary.contains(index),
                                                 in: "\(workspace)/typecheck-\(index)", runner: runner)
                    found.withLock { $0[index] = outcome }
                }
            }
            let helpers = (1..<max(1, min(runner.settings.parallelism + 1, indices.count))).map { _ in Background(work) }
            work()
            for helper in helpers { helper.wait() }
            return found.withLock { $0 }
        }
    }

    /// What each scenario came to, once every type-check is done; the scratch folder is gone.
    func wait() -> [Int: ScenarioOutcome] {
        let outcomes = done.wait()
        try? FileManager.default.removeItem(atPath: workspace)
        Interruption.release(workspace)
        return outcomes
    }

    /// One scenario's type-check: its code alone in `main.swift` (a file with `@main`: a library
    /// file), so that every line and column the compiler names is its block's.
    static func typeCheck(_ source: ScenarioSource, asLibrary: Bool, in folder: String, runner: ScenarioRunner) -> ScenarioOutcome {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ownFile = ScenarioProgram.standaloneFileName(hasMainAttribute: asLibrary)
        _ = FileManager.default.createFile(atPath: "\(folder)/\(ownFile)", contents: Data(source.code.utf8))
        let compiled = runner.compiler.typeCheck(sources: [ownFile] + runner.coreFiles.map(\.path), workingDirectory: folder,
                                                 parseAsLibrary: asLibrary, languageMode: source.languageMode,
                                                 timeLimit: runner.settings.compileTimeLimit)
        let (check, unplaced) = TypeCheckReading.read(compiled, ownFile: ownFile,
                                                      coreFiles: runner.coreFiles.map { ($0.path, $0.name) })
        let here = SourceLocation(file: source.file, line: source.firstLine)
        if compiled.succeeded, check.compiles { return .typeChecked(check, fromCache: false) }
        if !unplaced.isEmpty {
            // Errors the compiler places nowhere in the scenario or the core (none, a macro's
            // expansion): no `errors` block can state them.
            return .compileFailed(unplaced.map { diagnostic in
                .error(.compileError, diagnostic.message, at: here,
                       notes: diagnostic.file.map { [.init("the compiler places it in \($0)")] } ?? [])
            })
        }
        if check.compiles {
            // It failed without a word: a crash, a time-out.
            return .compileFailed([.error(.compileError, "the type-check of the scenario failed (\(compiled.termination))",
                                          at: here, attachment: compiled.transcript.isEmpty ? nil : compiled.transcript)])
        }
        return .typeChecked(check, fromCache: false)
    }
}
