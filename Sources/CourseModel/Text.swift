import Foundation

/// CRLF and lone CR line ends as LF: lessons with CRLF compare as if they had LF.
package func normalizingLineEnds(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
    return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
}

/// The text without one final newline: outputs and listings compare so.
package func trimmingFinalNewline(_ text: String) -> Substring {
    text.hasSuffix("\n") ? text.dropLast() : Substring(text)
}

/// Text made safe inside HTML, in an element or an attribute value: `&`, `<`, `>`, `"` and
/// `'` as entities. Most text holds none of them and is returned as it is.
package func escapeHTML(_ text: String) -> String {
    let needsEscaping = text.utf8.contains { byte in
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
    guard needsEscaping else { return text }
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count + 16)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "&"): result.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): result.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): result.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\""): result.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'"): result.append(contentsOf: "&#39;".utf8)
        default: result.append(byte)
        }
    }
    return String(decoding: result, as: UTF8.self)
}
