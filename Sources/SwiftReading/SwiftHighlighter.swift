internal import HTMLText
internal import SwiftIDEUtils
internal import SwiftParser
internal import SwiftSyntax
internal import CourseModel

/// Swift code as HTML with the toolchain's own syntax classification: each token kind a
/// reader tells apart (keywords, types, strings, comments, numbers, attributes, directives) in
/// a `<span class="tok-...">`; everything escaped. An editor placeholder (`<#name#>`) is a
/// token of its own, `<span class="tok-placeholder">` holding the name Xcode shows, wherever it
/// stands (the classification may split it, or call it a type). No highlighter runs in the
/// browser.
enum SwiftHighlighter {
    static func html(_ tree: SourceFileSyntax, code: String) -> String {
        let bytes = Array(code.utf8)
        let placeholders = EditorPlaceholder.ranges(in: bytes)
        var next = 0
        var html = ""
        html.reserveCapacity(bytes.count * 2)
        var cursor = 0
        func text(_ range: Range<Int>) -> String {
            escapeHTML(String(decoding: bytes[range], as: UTF8.self))
        }
        func write(_ range: Range<Int>, _ name: String?) {
            if let name {
                html += "<span class=\"tok-\(name)\">\(text(range))</span>"
            } else {
                html += text(range)
            }
        }
        // A piece of code in its class, the placeholders in it written as their tokens (each
        // once: one may run over two pieces).
        func emit(_ range: Range<Int>, _ name: String?) {
            var start = range.lowerBound
            while start < range.upperBound {
                while next < placeholders.count, placeholders[next].upperBound <= start { next += 1 }
                guard next < placeholders.count, placeholders[next].lowerBound < range.upperBound else {
                    write(start..<range.upperBound, name)
                    return
                }
                let placeholder = placeholders[next]
                if placeholder.lowerBound >= start {
                    if placeholder.lowerBound > start { write(start..<placeholder.lowerBound, name) }
                    let shown = EditorPlaceholder.name(String(decoding: bytes[placeholder], as: UTF8.self))
                    html += "<span class=\"tok-placeholder\">\(escapeHTML(shown))</span>"
                }
                start = placeholder.upperBound
            }
        }
        for classified in tree.classifications {
            let start = min(max(classified.range.lowerBound.utf8Offset, cursor), bytes.count)
            let end = min(classified.range.upperBound.utf8Offset, bytes.count)
            guard end > start else { continue }
            if start > cursor { emit(cursor..<start, nil) }
            emit(start..<end, cssClass(classified.kind))
            cursor = end
        }
        if cursor < bytes.count { emit(cursor..<bytes.count, nil) }
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

