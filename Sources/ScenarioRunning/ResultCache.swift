import CourseFiles
import CourseModel
import Foundation

/// Outputs of scenarios that ran to their end, in the content-addressed store. A key covers
/// everything the output can depend on, so an entry is never stale: it is used or not found.
package struct ResultCache: Sendable {
    package var store: ContentStore

    package init(folder: String) {
        store = ContentStore(folder: folder)
    }

    static let suffix = "out"
    /// A program that trapped: its signal, output and standard error, as JSON.
    static let trapSuffix = "trap"
    /// What type-checking an `errors` scenario said, as JSON.
    static let typeCheckSuffix = "tc"
    /// A program that did not compile: its findings as the check reports them, as JSON.
    static let compileFailureSuffix = "fail"
    /// Bump when the way scenarios are compiled or run changes what they could print.
    package static let formatVersion = "6"
    /// How much of a trapped program's standard error is kept (its end, where the runtime's
    /// message is).
    static let keptStandardError = 64 << 10

    /// A digest of the core files (names and texts), computed once per run and hashed into
    /// every key instead of the files themselves.
    package static func coreDigest(_ core: [(name: String, text: String)]) -> String {
        var hash = SHA256()
        for file in core {
            hash.update("core \(file.name) \(file.text.utf8.count)\n")
            hash.update(file.text)
        }
        return hash.finalize()
    }

    /// The key of a scenario: the tool's and the compiler's versions, the core files, the
    /// language mode, what the run finds out (a program's output and ending, or a type-check),
    /// where the program runs, the course modules it imports (`modules`: their digests), and
    /// the scenario's code.
    /// - Parameter placement: where the program runs (`Sandbox.Placement.keyPart`); not part
    ///   of a type-check's key, which runs nothing.
    package static func key(toolVersion: String, compilerVersion: String, coreDigest: String,
                            placement: String = "plain", modules: String = "", source: ScenarioSource) -> String {
        var hash = SHA256()
        let goal = source.goal == .typeCheck ? "typecheck mandatory-passes" : "run " + placement
        for part in ["coursebook-result", formatVersion, toolVersion, compilerVersion, coreDigest, goal,
                     "language-mode " + (source.languageMode?.rawValue ?? "default")] {
            hash.update(part)
            hash.update([0])
        }
        if !modules.isEmpty {
            // The course modules it imports: a module edited is a new program.
            hash.update("modules \(modules.utf8.count)\n")
            hash.update(modules)
        }
        hash.update("scenario \(source.code.utf8.count)\n")
        hash.update(source.code)
        if source.isGroup {
            // A group's program keeps its output split at its blocks: another result than the
            // same code as one scenario.
            hash.update("\ngroup " + ProgramGroup.startLines(source.parts).map(String.init).joined(separator: " "))
        }
        return hash.finalize()
    }

    /// The key of a compile failure of the scenario whose key is `key`: the failure's findings
    /// name lesson lines and columns, so where its code stands in its lesson (the file, each
    /// block's first line and indentation) is part of it, and so is the compiler's own
    /// identity beyond its version line (`toolchain`: its files' paths, sizes and times, and
    /// the environment its driver reads). An edit that moves the code compiles it again.
    package static func compileFailureKey(_ key: String, toolchain: String, source: ScenarioSource) -> String {
        var hash = SHA256()
        for part in ["coursebook-compile-failure", key, toolchain, source.file] {
            hash.update("\(part.utf8.count)\n")
            hash.update(part)
        }
        let parts = source.isGroup ? source.parts
            : [ScenarioPart(code: source.code, firstLine: source.firstLine, columnOffsets: source.columnOffsets)]
        for part in parts {
            hash.update("\npart \(part.firstLine) " + part.columnOffsets.map(String.init).joined(separator: " "))
        }
        return hash.finalize()
    }

    /// A compile failure as kept: its findings, and for a link that failed, what the link read.
    package struct KeptFailure: Sendable, Codable, Equatable {
        package var findings: [Diagnostic]
        /// Empty unless the linker said why: then the failure holds while these are as they were.
        package var linkInputs: [LinkInput]

        package init(findings: [Diagnostic], linkInputs: [LinkInput] = []) {
            self.findings = findings
            self.linkInputs = linkInputs
        }
    }

    /// The findings of a compile failure kept under `key` (a `compileFailureKey`); nil when a
    /// file its link read has changed since (`now` stamps a path as it stands).
    package func compileFailure(_ key: String, now: (String) -> LinkInput = LinkInput.now) -> ScenarioOutcome? {
        guard let bytes = store.read(key, suffix: Self.compileFailureSuffix),
              let kept = try? JSONDecoder().decode(KeptFailure.self, from: Data(bytes)), !kept.findings.isEmpty,
              kept.linkInputs.allSatisfy({ now($0.path) == $0 }) else { return nil }
        return .compileFailed(kept.findings, fromCache: true)
    }

    /// Keeps compile failures by their `compileFailureKey`s. The caller gives only failures the
    /// same program meets on every compile: those whose every error the compiler placed in the
    /// scenario's code, or the linker gave with the files it read (not a time-out, a crash, a
    /// limit).
    package func store(compileFailures: [(key: String, failure: KeptFailure)]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let entries = compileFailures.compactMap { kept in
            (try? encoder.encode(kept.failure)).map { (kept.key, Array($0)) }
        }
        if !entries.isEmpty { store.write(entries, suffix: Self.compileFailureSuffix) }
    }

    /// The outputs of a run's completed scenarios, kept in one file as well (see
    /// `ContentStore.readPack`): a warm check reads it where it read one file per scenario.
    static let outputsPack = "outputs"

    /// The outputs in the pack, by key (empty when there is none or it is refused).
    package func packedOutputs() -> [String: [UInt8]] { store.readPack(Self.outputsPack) }

    /// Keeps `outputs` (every completed scenario of a run, by key) as the pack, when one of
    /// them is not in it already (`packed`).
    package func pack(outputs: [(key: String, output: String)], packed: [String: [UInt8]]) {
        guard outputs.contains(where: { packed[$0.key] == nil }) else { return }
        store.writePack(Self.outputsPack, outputs.map { ($0.key, Array($0.output.utf8)) })
    }

    package func lookup(_ key: String) -> String? {
        store.read(key, suffix: Self.suffix).map { String(decoding: $0, as: UTF8.self) }
    }

    package func store(_ outputs: [(key: String, output: String)]) {
        store.write(outputs.map { ($0.key, Array($0.output.utf8)) }, suffix: Self.suffix)
    }

    /// A trap, as kept.
    private struct Trap: Codable {
        var signal: Int32
        var output: String
        var standardError: String
    }

    /// What the cache holds for a scenario with this key and goal: the output of a program that
    /// ran to its end or trapped, or what type-checking it said.
    package func lookup(_ key: String, goal: ScenarioGoal, packed: [UInt8]? = nil) -> ScenarioOutcome? {
        switch goal {
        case .typeCheck:
            guard let bytes = store.read(key, suffix: Self.typeCheckSuffix),
                  let check = try? JSONDecoder().decode(TypeCheck.self, from: Data(bytes)) else { return nil }
            return .typeChecked(check, fromCache: true)
        case .run:
            if let packed { return .completed(output: String(decoding: packed, as: UTF8.self), standardError: "", fromCache: true) }
            if let output = lookup(key) { return .completed(output: output, standardError: "", fromCache: true) }
            guard let bytes = store.read(key, suffix: Self.trapSuffix),
                  let trap = try? JSONDecoder().decode(Trap.self, from: Data(bytes)) else { return nil }
            return .crashed(.signaled(trap.signal), output: trap.output, standardError: trap.standardError, fromCache: true)
        }
    }

    /// Keeps what the same program meets on every run: an output, a trap, a type-check. A
    /// crash of another kind, a time-out or a cut output is run again next time.
    package func store(outcomes: [(key: String, outcome: ScenarioOutcome)]) {
        var outputs: [(String, [UInt8])] = [], traps: [(String, [UInt8])] = [], checks: [(String, [UInt8])] = []
        let encoder = JSONEncoder()
        for (key, outcome) in outcomes {
            switch outcome {
            case let .completed(output, _, false):
                outputs.append((key, Array(output.utf8)))
            case let .crashed(.signaled(signal), output, standardError, false) where TrapMessage.signals.contains(signal):
                let kept = String(decoding: Array(standardError.utf8.suffix(Self.keptStandardError)), as: UTF8.self)
                if let bytes = try? encoder.encode(Trap(signal: signal, output: output, standardError: kept)) {
                    traps.append((key, Array(bytes)))
                }
            case let .typeChecked(check, false):
                if let bytes = try? encoder.encode(check) { checks.append((key, Array(bytes))) }
            default:
                break
            }
        }
        if !outputs.isEmpty { store.write(outputs, suffix: Self.suffix) }
        if !traps.isEmpty { store.write(traps, suffix: Self.trapSuffix) }
        if !checks.isEmpty { store.write(checks, suffix: Self.typeCheckSuffix) }
    }
}
