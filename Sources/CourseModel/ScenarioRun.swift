import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A scenario as the runner compiles it: its code and where that code stands in its lesson.
package struct ScenarioSource: Sendable, Equatable {
    package var code: String
    /// The lesson's path as messages show it; `#sourceLocation` puts the compiler there.
    package var file: String
    /// The lesson line of the scenario's first line of code.
    package var firstLine: Int
    /// Bytes before the code on each of its lesson lines (see `CodeBlock.columnOffsets`).
    package var columnOffsets: [Int]
    /// `-swift-version N`; nil for the compiler's default.
    package var languageMode: LanguageMode?
    /// What the run must find out: how the program runs, or only what the type checker says.
    package var goal: ScenarioGoal
    /// Its code declares nothing the core files could see (see SwiftReading's `CoreReach`):
    /// what type-checking the core says does not depend on it, so a run of many type-checks
    /// may check the core once for all such scenarios.
    package var leavesCoreAlone = false
    /// For the program of a group (listings.md, section 4): its blocks, in the lesson's order;
    /// `code` is then their concatenation. Empty for a scenario that is a program of its own.
    package var parts: [ScenarioPart] = []

    package init(code: String, file: String, firstLine: Int, columnOffsets: [Int],
                 languageMode: LanguageMode? = nil, goal: ScenarioGoal = .run) {
        self.code = code
        self.file = file
        self.firstLine = firstLine
        self.columnOffsets = columnOffsets
        self.languageMode = languageMode
        self.goal = goal
    }

    /// The program of a group's blocks, `code` their concatenation.
    package init(group parts: [ScenarioPart], file: String, languageMode: LanguageMode?) {
        self.init(code: ProgramGroup.concatenation(parts), file: file, firstLine: parts.first?.firstLine ?? 1,
                  columnOffsets: parts.flatMap(\.columnOffsets), languageMode: languageMode, goal: .run)
        self.parts = parts
    }

    /// Whether it is the program of a group.
    package var isGroup: Bool { !parts.isEmpty }

    /// The lesson lines the scenario's code occupies.
    package var lines: Range<Int> { firstLine..<firstLine + max(columnOffsets.count, 1) }

    /// The lesson line of line `line` of its code (1-based; one past the last is the end of the
    /// code), and the bytes before the code there.
    package func lessonPlace(ofCodeLine line: Int) -> (line: Int, columnOffset: Int) {
        guard isGroup, let (part, inPart) = ProgramGroup.place(ofLine: line, in: parts) else {
            let index = line - 1
            return (firstLine + line - 1, index >= 0 && index < columnOffsets.count ? columnOffsets[index] : 0)
        }
        let offsets = parts[part].columnOffsets
        return (parts[part].firstLine + inPart - 1, inPart - 1 < offsets.count ? offsets[inPart - 1] : 0)
    }

    /// Whether a lesson line is one of its code's (or the end of a block's code).
    package func holds(lessonLine line: Int) -> Bool {
        guard isGroup else { return lines.contains(line) || line == lines.upperBound }
        return parts.contains { line >= $0.firstLine && line <= $0.firstLine + max($0.columnOffsets.count, 1) }
    }

    /// The bytes before the code on a lesson line of its code.
    package func columnOffset(atLessonLine line: Int) -> Int {
        for part in isGroup ? parts : [ScenarioPart(code: code, firstLine: firstLine, columnOffsets: columnOffsets)] {
            let index = line - part.firstLine
            if index >= 0, index < part.columnOffsets.count { return part.columnOffsets[index] }
        }
        return 0
    }
}

/// What running a scenario must find out.
package enum ScenarioGoal: String, Sendable, Equatable {
    /// Compile, link and run it: what it prints and how it ends.
    case run
    /// Type-check it alone as `main.swift` and no more (an `errors` scenario): the compiler's
    /// errors. Nothing is linked or run.
    case typeCheck
}

/// Whether a scenario can be compiled inside a function, next to others, or needs a program of
/// its own. Read from the scenario's syntax tree (see SwiftReading); when in doubt, a program of
/// its own: the answer is then slower, never different.
package struct ScenarioShape: Sendable, Equatable {
    /// It must be `main.swift` of a program of its own.
    package var needsOwnProgram: Bool
    /// It declares `@main`: it must be compiled as a library file with no top-level code.
    package var hasMainAttribute: Bool

    /// For a program of its own (a group's, or a scenario's that declares types): how a batch
    /// of such programs can hold it, its type declarations lifted to the top level of a file
    /// of the batch (module `main`, so their names stay `main.Foo`); nil when it must be
    /// compiled alone.
    package var hoisting: ScenarioHoisting?

    package init(needsOwnProgram: Bool, hasMainAttribute: Bool, hoisting: ScenarioHoisting? = nil) {
        self.needsOwnProgram = needsOwnProgram || hasMainAttribute
        self.hasMainAttribute = hasMainAttribute
        self.hoisting = hasMainAttribute ? nil : hoisting
    }

    /// A scenario that a function can hold.
    package static let batchable = ScenarioShape(needsOwnProgram: false, hasMainAttribute: false)
}

