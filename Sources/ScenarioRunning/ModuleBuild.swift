import CourseFiles
import CourseModel
import Foundation

/// How building a course module ended: built, or the compile that refused it.
package enum ModuleBuildResult: Sendable {
    case built(BuiltModule)
    case refused(CompileResult)
}

/// A course module compiled (listings.md, section 7): the folder that holds its
/// `.swiftmodule` (what `-I` names) and its object (linked into every program that imports it,
/// as a static library would be).
package struct BuiltModule: Sendable, Equatable {
    package var name: String
    package var folder: String
    package var object: String
}

/// What a program that imports course modules is compiled with: `-I` for each module's
/// folder, its object among the inputs.
package struct ModuleLink: Sendable, Equatable {
    package var includes: [String] = []
    package var objects: [String] = []

    package static let none = ModuleLink()
}

/// The course's modules as one run built them: each compiled, or refused with the compiler's
/// errors (at their lesson lines).
package struct ModuleBuilds: Sendable {
    package var built: [String: BuiltModule] = [:]
    /// The modules that did not compile, with the line of their first block.
    package var failed: [String: SourceLocation] = [:]
    package var diagnostics: [Diagnostic] = []
}

extension SwiftCompiler {
    /// Compiles `module` alone as a library (`-parse-as-library -module-name NAME -emit-module
    /// -c`), in `languageMode`, into a folder named by a digest of the compiler and the module's
    /// source under `store` (once per content: a later run finds it there). Returns the module,
    /// or the compile that failed.
    package func build(_ module: CourseModule, languageMode: LanguageMode?, in store: String,
                       timeLimit: Duration) -> ModuleBuildResult {
        let source = module.source
        let key = SHA256.hex([executable, stamp, version, module.name, languageMode?.rawValue ?? "default", source]
            .joined(separator: "\u{0}"))
        let folder = "\(store)/\(module.name)-\(key.prefix(32))"
        let built = BuiltModule(name: module.name, folder: folder, object: "\(folder)/\(module.name).o")
        if access(built.object, R_OK) == 0, access("\(folder)/\(module.name).swiftmodule", R_OK) == 0 {
            return .built(built)
        }
        try? FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        guard let scratch = makeScratchFolder(prefix: store + "/making-") else {
            return .refused(CompileResult(termination: .exited(127), diagnostics: [], transcript: "cannot make a folder in \(store)"))
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        guard (try? writeAtomically(Array(source.utf8), to: "\(scratch)/\(module.name).swift", keepingPermissions: false)) != nil else {
            return .refused(CompileResult(termination: .exited(127), diagnostics: [], transcript: "cannot write \(scratch)/\(module.name).swift"))
        }
        var arguments = [executable, "-parse-as-library", "-module-name", module.name, "-Onone", "-suppress-warnings",
                         "-diagnostic-style=llvm", "-emit-module", "-emit-module-path", "\(module.name).swiftmodule",
                         "-c", "\(module.name).swift", "-o", "\(module.name).o"] + moduleCacheArguments
        if let languageMode { arguments += ["-swift-version", languageMode.rawValue] }
        guard let ran = run(arguments, in: scratch, until: ContinuousClock.now + timeLimit) else {
            return .refused(CompileResult(termination: .exited(127), diagnostics: [], transcript: "cannot start \(executable)"))
        }
        let compiled = result(ran, timeLimit: timeLimit)
        guard compiled.succeeded, access("\(scratch)/\(module.name).o", R_OK) == 0 else { return .refused(compiled) }
        // Another run may have put the same module in place meanwhile: either copy serves.
        if rename(scratch, folder) != 0, access(built.object, R_OK) != 0 { return .refused(compiled) }
        return .built(built)
    }
}

extension ScenarioRunner {
    /// The names of the course modules `source` imports, in course order.
    func imports(_ source: ScenarioSource) -> [String] {
        modules.isEmpty ? [] : ModuleImports.names(importedBy: source.code, among: modules.map(\.name))
    }

