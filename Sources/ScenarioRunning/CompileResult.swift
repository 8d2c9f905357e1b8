import CourseModel
import Processes

/// What a `swiftc` run said.
package struct CompileResult: Sendable {
    package var termination: Termination
    package var diagnostics: [CompilerDiagnostic]
    /// Everything it printed, for the cases that name no file (a failed link).
    package var transcript: String
    /// For a link that failed after a replayed plan: the files that decided it (see
    /// `LinkInput`); empty otherwise, and then a linker's failure is not kept.
    package var linkInputs: [LinkInput] = []
    /// A batch that could not be compiled because its runner could not (see
    /// `SwiftCompiler.runnerObject`): no scenario of it is to blame, and each goes alone.
    package var runnerMissing = false

    package var succeeded: Bool { termination.isSuccess }
}

/// A file or folder a link read, by its path and its stamp (size and time) when the link ran:
/// the linker itself, the objects and libraries it was given, the folders it searched for
/// `-l` libraries (a folder's time changes when a library in it is added, removed or replaced
/// by a package manager's rename). The same program fails the same link while they are equal.
package struct LinkInput: Sendable, Codable, Equatable {
    package var path: String
    package var stamp: String

    package init(path: String, stamp: String) {
        self.path = path
        self.stamp = stamp
    }

    /// The inputs of the linker's command `command` (as kept in the plans: the compile's own
    /// objects marked, and left out, since the program's text and compiler decide them).
    static func of(_ command: LinkerCommand) -> [LinkInput] {
        var paths: [String] = []
        for word in command.words where !word.contains(LinkerCommand.folderMark) && word != LinkerCommand.outputMark {
            let path = word.hasPrefix("-L") ? String(word.dropFirst(2)) : word
            if path.hasPrefix("/"), !paths.contains(path) { paths.append(path) }
        }
        return paths.map(now)
    }

    /// `path` as it stands now.
    package static func now(_ path: String) -> LinkInput {
        LinkInput(path: path, stamp: SwiftCompiler.fileStamp(path))
    }
}

extension SwiftCompiler {
    /// What a compile said, from how its command ended and what it printed.
    ///
    /// - Parameter deduplicating: keep a diagnostic once that several frontend jobs reported
    ///   (each job parses every file); one job's own are kept as it gave them.
    func result(_ ran: Ran, timeLimit: Duration?, deduplicating: Bool = true) -> CompileResult {
        if ran.outOfMemory, let confinement {
            let message = "the compiler used more than \(confinement.memory >> 20) MiB of memory and was stopped (--compile-memory-limit raises the limit)"
            return CompileResult(termination: ran.termination,
                                 diagnostics: [CompilerDiagnostic(file: nil, line: 0, column: 0, severity: "error", message: message)],
                                 transcript: message)
        }
        if ran.timedOut, let timeLimit {
            let message = "the compiler ran longer than \(seconds(timeLimit)) and was stopped (--compile-timeout sets the limit)"
            return CompileResult(termination: ran.termination,
                                 diagnostics: [CompilerDiagnostic(file: nil, line: 0, column: 0, severity: "error", message: message)],
                                 transcript: message)
        }
        let transcript = String(decoding: ran.standardError + ran.standardOutput, as: UTF8.self)
        return CompileResult(termination: ran.termination,
                             diagnostics: CompilerDiagnostic.parse(transcript, deduplicating: deduplicating),
                             transcript: transcript)
    }
}
