internal import CourseModel
internal import HTMLText
internal import SwiftDiagnostics
internal import SwiftParserDiagnostics
internal import SwiftSyntax

/// Xcode's editor placeholders, `<#name#>` and `<#T##label##Type#>`: the parts of a listing
/// a reader fills in. Swift lexes one as a single token (and the compiler refuses it, "editor
/// placeholder in source file"); a book shows them in illustrations (`init(<#parameters#>) {`),
/// which must read as Swift all the same, and Xcode draws each as a rounded token with its name.
enum EditorPlaceholder {
    /// The byte ranges of the placeholders in `code`, found as Swift's lexer finds them: `<#`,
    /// then the nearest `#>` on the same line with no `<#` between. Found in string literals and
    /// comments too, where Xcode draws them as well.
    static func ranges(in code: [UInt8]) -> [Range<Int>] {
        let open = UInt8(ascii: "<"), hash = UInt8(ascii: "#"), close = UInt8(ascii: ">")
        var found: [Range<Int>] = []
        var index = 0
        search: while index + 1 < code.count {
            guard code[index] == open, code[index + 1] == hash else { index += 1; continue }
            var end = index + 2
            while end + 1 < code.count {
                let byte = code[end]
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
                if byte == open, code[end + 1] == hash { break }
                if byte == hash, code[end + 1] == close {
                    found.append(index..<end + 2)
                    index = end + 2
                    continue search
                }
                end += 1
            }
            index = end
        }
        return found
    }

    /// What Xcode shows of a placeholder (its text with `<#` and `#>`): a typed one,
    /// `T##label##Type` (`##Type` may be left out, or followed by `##` and another type), its
    /// label; any other, its text.
    static func name(_ placeholder: some StringProtocol) -> String { PlaceholderText.name(placeholder) }

    /// The parser's messages that a placeholder itself stands behind.
    private static let ownMessages: Set<MessageID> = [
        StaticTokenError.editorPlaceholder.diagnosticID,
        StaticParserError.editorPlaceholderInSourceFile.diagnosticID,
    ]

    /// Whether a parse diagnostic is the placeholders' doing rather than the author's: the
    /// compiler's refusal of a placeholder, or code the parser expected or did not expect right
    /// where a placeholder stands for more than one token can say (`init(<#parameters#>)`,
    /// where a parameter needs a `:` and a type; `<#parameter name#>: <#type#>` alone on a
    /// line). The diagnostic's node holds a placeholder, or the token just before or after
    /// where it points is one.
    static func explains(_ diagnostic: SwiftDiagnostics.Diagnostic, placeholders: [Range<Int>], tokens: [Range<Int>]) -> Bool {
        if ownMessages.contains(diagnostic.diagnosticID) { return true }
        func touches(_ range: Range<Int>) -> Bool {
            placeholders.contains { $0.overlaps(range) || (range.isEmpty && $0.contains(range.lowerBound)) }
        }
        let node = diagnostic.node
        if touches(node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset) {
            return true
        }
        let position = diagnostic.position.utf8Offset
        // The present tokens, in order: the last that ends at or before the position, the
        // first that ends after it.
        var low = 0, high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle].upperBound <= position { low = middle + 1 } else { high = middle }
        }
        if low > 0, touches(tokens[low - 1]) { return true }
        return low < tokens.count && touches(tokens[low])
    }

    /// The byte ranges of a tree's present tokens, trivia aside, in order.
    static func tokenRanges(_ tree: SourceFileSyntax) -> [Range<Int>] {
        tree.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard token.presence == .present else { return nil }
            let start = token.positionAfterSkippingLeadingTrivia.utf8Offset
            return start..<max(start, token.endPositionBeforeTrailingTrivia.utf8Offset)
        }
    }
}
