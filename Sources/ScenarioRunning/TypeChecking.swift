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
    ///
    /// - Parameter primaries: the sources whose job it is (the driver runs one job per source;
    ///   `-primary-file`): all of them, in one job, when nil. A part of them is checked only by
    ///   a command learned before; without one, every source is.
    package func typeCheck(sources: [String], primaries: [Int]? = nil, workingDirectory: String,
                           languageMode: LanguageMode? = nil, timeLimit: Duration? = nil, includes: [String] = []) -> CompileResult {
        var arguments = ["-module-name", ScenarioProgram.moduleName, "-typecheck", "-diagnostic-style=llvm"] + moduleCacheArguments
            + includes.flatMap { ["-I", $0] }
        if let languageMode { arguments += ["-swift-version", languageMode.rawValue] }
        arguments += sources
        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        if replaysDriverPlans, let plans, let job = typeCheckJob(arguments, sources: sources, primaries: primaries,
                                             workingDirectory: workingDirectory, deadline: deadline, plans: plans),
           let ran = run(job, in: workingDirectory, until: deadline) {
            let crashed: Bool
            if case .signaled = ran.termination { crashed = !ran.timedOut } else { crashed = false }
            if !crashed {
                plans.replayedCompiles.add(1, ordering: .relaxed)
                return result(ran, timeLimit: timeLimit, deduplicating: false)
            }
        }
        // One job, as above: each of the driver's jobs per file would report the same parse
        // error again.
        guard let ran = run([executable] + arguments + ["-enable-batch-mode", "-j1"], in: workingDirectory,
                                 until: deadline) else {
            return CompileResult(termination: .exited(127), diagnostics: [],
                                 transcript: "cannot start \(executable)")
        }
        return result(ran, timeLimit: timeLimit, deduplicating: false)
    }

    /// The compiler's mandatory passes over a program the type-check found no error in:
    /// `swiftc -emit-sil -wmo`, whose output is thrown away. Plain `swiftc` runs them on every
    /// build, and they refuse what no type-check sees: a constant read before it is set, a
    /// missing `return`, two `inout` arguments that alias, an overlapping access. An `errors`
    /// scenario's verdict is what compiling it alone would say, so these are its errors too.
    package func mandatoryPasses(sources: [String], workingDirectory: String, languageMode: LanguageMode? = nil,
                                 timeLimit: Duration? = nil, includes: [String] = []) -> CompileResult {
        var arguments = ["-module-name", ScenarioProgram.moduleName, "-emit-sil", "-wmo", "-o", "/dev/null",
                         "-diagnostic-style=llvm"] + moduleCacheArguments + includes.flatMap { ["-I", $0] }
        if let languageMode { arguments += ["-swift-version", languageMode.rawValue] }
        arguments += sources
        guard let ran = run([executable] + arguments, in: workingDirectory,
                            until: timeLimit.map { ContinuousClock.now + $0 }) else {
            return CompileResult(termination: .exited(127), diagnostics: [], transcript: "cannot start \(executable)")
        }
        return result(ran, timeLimit: timeLimit, deduplicating: false)
    }

    /// The frontend's command for these arguments: learned from the driver once per compiler
    /// and file names (kept in the plans), with the sources put in; nil when the driver's
    /// listing is not one frontend job that type-checks every source.
    private func typeCheckJob(_ arguments: [String], sources: [String], primaries: [Int]?, workingDirectory: String,
                              deadline: ContinuousClock.Instant?, plans: CompilePlanStore) -> [String]? {
        func mark(_ index: Int, _ path: String) -> String { "\u{1}source \(index) \((path as NSString).lastPathComponent)" }
        var template = arguments
        for (index, word) in template.enumerated() {
            if let source = sources.firstIndex(of: word) { template[index] = mark(source, word) }
        }
        let key = (["typecheck", executable, stamp, driverEnvironment] + template).joined(separator: "\u{0}")
        let job: [String]
        // A command kept with its output map (by a coursebook before this rule) names a folder
        // that is gone: learned again.
        if let known = plans.typeCheckJob(key), !known.contains("-supplementary-output-file-map") {
            job = known
        } else {
            guard let listing = run([executable] + arguments + ["-enable-batch-mode", "-j1", "-###"],
                                         in: workingDirectory, until: deadline),
                  listing.termination.isSuccess else { return nil }
            let lines = String(decoding: listing.standardOutput, as: UTF8.self).split(separator: "\n")
                .filter { !$0.allSatisfy(\.isWhitespace) }
            guard lines.count == 1, let words = ShellWords.split(lines[0]), words.count > 2,
                  (words[0] as NSString).lastPathComponent == "swift-frontend",
                  words[1] == "-frontend", words[2] == "-typecheck",
                  sources.allSatisfy({ words.contains($0) }),
                  let kept = withoutEmptyOutputMap(words) else { return nil }
            job = kept.map { word in sources.firstIndex(of: word).map { mark($0, word) } ?? word }
            plans.keep(typeCheck: job, as: key)
        }
        var command: [String] = []
        for word in job {
            guard word.hasPrefix("\u{1}source "), let index = Int(word.split(separator: " ")[1]),
                  index < sources.count else {
                command.append(word)
                continue
            }
            // A source that is not this job's is read as the driver's job for another file
            // reads it: without `-primary-file`.
            if let primaries, !primaries.contains(index), command.last == "-primary-file" { command.removeLast() }
            command.append(sources[index])
        }
        return command
    }
}

