/// Text made safe inside HTML, in an element or an attribute value: `&`, `<`, `>`, `"` and
/// `'` as entities. Most text holds none of them and is returned as it is.
package func escapeHTML(_ text: String) -> String {
    let needsEscaping = text.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.contains { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        }
    } ?? true
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
