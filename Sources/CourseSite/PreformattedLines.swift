import CourseModel
import Foundation
import HTMLText

/// Preformatted text as the pages show it: one element a line, so that a wrapped line hangs
/// under its own indent; carets under the columns of a refused scenario's errors; a list
/// breaking after its commas.
extension LessonBody {
    /// An output, one element per line, so that a line too long for the page wraps under a
    /// hanging indent deeper than the line's own leading spaces: a continuation never looks like
    /// a line of its own. The newline stays inside each line, so the text copies as printed.
    static func outputLines(_ text: String) -> String {
        // A list such as `atlanan A,B,C` may break after a comma rather than inside a name.
        return lines(breakingAfterCommas(escapeHTML(text)), droppingFinalNewline: false)
    }

    /// `html` with `<wbr>` after every comma, as `replacingOccurrences(of: ",", with: ",<wbr>")`
    /// makes it, done on the bytes (Foundation's search took a twentieth of an unchanged
    /// build). Foundation leaves a comma alone when a combining mark follows it (the two are
    /// one character), so a text in which a comma is followed by anything but an ASCII byte
    /// is handed to Foundation.
    static func breakingAfterCommas(_ html: String) -> String {
        var html = html
        let comma = UInt8(ascii: ","), wordBreak = Array("<wbr>".utf8)
        let done: String?? = html.withUTF8 { bytes in
            var commas = 0
            for index in bytes.indices where bytes[index] == comma {
                if index + 1 < bytes.count, bytes[index + 1] >= 0x80 { return .some(nil) }
                commas += 1
            }
            guard commas > 0 else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + commas * wordBreak.count)
            for byte in bytes {
                result.append(byte)
                if byte == comma { result += wordBreak }
            }
            return .some(String(decoding: result, as: UTF8.self))
        }
        switch done {
        case .none: return html
        case .some(.some(let broken)): return broken
        case .some(.none): return html.replacingOccurrences(of: ",", with: ",<wbr>")
        }
    }

    /// HTML of preformatted text (escaped text, highlighting spans) as one `<span class="line">`
    /// per line, with `--lead` its leading spaces, so that a wrapped line hangs (an output
    /// always, code when printed). A span that runs over a line end (a comment of many lines)
    /// is closed at the end of each line and opened again on the next. A code block's final
    /// newline is dropped, as a `<pre>` would not show it.
    ///
    /// `marking` marks rows (0 for the first) where the compiler found an error: the row is
    /// set apart and followed by a row of carets under the errors' columns (each given as the
    /// text before it, tabs kept), hidden from assistive technology, which reads the messages
    /// instead, and from copying; a row one past the last stands for the end of the code.
    static func lines(_ html: String, droppingFinalNewline: Bool = true, marking: [Int: [String]] = [:]) -> String {
        // Every byte that matters here is ASCII (a line end, `<`, `>`, a space), so the work is
        // done on UTF-8 bytes: a core listing of a few hundred lines on every page of a large
        // course made the character-by-character version most of a build's time.
        let bytes = Array(html.utf8)
        var rows: [Range<Int>] = []
        var rowStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            rows.append(rowStart..<index)
            rowStart = index + 1
        }
        rows.append(rowStart..<bytes.count)
        if droppingFinalNewline, rows.count > 1, rows.last?.isEmpty == true { rows.removeLast() }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + rows.count * 32)
        var open: [ArraySlice<UInt8>] = []
        func starts(_ tag: ArraySlice<UInt8>, with text: StaticString) -> Bool {
            let prefix = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            return tag.count >= prefix.count && tag.prefix(prefix.count).elementsEqual(prefix)
        }
        let lastMarked = marking.keys.max() ?? -1
        // The last element holds no line end: the last row, or the caret row after it.
        let endsWithCarets = lastMarked >= rows.count - 1
        for (index, row) in rows.enumerated() {
            var lead = 0, inTag = false
            for byte in bytes[row] {
                if byte == UInt8(ascii: "<") { inTag = true } else if byte == UInt8(ascii: ">") { inTag = false; continue }
                if inTag { continue }
                if byte == UInt8(ascii: " ") { lead += 1 } else { break }
            }
            let kind = marking[index] == nil ? "line" : "line error-line"
            result += Array((lead == 0 ? "<span class=\"\(kind)\">" : "<span class=\"\(kind)\" style=\"--lead:\(lead)\">").utf8)
            for tag in open { result += tag }
            result += bytes[row]
            // Which tags are open at the end of the row (only spans and the like, no void tags).
            var cursor = row.lowerBound
            while let start = bytes[cursor..<row.upperBound].firstIndex(of: UInt8(ascii: "<")),
                  let end = bytes[start..<row.upperBound].firstIndex(of: UInt8(ascii: ">")) {
                let tag = bytes[start...end]
                if starts(tag, with: "</") {
                    if !open.isEmpty { open.removeLast() }
                } else if !starts(tag, with: "<wbr") && !starts(tag, with: "<br") && !tag.suffix(2).elementsEqual("/>".utf8) {
                    open.append(tag)
                }
                cursor = end + 1
            }
            for _ in open { result += Array("</span>".utf8) }
            result += Array((index == rows.count - 1 && !endsWithCarets ? "</span>" : "\n</span>").utf8)
            if let columns = marking[index] { result += caretRow(columns, last: index == rows.count - 1 && lastMarked == index) }
        }
        // An error at the end of the code (a `}` missing) stands after its last line.
        for index in rows.count...max(rows.count, lastMarked) {
            if let columns = marking[index] { result += caretRow(columns, last: true) }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The row of carets under a marked row's errors (each column given as the text before it).
    private static func caretRow(_ columns: [String], last: Bool) -> [UInt8] {
        var row = ""
        var width = 0
        for before in columns.sorted(by: { $0.count < $1.count }) where before.count >= width || width == 0 {
            if row.isEmpty { row = before } else { row += String(repeating: " ", count: max(0, before.count - width)) }
            row += "^"
            width = before.count + 1
        }
        return Array("<span class=\"line caret\" aria-hidden=\"true\">\(escapeHTML(row))\(last ? "" : "\n")</span>".utf8)
    }

    /// The text before an error's column on its line of the code, every character but a tab
    /// made a space: what puts a caret under the column (the compiler counts bytes).
    static func characterColumn(_ error: CompilerError, in code: String) -> String {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        guard error.line >= 1, error.line <= lines.count else { return "" }
        let before = Array(lines[error.line - 1].utf8).prefix(max(0, error.column - 1))
        return String(String(decoding: before, as: UTF8.self).map { $0 == "\t" ? "\t" : " " })
    }
}