/// The frontend's command without its `-supplementary-output-file-map`: with several primary
/// files the driver writes that map into a temporary folder of its own, which is gone by the
/// time a kept command runs again. A type-check's map names no output for any file, so the
/// command means the same without it; a map that names one (or cannot be read) keeps the
/// command from being kept at all, and the driver answers every time.
func withoutEmptyOutputMap(_ words: [String]) -> [String]? {
    guard let flag = words.firstIndex(of: "-supplementary-output-file-map") else { return words }
    guard flag + 1 < words.count,
          let data = FileManager.default.contents(atPath: words[flag + 1]),
          let map = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
          map.values.allSatisfy({ ($0 as? [String: Any])?.isEmpty == true }) else { return nil }
    var kept = words
    kept.removeSubrange(flag...flag + 1)
    return withoutEmptyOutputMap(kept)
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
///
/// The core files' own job (checking their bodies: most of the work) runs once per language
/// mode for the scenarios that leave the core alone (`ScenarioSource.leavesCoreAlone`), with an
/// empty `main.swift`, instead of once with each of them; each of those runs its own job only.
/// When the core's job finds an error, or a scenario's job meets one in the core, those
/// scenarios are checked again with both jobs, as the driver would.
final class TypeCheckRun: Sendable {
    private let workspace: String
    private let done: Background<(outcomes: [Int: ScenarioOutcome], compilerRuns: Int)>

    /// What one type-check is of.
    enum Item: Sendable {
        /// A scenario; with `ownJobOnly`, without the core's job.
        case scenario(Int, ownJobOnly: Bool)
        /// The core files' job, with an empty `main.swift`, in a language mode.
        case core(LanguageMode?)
    }

    init(runner: ScenarioRunner, sources: [ScenarioSource], indices: [Int]) {
        let workspace = ScenarioRunner.makeWorkspace()
        self.workspace = workspace
        done = Background {
            // Sharing the core's job pays when it saves more jobs than the one it adds.
            var sharing: [LanguageMode?: [Int]] = [:]
            if !runner.coreFiles.isEmpty {
                for index in indices where sources[index].leavesCoreAlone {
                    sharing[sources[index].languageMode, default: []].append(index)
                }
            }
            sharing = sharing.filter { $0.value.count >= 3 }
            let shared = Set(sharing.values.joined())
            let items = sharing.keys.map { Item.core($0) }
                + indices.map { Item.scenario($0, ownJobOnly: shared.contains($0)) }
            var results = Self.run(items, sources: sources, in: workspace, runner: runner)
            // What the shared core's job would have said with each scenario: nothing, when it
            // found nothing alone and no scenario's job met an error in the core.
            var again: [Item] = []
            for index in shared {
                let clean = results.cores[sources[index].languageMode] == true
                if !clean || !Self.placesEveryErrorInItsCode(results.scenarios[index]) {
                    again.append(.scenario(index, ownJobOnly: false))
                }
            }
            if !again.isEmpty {
                results.scenarios.merge(Self.run(again, sources: sources, in: workspace, runner: runner).scenarios) { $1 }
            }
            return (results.scenarios, items.count + again.count)
        }
    }

    /// What each scenario came to, and how many compiler runs it took, once every type-check
    /// is done; the scratch folder is gone.
    func wait() -> (outcomes: [Int: ScenarioOutcome], compilerRuns: Int) {
        let result = done.wait()
        try? FileManager.default.removeItem(atPath: workspace)
        Interruption.release(workspace)
        return result
    }

    /// Runs the items, as many at a time as there are cores and one more.
    static func run(_ items: [Item], sources: [ScenarioSource], in workspace: String, runner: ScenarioRunner) -> (scenarios: [Int: ScenarioOutcome], cores: [LanguageMode?: Bool]) {
        let found = Locked<(scenarios: [Int: ScenarioOutcome], cores: [LanguageMode?: Bool])>(([:], [:]))
        let next = Atomic<Int>(0)
        let work: @Sendable () -> Void = {
            while true {
                let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard position < items.count else { return }
                switch items[position] {
                case let .scenario(index, ownJobOnly):
                    let outcome = typeCheck(sources[index], ownJobOnly: ownJobOnly,
                                            in: "\(workspace)/typecheck-\(index)-\(ownJobOnly ? "own" : "all")", runner: runner)
                    found.withLock { $0.scenarios[index] = outcome }
                case let .core(mode):
                    let clean = coreIsClean(mode, in: "\(workspace)/core-\(mode?.rawValue ?? "default")", runner: runner)
                    found.withLock { $0.cores[mode] = clean }
                }
            }
        }
        let helpers = (1..<max(1, min(runner.settings.parallelism + 1, items.count))).map { _ in Background(work) }
        work()
        for helper in helpers { helper.wait() }
        return found.withLock { $0 }
    }

    /// Whether a scenario's own job came to errors in its code alone (or none): nothing in the
    /// core, nothing unplaced.
    static func placesEveryErrorInItsCode(_ outcome: ScenarioOutcome?) -> Bool {
        if case let .typeChecked(check, _)? = outcome { return check.coreErrors.isEmpty }
        return false
    }

    /// The core files' job with an empty `main.swift`: whether it finds no error.
    static func coreIsClean(_ mode: LanguageMode?, in folder: String, runner: ScenarioRunner) -> Bool {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: "\(folder)/main.swift", contents: Data())
        let compiled = runner.compiler.typeCheck(sources: ["main.swift"] + runner.coreFiles.map(\.path),
                                                 primaries: Array(1...runner.coreFiles.count), workingDirectory: folder,
                                                 languageMode: mode, timeLimit: runner.settings.compileTimeLimit)
        return compiled.succeeded && !compiled.diagnostics.contains { $0.severity == "error" }
    }

    /// One scenario's type-check: its code alone in `main.swift`, so that every line and column
    /// the compiler names is its block's. Always `main.swift`, as a learner's file is named:
    /// `@main` there is the compiler's error, as `swiftc main.swift` says it.
    static func typeCheck(_ source: ScenarioSource, ownJobOnly: Bool, in folder: String,
                          runner: ScenarioRunner) -> ScenarioOutcome {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let ownFile = "main.swift"
        _ = FileManager.default.createFile(atPath: "\(folder)/\(ownFile)", contents: Data(source.code.utf8))
        let includes = runner.moduleLink(for: source).includes
        let compiled = runner.compiler.typeCheck(sources: [ownFile] + runner.coreFiles.map(\.path),
                                                 primaries: ownJobOnly ? [0] : nil, workingDirectory: folder,
                                                 languageMode: source.languageMode,
                                                 timeLimit: runner.settings.compileTimeLimit, includes: includes)
        let (check, unplaced) = TypeCheckReading.read(compiled, ownFile: ownFile,
                                                      coreFiles: runner.coreFiles.map { ($0.path, $0.name) })
        let here = SourceLocation(file: source.file, line: source.firstLine)
        if compiled.succeeded, check.compiles {
            // No error the type-check sees: the passes every build runs may still find one.
            let passed = runner.compiler.mandatoryPasses(sources: [ownFile] + runner.coreFiles.map(\.path),
                                                         workingDirectory: folder, languageMode: source.languageMode,
                                                         timeLimit: runner.settings.compileTimeLimit, includes: includes)
            let (found, unplacedToo) = TypeCheckReading.read(passed, ownFile: ownFile,
                                                             coreFiles: runner.coreFiles.map { ($0.path, $0.name) })
            if !found.compiles { return .typeChecked(found, fromCache: false) }
            if passed.succeeded { return .typeChecked(check, fromCache: false) }
            // They failed without an error in the scenario or the core: the compile would too.
            let said = unplacedToo.map(\.message).joined(separator: "; ")
            return .compileFailed([.error(.compileError, "the compiler's mandatory passes failed on the scenario (\(said.isEmpty ? "\(passed.termination)" : said))",
                                          at: here, attachment: passed.transcript.isEmpty ? nil : passed.transcript)])
        }
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