/// The type declarations of a scenario (or of a group's concatenation) that a batch lifts to
/// the top level of the scenario's file, the rest of its code staying in the function that
/// runs it: whole lines of its code, each range holding one or more declarations and nothing
/// else, and the names they declare at the top level. Read from the syntax tree (see
/// SwiftReading's `ShapeReading`), which gives one only where every top-level declaration that
/// a function cannot hold is a type (`struct`, `class`, `enum`, `protocol`, `typealias`) or an
/// extension of one of those, and none of them mentions a name the scenario's top-level code
/// declares.
package struct ScenarioHoisting: Sendable, Equatable {
    /// Lines of the code (1-based, both ends included), in order.
    package var lines: [ClosedRange<Int>]
    /// The names the lifted declarations declare at the top level.
    package var names: [String]

    package init(lines: [ClosedRange<Int>], names: [String]) {
        self.lines = lines
        self.names = names
    }
}

/// A scenario to run, and its shape.
package struct ScenarioJob: Sendable {
    package var source: ScenarioSource
    package var shape: ScenarioShape

    package init(source: ScenarioSource, shape: ScenarioShape) {
        self.source = source
        self.shape = shape
    }
}

/// How a child process ended.
package enum Termination: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    package var isSuccess: Bool { self == .exited(0) }

    package var description: String {
        switch self {
        case .exited(let status): return "exit status \(status)"
        case .signaled(let signal): return "signal \(signal) (\(Self.signalName(signal)))"
        }
    }

    package static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: return "SIGILL: a Swift trap"
        case SIGTRAP: return "SIGTRAP: a Swift trap"
        case SIGABRT: return "SIGABRT"
        case SIGSEGV: return "SIGSEGV"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGTERM: return "SIGTERM"
        default: return String(cString: strsignal(signal))
        }
    }
}

/// What running one scenario came to.
package enum ScenarioOutcome: Sendable, Equatable {
    /// It ran to its end with exit status 0; `output` is its standard output.
    case completed(output: String, standardError: String, fromCache: Bool)
    /// It did not compile; the diagnostics point into its lesson. Only a failure whose every
    /// error the compiler placed in the scenario's code, or the linker gave, comes from the
    /// cache (see `ResultCache`).
    case compileFailed([Diagnostic], fromCache: Bool = false)
    /// The core files did not compile, so no scenario could (reported once, on its own).
    case coreFailed
    /// It trapped, crashed or exited with a status other than 0. Only a trap (a signal of
    /// `TrapMessage.signals`), which the same program meets on every run, comes from the cache.
    case crashed(Termination, output: String, standardError: String, fromCache: Bool = false)
    /// An `errors` scenario, type-checked and not run: what the compiler said.
    case typeChecked(TypeCheck, fromCache: Bool)
    /// It ran past the time limit and was killed.
    case timedOut(limit: Duration, output: String, standardError: String)
    /// It printed more than the cap and was killed; `output` is cut at the cap.
    case outputCapped(cap: Int, output: String, standardError: String)
    /// It reached a limit of the sandbox (memory, processes, open files, temporary space) and
    /// was stopped, or (memory) the runtime could not allocate within it.
    case limitReached(ScenarioLimit, output: String, standardError: String)
    /// A block of a group that its program never reached: it stopped (crashed, was stopped)
    /// in the block whose scenario starts at lesson line `stoppedAt`. Never from the runner:
    /// the check gives it to the blocks after that one.
    case notReached(stoppedAt: Int)

    /// The standard output of a scenario that ran to its end.
    package var completedOutput: String? {
        if case let .completed(output, _, _) = self { return output }
        return nil
    }
}

/// How scenarios run.
package struct RunSettings: Sendable, Equatable {
    /// A scenario running longer is killed and reported (`--timeout`).
    package var timeLimit: Duration = .seconds(10)
    /// Standard output beyond this many bytes is cut and reported.
    package var outputCap: Int = 1 << 20
    /// How many compiler jobs and programs may run at once.
    package var parallelism: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// A compiler run longer than this is stopped (`--compile-timeout`).
    package var compileTimeLimit: Duration = .seconds(300)
    /// Whether scenario programs run in the sandbox (`--sandbox`, `--no-sandbox`).
    package var sandbox: SandboxMode = .automatic
    /// The course's language mode (`course.json`), in which batches are compiled; nil for the
    /// compiler's default. A scenario in another mode is a program of its own.
    package var languageMode: LanguageMode?
    /// Folders a scenario must not reach even where the sandbox shows the system: the
    /// course's, the cache's.
    package var hiddenFolders: [String] = []
    /// Where whether the sandbox can start here is remembered (a file), or nil.
    package var sandboxMemo: String?
    /// What a scenario's processes may hold, and the compiler's memory.
    package var limits = ScenarioLimits()

    package init() {}
}

