import CourseModel
import Foundation

/// Reads `course.json`, strictly: every key known, every value of its type, so that a typo is
/// an error at its line rather than a setting silently ignored.
package enum CourseConfigReader {
    private static let knownKeys = ["title", "language", "core", "description", "templates", "typography", "limitNotes", "diagrams", "languageMode", "glossary", "labels"]

    package static func read(_ bytes: [UInt8], file: String) throws(CourseReadError) -> CourseConfig {
        let data = Data(bytes)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            let place = jsonErrorPlace(detail, in: bytes)
            var reason = detail
            if let range = detail.range(of: " around character") { reason = String(detail[..<range.lowerBound]) }
            if reason.hasSuffix(".") { reason.removeLast() }
            throw CourseReadError("not valid JSON" + (reason.isEmpty ? "" : ": \(reason.lowercased())"),
                                  file: file, line: place?.line, column: place?.column ?? 1)
        }
        guard let fields = object as? [String: Any] else {
            throw CourseReadError("course.json must hold one object: { \"title\": ..., \"language\": ..., \"core\": [...] }", file: file, line: 1)
        }
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
        for key in fields.keys.sorted() where !knownKeys.contains(key) {
            throw CourseReadError("unknown key '\(key)' (known: \(knownKeys.joined(separator: ", ")))",
                                  file: file, line: line(of: key, in: data))
        }
        func string(_ key: String) throws(CourseReadError) -> String {
            guard let value = fields[key] else {
                throw CourseReadError("missing '\(key)'", file: file, line: 1)
            }
            guard let text = value as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CourseReadError("'\(key)' must be a non-empty string", file: file, line: line(of: key, in: data))
            }
            return text
        }
        let title = try string("title")
        let language = try string("language")
        guard language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw CourseReadError("'language' must be a BCP 47 tag such as \"tr\" or \"en-GB\"", file: file, line: line(of: "language", in: data))
        }
        // No core: scenarios are plain Swift programs (a language book needs none).
        var core: [String] = []
        if let coreValue = fields["core"] {
            guard let paths = coreValue as? [String], paths.allSatisfy({ !$0.isEmpty }) else {
                throw CourseReadError("'core' must be a list of paths (relative to the course folder)", file: file, line: line(of: "core", in: data))
            }
            core = paths
        }
        var templates: String?
        if fields["templates"] != nil { templates = try string("templates") }
        var typography = Typography.plain
        if fields["typography"] != nil {
            let value = try string("typography")
            guard let chosen = Typography(rawValue: value) else {
                throw CourseReadError("'typography' is \"plain\" or \"smart\", not \"\(value)\"",
                                      file: file, line: line(of: "typography", in: data))
            }
            typography = chosen
        }
        var limitNotes = LimitNotePolicy.required
        if fields["limitNotes"] != nil {
            let value = try string("limitNotes")
            guard let chosen = LimitNotePolicy(rawValue: value) else {
                throw CourseReadError("'limitNotes' is \"required\" or \"optional\", not \"\(value)\"",
                                      file: file, line: line(of: "limitNotes", in: data))
            }
            limitNotes = chosen
        }
        var diagrams = DiagramPolicy.on
        if fields["diagrams"] != nil {
            let value = try string("diagrams")
            guard let chosen = DiagramPolicy(rawValue: value) else {
                throw CourseReadError("'diagrams' is \"on\" or \"off\", not \"\(value)\"",
                                      file: file, line: line(of: "diagrams", in: data))
            }
            diagrams = chosen
        }
        var languageMode: LanguageMode?
        if let value = fields["languageMode"] {
            // A string, as `swift-tools-version` and `swiftLanguageModes` write it; a bare number
            // is what an author would type too, and means the same.
            let text = (value as? String) ?? (value as? Int).map(String.init)
            guard let text, let chosen = LanguageMode(rawValue: text) else {
                throw CourseReadError("'languageMode' is \(LanguageMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")) (the Swift language mode scenarios are compiled in: -swift-version N)",
                                      file: file, line: line(of: "languageMode", in: data))
            }
            languageMode = chosen
        }
        var description: String?
        if fields["description"] != nil { description = try string("description") }
        var glossary: String?
        if fields["glossary"] != nil { glossary = try string("glossary") }
        var labels: [String: String] = [:]
        if let value = fields["labels"] {
            guard let table = value as? [String: Any], let texts = table as? [String: String],
                  texts.values.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
                throw CourseReadError("'labels' must be an object of lesson files and what each page is (\"08-ozet.md\": \"Özet\"), every label a non-empty string",
                                      file: file, line: line(of: "labels", in: data))
            }
            labels = texts
        }
        return CourseConfig(title: title, language: language, core: core, description: description,
                            templates: templates, typography: typography, limitNotes: limitNotes,
                            diagrams: diagrams, languageMode: languageMode, glossary: glossary, labels: labels)
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
