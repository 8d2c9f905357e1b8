internal import SwiftIDEUtils
internal import SwiftParser
internal import SwiftSyntax
internal import CourseModel

/// Swift code as HTML with the toolchain's own syntax classification: each token kind a
/// reader tells apart (keywords, types, strings, comments, numbers, attributes, directives) in
/// a `<span class="tok-...">`; everything escaped. No highlighter runs in the browser.
enum SwiftHighlighter {
    static func html(_ tree: SourceFileSyntax, code: String) -> String {
        let bytes = Array(code.utf8)
        var html = ""
        html.reserveCapacity(bytes.count * 2)
        var cursor = 0
        func text(_ range: Range<Int>) -> String {
            escapeHTML(String(decoding: bytes[range], as: UTF8.self))
        }
        for classified in tree.classifications {
            let start = min(max(classified.range.lowerBound.utf8Offset, cursor), bytes.count)
            let end = min(classified.range.upperBound.utf8Offset, bytes.count)
            guard end > start else { continue }
            if start > cursor { html += text(cursor..<start) }
            if let name = cssClass(classified.kind) {
                html += "<span class=\"tok-\(name)\">\(text(start..<end))</span>"
            } else {
                html += text(start..<end)
            }
            cursor = end
        }
        if cursor < bytes.count { html += text(cursor..<bytes.count) }
        return html
    }

    static func cssClass(_ kind: SyntaxClassification) -> String? {
        switch kind {
        case .keyword: return "keyword"
        case .type: return "type"
        case .stringLiteral, .regexLiteral: return "string"
        case .lineComment, .blockComment, .docLineComment, .docBlockComment: return "comment"
        case .integerLiteral, .floatLiteral: return "number"
        case .attribute: return "attribute"
        case .ifConfigDirective: return "directive"
        default: return nil
        }
    }
}

