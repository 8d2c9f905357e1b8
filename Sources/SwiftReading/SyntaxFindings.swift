internal import SwiftDiagnostics
internal import SwiftParser
internal import SwiftParserDiagnostics
internal import SwiftSyntax

/// A place in a Swift block that does not parse, with the parser's message. Lines and columns
/// count from 1 inside the block's code (columns in UTF-8 bytes).
package struct SyntaxProblem: Sendable, Equatable {
    package var line: Int
    package var column: Int
    package var message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// What the toolchain's parser cannot read in a block: illustrations (`swift` blocks) are never
/// run, but they must be Swift.
enum SyntaxFindings {
    /// At most this many findings per block: after the first few, the rest are echoes.
    static let perBlock = 3

    /// What does not parse, the editor placeholders' doing aside (`EditorPlaceholder.explains`):
    /// an illustration may hold `<#name#>` where the reader fills code in.
    static func of(_ tree: SourceFileSyntax) -> [SyntaxProblem] {
        // Most blocks parse cleanly; the diagnostics generator runs only for those that do not.
        guard tree.hasError else { return [] }
        var found = ParseDiagnosticsGenerator.diagnostics(for: tree)
        let placeholders = EditorPlaceholder.ranges(in: tree.syntaxTextBytes)
        if !placeholders.isEmpty {
            let tokens = EditorPlaceholder.tokenRanges(tree)
            found.removeAll { EditorPlaceholder.explains($0, placeholders: placeholders, tokens: tokens) }
        }
        let converter = SourceLocationConverter(fileName: "", tree: tree)
        return found.prefix(perBlock).map { diagnostic in
            let place = diagnostic.location(converter: converter)
            return SyntaxProblem(line: place.line, column: place.column, message: diagnostic.message)
        }
    }
}
