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

    /// How many of a block's errors the diagnostics generator is shown (see `of`).
    static let sample = 64

    /// What does not parse, the editor placeholders' doing aside (`EditorPlaceholder.explains`):
    /// an illustration may hold `<#name#>` where the reader fills code in, and `...` where
    /// code is left out (`Elision.explains`).
    static func of(_ tree: SourceFileSyntax, code: String) -> [SyntaxProblem] {
        // Most blocks parse cleanly; the diagnostics generator runs only for those that do not.
        guard tree.hasError else { return [] }
        // The generator's time grows with the square of the number of errors (each one it adds
        // is checked against all it has: 20,000 stray `@` take minutes). Only the first few
        // are shown, so a block with many is judged on its start, up to its `sample`-th error:
        // the same first errors, at the same places.
        var judged = tree
        if let end = ErrorCounter.end(ofError: sample, in: tree), end < code.utf8.count {
            judged = Parser.parse(source: String(decoding: code.utf8.prefix(end), as: UTF8.self))
        }
        var found = ParseDiagnosticsGenerator.diagnostics(for: judged)
        found.removeAll(where: Elision.explains)
        let placeholders = EditorPlaceholder.ranges(in: judged.syntaxTextBytes)
        if !placeholders.isEmpty {
            let tokens = EditorPlaceholder.tokenRanges(judged)
            found.removeAll { EditorPlaceholder.explains($0, placeholders: placeholders, tokens: tokens) }
        }
        let converter = SourceLocationConverter(fileName: "", tree: judged)
        return found.prefix(perBlock).map { diagnostic in
            let place = diagnostic.location(converter: converter)
            return SyntaxProblem(line: place.line, column: place.column, message: diagnostic.message)
        }
    }
}

/// Finds where a tree's `count`-th error ends: a missing token or a run of unexpected code.
private final class ErrorCounter: SyntaxAnyVisitor {
    private let count: Int
    private var seen = 0
    private(set) var end: Int?

    private init(count: Int) {
        self.count = count
        super.init(viewMode: .all)
    }

    static func end(ofError count: Int, in tree: SourceFileSyntax) -> Int? {
        let counter = ErrorCounter(count: count)
        counter.walk(tree)
        return counter.end
    }

    private func found(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        seen += 1
        if seen >= count, end == nil { end = node.endPosition.utf8Offset }
        return .skipChildren
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind { found(node) }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if token.presence == .missing { return found(token) }
        return .skipChildren
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        // Past the error that ends the sample, and below nodes without errors, nothing more.
        end != nil || !node.hasError ? .skipChildren : .visitChildren
    }
}
