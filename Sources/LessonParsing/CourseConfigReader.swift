import CourseModel
import Foundation

/// Reads `course.json`, strictly: every key known, every value of its type, so that a typo is
/// an error at its line rather than a setting silently ignored. The keys and their types are
/// declared once, in `CourseFile`; the messages name the key and its line.
package enum CourseConfigReader {
    /// The keys `course.json` may hold, in the order messages list them.
    package static var knownKeys: [String] { CourseFile.Key.allCases.map(\.rawValue) }

    package static func read(_ bytes: [UInt8], file: String) throws(CourseReadError) -> CourseConfig {
        let data = Data(bytes)
        try checkSyntax(data, bytes: bytes, file: file)
        // JSON keeps the last of two equal keys without a word: a setting written twice is
        // an error at the second.
        var seen: [String: Int] = [:]
        for (key, line) in topLevelKeys(bytes) {
            if let first = seen[key] {
                throw CourseReadError("key '\(key)' is given twice (first at line \(first)); keep one",
                                      file: file, line: line)
            }
            seen[key] = line
        }
        let written: CourseFile
        do {
            written = try JSONDecoder().decode(CourseFile.self, from: data)
        } catch {
            throw CourseReadError("course.json must hold one object: { \"title\": ..., \"language\": ..., \"core\": [...] }", file: file, line: 1)
        }
        if let unknown = written.unknownKeys.first {
            throw CourseReadError("unknown key '\(unknown)' (known: \(knownKeys.joined(separator: ", ")))",
                                  file: file, line: line(of: unknown, in: data))
        }
        return try CourseSettings(written, data: data, file: file).config()
    }

    /// JSONDecoder says only "not valid JSON"; JSONSerialization says what and where, which
    /// the message turns into a line and a column. Its value is not used: `CourseFile` is.
    private static func checkSyntax(_ data: Data, bytes: [UInt8], file: String) throws(CourseReadError) {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            let place = jsonErrorPlace(detail, in: bytes)
            var reason = detail
            if let range = detail.range(of: " around character") { reason = String(detail[..<range.lowerBound]) }
            if reason.hasSuffix(".") { reason.removeLast() }
            throw CourseReadError("not valid JSON" + (reason.isEmpty ? "" : ": \(reason.lowercased())"),
                                  file: file, line: place?.line, column: place?.column ?? 1)
        }
    }

    /// The line where `"text"` appears in the file (the first time, or the given time), for
    /// messages about a key or a value.
    package static func line(of text: String, in data: Data, occurrence: Int = 1) -> Int? {
        let source = String(decoding: data, as: UTF8.self)
        var searched = source[...]
        var found: Range<String.Index>?
        for _ in 0..<max(occurrence, 1) {
            guard let range = searched.range(of: "\"\(text)\"") else { return found.map { line(at: $0.lowerBound, in: source) } }
            found = range
            searched = source[range.upperBound...]
        }
        return found.map { line(at: $0.lowerBound, in: source) }
    }

    private static func line(at index: String.Index, in source: String) -> Int {
        source[..<index].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    }

    /// The keys of the top-level object of valid JSON, in order, each with its line.
    static func topLevelKeys(_ bytes: [UInt8]) -> [(key: String, line: Int)] {
        var keys: [(key: String, line: Int)] = []
        var depth = 0
        var line = 1
        var index = 0
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            case UInt8(ascii: "\""):
                let start = index, startLine = line
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                if expectingKey, index < bytes.count,
                   let key = try? JSONSerialization.jsonObject(with: Data(bytes[start...index]), options: .fragmentsAllowed) as? String {
                    keys.append((key, startLine))
                }
                expectingKey = false
            default:
                break
            }
            index += 1
        }
        return keys
    }

    /// Foundation names the place of a JSON error as `around character N` (a byte offset):
    /// turned here into the line and column an editor shows.
    private static func jsonErrorPlace(_ detail: String, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        guard let range = detail.range(of: "character "),
              let offset = Int(detail[range.upperBound...].prefix { $0.isNumber }) else { return nil }
        var line = 1, column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}
