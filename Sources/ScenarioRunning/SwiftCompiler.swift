import CourseFiles
import CourseModel
import Foundation

/// The `swiftc` that compiles scenarios, and what it said about a compile.
package struct SwiftCompiler: Sendable {
    package var executable: String
    /// The first line of `swiftc --version`: part of every cache key, shown on the site.
    package var version: String
    /// The Swift runtime's libraries, which the programs it makes load (the sandbox shows them).
    package var runtimeFolder: String?

    package init(executable: String, version: String, runtimeFolder: String? = nil) {
        self.executable = executable
        self.version = version
        self.runtimeFolder = runtimeFolder
    }

    package struct Unavailable: Error, CustomStringConvertible {
        package var description: String
    }

    /// `swiftc` from `COURSEBOOK_SWIFTC` when set, else from `PATH`. Its version is remembered
    /// in `versionCache` (a file) by the compiler's path, size and modification time, so that
    /// a check with nothing to compile starts no compiler at all.
    package static func locate(versionCache: String?) throws(Unavailable) -> SwiftCompiler {
        let environment = ProcessInfo.processInfo.environment
        let requested = environment["COURSEBOOK_SWIFTC"].flatMap { $0.isEmpty ? nil : $0 } ?? "swiftc"
        guard let path = findOnPath(requested) else {
            throw Unavailable(description: "cannot find '\(requested)' on PATH: scenarios need the Swift toolchain (set COURSEBOOK_SWIFTC to choose a compiler)")
        }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let frontend = URL(fileURLWithPath: resolved).deletingLastPathComponent()
            .appendingPathComponent("swift-frontend").path
        let stamp = [path, resolved, frontend].map(fileStamp).joined(separator: "\n")

        if let versionCache, let remembered = try? String(contentsOfFile: versionCache, encoding: .utf8) {
            let lines = remembered.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count == 5, lines[0..<3].joined(separator: "\n") == stamp {
                return SwiftCompiler(executable: path, version: String(lines[3]),
                                     runtimeFolder: lines[4].isEmpty ? nil : String(lines[4]))
            }
        }
        // The version line and where the runtime lives, in one run.
        var watcher = CollectingWatcher(timeLimit: .seconds(60))
        let termination: Termination
        do {
            termination = try ChildProcess(executable: path, arguments: ["-print-target-info"]).run(watching: &watcher)
        } catch {
            throw Unavailable(description: error.description)
        }
        let info = (try? JSONSerialization.jsonObject(with: Data(watcher.standardOutput))) as? [String: Any]
        let version = (info?["compilerVersion"] as? String)?.split(separator: "\n").first.map(String.init) ?? ""
        let runtime = ((info?["paths"] as? [String: Any])?["runtimeLibraryPaths"] as? [String])?.first
        guard termination.isSuccess, !version.isEmpty else {
            throw Unavailable(description: "'\(path) -print-target-info' failed (\(termination))")
        }
        if let versionCache {
            try? FileManager.default.createDirectory(
                atPath: (versionCache as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try? writeAtomically(Array("\(stamp)\n\(version)\n\(runtime ?? "")".utf8), to: versionCache,
                                 keepingPermissions: false)
        }
        return SwiftCompiler(executable: path, version: version, runtimeFolder: runtime)
    }

    private static func fileStamp(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path) -" }
        return "\(path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Compiles `sources` (paths) into the executable `output`, `jobs` frontend jobs at a
    /// time. (Batch mode would group files into fewer jobs, but this toolchain's driver then
    /// looks for object files under other names than it wrote, and the link fails.)
    package func compile(sources: [String], output: String, workingDirectory: String,
                         jobs: Int, parseAsLibrary: Bool = false, timeLimit: Duration? = nil) -> CompileResult {
        var arguments = ["-module-name", ScenarioProgram.moduleName, "-Onone", "-suppress-warnings",
                         "-diagnostic-style=llvm", "-j\(max(jobs, 1))", "-o", output]
        if parseAsLibrary { arguments.append("-parse-as-library") }
        arguments += sources
        var watcher = CollectingWatcher(timeLimit: timeLimit)
        let termination: Termination
        do {
            termination = try ChildProcess(executable: executable, arguments: arguments,
                                           workingDirectory: workingDirectory).run(watching: &watcher)
        } catch {
            return CompileResult(termination: .exited(127), diagnostics: [], transcript: error.description)
        }
        if watcher.timedOut, let timeLimit {
            let message = "the compiler ran longer than \(seconds(timeLimit)) and was stopped (--compile-timeout sets the limit)"
            return CompileResult(termination: termination,
                                 diagnostics: [CompilerDiagnostic(file: nil, line: 0, column: 0, severity: "error", message: message)],
                                 transcript: message)
        }
        let transcript = String(decoding: watcher.standardError + watcher.standardOutput, as: UTF8.self)
        return CompileResult(termination: termination,
                             diagnostics: CompilerDiagnostic.parse(transcript),
                             transcript: transcript)
    }
}

/// What a `swiftc` run said.
package struct CompileResult: Sendable {
    package var termination: Termination
    package var diagnostics: [CompilerDiagnostic]
    /// Everything it printed, for the cases that name no file (a failed link).
    package var transcript: String

    package var succeeded: Bool { termination.isSuccess }
}

/// One `file:line:column: severity: message` line of the compiler, with the notes under it.
package struct CompilerDiagnostic: Sendable, Equatable {
    package var file: String?
    package var line: Int
    package var column: Int
    package var severity: String
    package var message: String
    package var notes: [CompilerDiagnostic] = []

    /// Reads the compiler's diagnostics in the LLVM style; notes attach to the error or warning
    /// above them, source excerpts and carets are dropped (the checker prints its own). A
    /// diagnostic that several frontend jobs reported (each job parses every file, so a parse
    /// error comes once per job) is kept once.
    package static func parse(_ transcript: String) -> [CompilerDiagnostic] {
        var found: [CompilerDiagnostic] = []
        for line in transcript.split(separator: "\n") {
            guard let diagnostic = parseLine(line) else { continue }
            if diagnostic.severity == "note", !found.isEmpty {
                found[found.count - 1].notes.append(diagnostic)
            } else {
                found.append(diagnostic)
            }
        }
        var seen: [CompilerDiagnostic] = []
        for diagnostic in found where !seen.contains(diagnostic) { seen.append(diagnostic) }
        return seen
    }

    static func parseLine(_ line: Substring) -> CompilerDiagnostic? {
        for severity in ["error", "warning", "note"] {
            let marker = ": \(severity): "
            guard let markerRange = line.range(of: marker) else {
                if line.hasPrefix("\(severity): ") {
                    return CompilerDiagnostic(file: nil, line: 0, column: 0, severity: severity,
                                              message: String(line.dropFirst(severity.count + 2)))
                }
                continue
            }
            let message = String(line[markerRange.upperBound...])
            let place = line[..<markerRange.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            if place.count >= 3, let lineNumber = Int(place[place.count - 2]),
               let column = Int(place[place.count - 1]) {
                return CompilerDiagnostic(file: place.dropLast(2).joined(separator: ":"),
                                          line: lineNumber, column: column,
                                          severity: severity, message: message)
            }
            if place.count == 1, place[0] == "<unknown>" || place[0].hasSuffix("swift-frontend") || place[0].hasSuffix("swiftc") {
                return CompilerDiagnostic(file: nil, line: 0, column: 0, severity: severity, message: message)
            }
        }
        return nil
    }
}