/// What a scenario program may take of the machine (`--memory-limit`, `--process-limit`,
/// `--file-limit`, `--tmp-size`), and the compiler (`--compile-memory-limit`). The defaults
/// fit a CI runner of 2 cores and 4 GiB, where two scenario programs and three compiler jobs
/// run at once.
package struct ScenarioLimits: Sendable, Equatable {
    /// Memory of all of a scenario's processes together (and of each).
    package var memory: Int = 512 << 20
    /// Processes and threads at once.
    package var processes: Int = 256
    /// Open files of one process.
    package var openFiles: Int = 256
    /// The size of `/tmp` and of `/dev/shm`, each; no file grows larger.
    package var temporarySpace: Int = 64 << 20
    /// Memory of one compiler job.
    package var compilerMemory: Int = 1 << 30

    package init() {}

    /// Part of every cache key: a scenario can see its limits (`getrlimit`, how many forks
    /// succeed), so a result under some limits is not one under others. The compiler's limit
    /// changes no output that is kept.
    package var keyPart: String {
        "memory \(memory) processes \(processes) files \(openFiles) space \(temporarySpace)"
    }
}

/// A limit that a scenario reached, with its value, for the finding.
package enum ScenarioLimit: Sendable, Equatable {
    case memory(bytes: Int)
    case processes(count: Int)
    case openFiles(count: Int)
    /// `/tmp` or `/dev/shm` was full.
    case temporarySpace(folder: String, bytes: Int)
}

/// `--sandbox`: where scenario programs run.
package enum SandboxMode: String, Sendable, Equatable, CaseIterable {
    /// In the sandbox when it can start here; else without, said once.
    case automatic = "auto"
    /// In the sandbox, or not at all (for CI).
    case required
    /// Without (`--no-sandbox`): the programs see the machine as the caller does, with a
    /// clean environment.
    case off
}

/// Where a run's programs ran.
package enum SandboxUse: Sendable, Equatable {
    /// Nothing ran (everything came from the cache).
    case notNeeded
    case sandboxed
    /// Without, as asked.
    case off
    /// Without, because the sandbox cannot start here (the reason); `--sandbox auto`.
    case unavailable(String)
    /// Nothing ran: the sandbox is required and cannot start here (the reason).
    case refused(String)
}

/// What a run of scenarios came to, in the order of its jobs.
package struct RunReport: Sendable {
    package var outcomes: [ScenarioOutcome]
    /// How many scenarios were compiled in this run, and how many came from the cache.
    package var compiledCount: Int
    package var cachedCount: Int
    /// How many times `swiftc` ran.
    package var compilerRuns: Int
    /// Findings about the core files, when they do not compile.
    package var diagnostics: [Diagnostic]
    /// Where the programs ran.
    package var sandbox: SandboxUse
    /// Cache entries that were found but not believed, and computed again.
    package var cacheRefusals: Int
    /// How long each job's program ran, in the order of the jobs; nil for one that did not run
    /// (from the cache, not compiled). Empty when not measured.
    package var durations: [Duration?]
    /// What became of a batch compiled before the scenarios' shapes were known.
    package var batchAhead: BatchAheadUse
    /// Why the batch runner (the program that runs a batch's scenarios) could not be compiled,
    /// when it could not: every scenario was then compiled alone, as slowly as one by one.
    package var batchRunnerProblem: String? = nil

    package init(outcomes: [ScenarioOutcome], compiledCount: Int, cachedCount: Int,
                 compilerRuns: Int, diagnostics: [Diagnostic], sandbox: SandboxUse = .notNeeded,
                 cacheRefusals: Int = 0, durations: [Duration?] = [], batchAhead: BatchAheadUse = .none) {
        self.durations = durations
        self.batchAhead = batchAhead
        self.outcomes = outcomes
        self.compiledCount = compiledCount
        self.cachedCount = cachedCount
        self.compilerRuns = compilerRuns
        self.diagnostics = diagnostics
        self.sandbox = sandbox
        self.cacheRefusals = cacheRefusals
    }

    /// Nothing to run.
    package static let empty = RunReport(outcomes: [], compiledCount: 0, cachedCount: 0,
                                         compilerRuns: 0, diagnostics: [])
}

/// A batch compiled while the scenarios' shapes were being read, on a guess of which
/// scenarios it would hold: none was begun, it held exactly those the shapes batch and ran
/// them, or it did not and was dropped (one compile for nothing).
package enum BatchAheadUse: Sendable, Equatable {
    case none, used, dropped
}
