import Foundation

/// One `file:line:column: severity: message` line of the compiler, with the notes under it.
package struct CompilerDiagnostic: Sendable, Equatable {
    package var file: String?
    package var line: Int
    package var column: Int
    package var severity: String
    package var message: String
    package var notes: [CompilerDiagnostic] = []
    /// Said by the linker, not the compiler.
    package var fromLinker = false
    /// What the linker put before its words (GNU gold: `scenarios-0-1.o:scenarios-0-1.o:function
    /// $s4main...`), and the lines under them that say where (lld: `>>> referenced by ...`,
    /// one a line): the objects and functions it was linking, which a batch reads to blame
    /// its members (`LinkBlame`).
    package var linkerPlace = ""

    /// The driver's and `clang`'s words for a link that failed ("link command failed with exit
    /// code 1 (use -v to see invocation)"), which say nothing the linker's own lines do not.
    package var isLinkSummary: Bool {
        file == nil && !fromLinker && (message.hasPrefix("link command failed") || message.hasPrefix("linker command failed"))
    }

    /// Reads the compiler's diagnostics in the LLVM style; notes attach to the error or warning
    /// above them, source excerpts and carets are dropped (the checker prints its own). A
    /// diagnostic that several frontend jobs reported (each job parses every file, so a parse
    /// error comes once per job) is kept once.
    package static func parse(_ transcript: String, deduplicating: Bool = true) -> [CompilerDiagnostic] {
        var found: [CompilerDiagnostic] = []
        for line in transcript.split(separator: "\n") {
            if line.hasPrefix(">>> "), let last = found.indices.last, found[last].fromLinker {
                found[last].linkerPlace += "\n" + line
                continue
            }
            guard let diagnostic = parseLine(line) else { continue }
            if diagnostic.severity == "note", !found.isEmpty {
                found[found.count - 1].notes.append(diagnostic)
            } else {
                found.append(diagnostic)
            }
        }
        guard deduplicating else { return found }
        var seen: [CompilerDiagnostic] = []
        for diagnostic in found where !seen.contains(diagnostic) { seen.append(diagnostic) }
        return seen
    }

    /// A message without the diagnostic group the compiler names after it since Swift 6.2
    /// (`overlapping accesses to 'v' ... [#ExclusivityViolation]`): the group is how the
    /// compiler files the message, not what it says, and older compilers, and every book, say the
    /// message alone.
    package static func withoutGroup(_ message: String) -> String {
        guard message.hasSuffix("]"), let open = message.range(of: " [#", options: .backwards) else { return message }
        let name = message[open.upperBound..<message.index(before: message.endIndex)]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return message }
        return withoutGroup(String(message[..<open.lowerBound]))
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
            let message = CompilerDiagnostic.withoutGroup(String(line[markerRange.upperBound...]))
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
            // The linker's own words (`main-1.o:main-1.o:function main: error: undefined
            // reference to 'round'`, `ld.lld: error: undefined symbol: round`): what an author
            // can act on, where the driver only says that the link failed.
            let tool = (String(place[0]) as NSString).lastPathComponent
            if severity == "error", tool.hasPrefix("ld") || place[0].hasSuffix(".o") || place.last?.hasPrefix("function ") == true {
                return CompilerDiagnostic(file: nil, line: 0, column: 0, severity: severity, message: message, fromLinker: true,
                                          linkerPlace: place.joined(separator: ":"))
            }
        }
        return nil
    }
}