    /// The part of `source`'s cache key its modules give: each imported module's digest.
    func moduleKeyPart(_ source: ScenarioSource) -> String {
        imports(source).map { "module \($0) \(moduleDigests[$0] ?? "-")" }.joined(separator: "\n")
    }

    /// What `source` is compiled with: the modules it imports, as built.
    func moduleLink(for source: ScenarioSource) -> ModuleLink {
        guard let builds else { return .none }
        let used = imports(source).compactMap { builds.built[$0] }
        return ModuleLink(includes: used.map(\.folder), objects: used.map(\.object))
    }

    /// Why `source` is not run: it imports a module that did not compile (nil when none).
    func moduleRefusal(_ source: ScenarioSource) -> ScenarioOutcome? {
        guard let builds, !builds.failed.isEmpty else { return nil }
        let broken = imports(source).filter { builds.failed[$0] != nil }
        guard let first = broken.first, let place = builds.failed[first] else { return nil }
        let names = broken.map { "'\($0)'" }.joined(separator: ", ")
        return .compileFailed([.error(
            .moduleNotBuilt,
            "not run: the scenario imports the module \(names), which does not compile (its errors are reported at its blocks)",
            at: SourceLocation(file: source.file, line: source.firstLine),
            notes: [.init("the module '\(first)' begins here", at: place)])])
    }

    /// Compiles every module of the course (each found in the store when it was built before),
    /// in the course's language mode.
    func buildModules(scratch: () -> String) -> ModuleBuilds {
        var builds = ModuleBuilds()
        let store = compiler.plans?.objectFolder.map { $0 + "/modules" } ?? scratch()
        for module in modules {
            switch compiler.build(module, languageMode: settings.languageMode, in: store, timeLimit: settings.compileTimeLimit) {
            case .built(let built):
                builds.built[module.name] = built
            case .refused(let compiled):
                let first = module.parts[0]
                builds.failed[module.name] = SourceLocation(file: first.file, line: first.blockLine)
                builds.diagnostics += Self.moduleDiagnostics(compiled, of: module)
            }
        }
        return builds
    }

    /// The errors of a module's compile at their lesson lines and columns; one the compiler
    /// places nowhere in the module's blocks stands at its first block.
    static func moduleDiagnostics(_ compiled: CompileResult, of module: CourseModule) -> [Diagnostic] {
        let first = module.parts[0]
        func place(_ item: CompilerDiagnostic) -> SourceLocation? {
            guard let file = item.file, let part = module.part(holding: item.line, of: file) else { return nil }
            let index = item.line - part.code.firstLine
            let offset = index >= 0 && index < part.code.columnOffsets.count ? part.code.columnOffsets[index] : 0
            return SourceLocation(file: file, line: item.line, column: item.column + offset)
        }
        let errors = compiled.diagnostics.filter { $0.severity == "error" && !$0.isLinkSummary }
        guard !errors.isEmpty else {
            return [.error(.moduleCompileError, "the module '\(module.name)' does not compile (\(compiled.termination))",
                           at: SourceLocation(file: first.file, line: first.blockLine),
                           attachment: compiled.transcript.isEmpty ? nil : compiled.transcript)]
        }
        return errors.map { error in
            .error(.moduleCompileError, "module '\(module.name)': \(error.message)",
                   at: place(error) ?? SourceLocation(file: first.file, line: first.blockLine),
                   notes: error.notes.compactMap { note in place(note).map { .init(note.message, at: $0) } })
        }
    }

    /// A digest of each module's name, source and language mode: part of the key of every
    /// scenario that imports it.
    static func moduleDigests(_ modules: [CourseModule], languageMode: LanguageMode?) -> [String: String] {
        Dictionary(modules.map { module in
            var hash = SHA256()
            hash.update("module \(module.name) \(languageMode?.rawValue ?? "default")\n")
            hash.update(module.source)
            return (module.name, hash.finalize())
        }, uniquingKeysWith: { first, _ in first })
    }
}
