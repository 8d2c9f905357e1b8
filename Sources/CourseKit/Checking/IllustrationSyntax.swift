import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// Illustrations (`swift` blocks) are never run, but they must be Swift: the toolchain's own
/// parser reads each one, and what it cannot parse is a finding at the lesson line and column.
package enum IllustrationSyntax {
    /// At most this many findings per block: after the first few, the rest are echoes.
    static let findingsPerBlock = 3

    package static func check(_ block: CodeBlock, in lesson: Lesson) -> [Diagnostic] {
        let tree = Parser.parse(source: block.code)
        let found = ParseDiagnosticsGenerator.diagnostics(for: tree)
        guard !found.isEmpty else { return [] }
        let converter = SourceLocationConverter(fileName: lesson.path, tree: tree)
        return found.prefix(findingsPerBlock).map { diagnostic in
            let place = diagnostic.location(converter: converter)
            let (line, column) = block.lessonPosition(codeLine: place.line, codeColumn: place.column)
            return .warning("illustration-syntax",
                            "illustration is not valid Swift: \(diagnostic.message)",
                            at: lesson.location(line: line, column: column))
        }
    }
}
