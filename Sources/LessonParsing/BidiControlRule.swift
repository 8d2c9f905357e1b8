import CourseModel

/// Bidirectional controls (`BidiControl`) where a reviewer reads them: a warning at each line
/// of a lesson or a core file that holds one, at its column, naming every one on the line. An
/// embedding, override or isolate is warned about anywhere (code or prose); a mark (U+200E,
/// U+200F, U+061C), which prose in a right-to-left language needs, only inside a code block and
/// in a core file. The page shows each as a marked token (CourseSite's `BidiTokens`).
package enum BidiControlRule {
    /// The findings of a lesson: its code blocks are where marks count too.
    package static func findings(in lesson: Lesson) -> [Diagnostic] {
        guard lesson.source.bytes.withUnsafeBufferPointer(BidiControl.mayOccur(inUTF8:)) else { return [] }
        let text = String(decoding: lesson.source.bytes, as: UTF8.self)
        func block(at line: Int) -> CodeBlock? {
            lesson.codeBlocks.first { block in
                let last = block.firstCodeLine + block.codeLineCount - (block.fence == nil ? 1 : 0)
                return (block.line...max(block.line, last)).contains(line)
            }
        }
        return lines(of: BidiControl.occurrences(in: text)).compactMap { line, found in
            let code = block(at: line)
            let counted = code == nil ? found.filter { BidiControl.isFormatting($0.scalar) } : found
            guard let first = counted.first else { return nil }
            return finding(counted.map(\.scalar), in: code.map(place) ?? "the prose",
                           code: code != nil, at: lesson.location(line: line, column: first.column))
        }
    }

    /// The findings of a core file: all of it is code.
    package static func findings(inCoreFile text: String, path: String) -> [Diagnostic] {
        lines(of: BidiControl.occurrences(in: text)).map { line, found in
            finding(found.map(\.scalar), in: "a core file", code: true,
                    at: SourceLocation(file: path, line: line, column: found[0].column))
        }
    }

    static func lines(of occurrences: [(line: Int, column: Int, scalar: Unicode.Scalar)])
        -> [(line: Int, found: [(line: Int, column: Int, scalar: Unicode.Scalar)])] {
        var grouped: [(line: Int, found: [(line: Int, column: Int, scalar: Unicode.Scalar)])] = []
        for occurrence in occurrences {
            if grouped.last?.line == occurrence.line {
                grouped[grouped.count - 1].found.append(occurrence)
            } else {
                grouped.append((occurrence.line, [occurrence]))
            }
        }
        return grouped
    }

    static func place(_ block: CodeBlock) -> String {
        switch block.role {
        case .scenario, .skippedScenario: return "a scenario"
        case .illustration: return "an illustration"
        case .output: return "an 'output' block"
        case .errors: return "an 'errors' block"
        case .trap: return "a 'trap' block"
        case .coreListing: return "a core listing"
        case .moduleListing: return "a module block"
        case .other: return "a code block"
        }
    }

    static func finding(_ scalars: [Unicode.Scalar], in place: String, code: Bool, at location: SourceLocation) -> Diagnostic {
        var names: [String] = []
        for scalar in scalars where !names.contains(BidiControl.describe(scalar)) { names.append(BidiControl.describe(scalar)) }
        let one = names.count == 1
        let reorders = (one ? "reorders" : "reorder") + " how the line shows"
            + (code ? ", so that it reads otherwise than the compiler reads it" : "") + " (Trojan Source)"
        let fix = code
            ? "remove \(one ? "it" : "them"), or write \(one ? "it" : "each") as an escape such as \\u{\(String(scalars[0].value, radix: 16, uppercase: true))} in a string"
            : "remove \(one ? "it" : "them")"
        return .warning(.bidiControl, "\(names.joined(separator: ", ")) in \(place) \(reorders); \(fix); the page shows \(one ? "it" : "each") as a marked token",
                        at: location)
    }
}
