import CourseModel
import Foundation

/// `course.json` as an author wrote it, decoded: the one place its keys and their JSON types
/// are declared. Each value is kept as given, of the wrong type, or absent, so that
/// `CourseSettings` can say which key is wrong, at its line, in the order the keys are read.
struct CourseFile: Decodable {
    /// The keys, in the order messages list them.
    enum Key: String, CodingKey, CaseIterable {
        case title, language, core, description, templates, typography, limitNotes, diagrams,
             languageMode, glossary, labels
    }

    /// A key's value: absent, given (of the type the key takes) or of another type (`null`
    /// included).
    enum Field<Value: Decodable> {
        case absent
        case given(Value)
        case wrongType
    }

    /// `"languageMode"`: a string, as `swift-tools-version` writes it, or a bare number,
    /// which an author would type too and which means the same.
    enum LanguageModeText: Decodable {
        case text(String)

        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) {
                self = .text(String(number))
            } else {
                self = .text(try value.decode(String.self))
            }
        }
    }

    let title: Field<String>
    let language: Field<String>
    let core: Field<[String]>
    let description: Field<String>
    let templates: Field<String>
    let typography: Field<String>
    let limitNotes: Field<String>
    let diagrams: Field<String>
    let languageMode: Field<LanguageModeText>
    let glossary: Field<String>
    let labels: Field<[String: String]>
    /// The top-level keys that are none of `Key`'s, sorted.
    let unknownKeys: [String]

    init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: Key.self)
        func field<Value: Decodable>(_ key: Key) -> Field<Value> {
            guard fields.contains(key) else { return .absent }
            guard let value = try? fields.decode(Value.self, forKey: key) else { return .wrongType }
            return .given(value)
        }
        title = field(.title)
        language = field(.language)
        core = field(.core)
        description = field(.description)
        templates = field(.templates)
        typography = field(.typography)
        limitNotes = field(.limitNotes)
        diagrams = field(.diagrams)
        languageMode = field(.languageMode)
        glossary = field(.glossary)
        labels = field(.labels)
        unknownKeys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            .filter { Key(rawValue: $0) == nil }.sorted()
    }

    /// Any key, to find the ones `Key` does not know.
    private struct AnyKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// The rules `course.json`'s values follow beyond their JSON types (a title is not blank, a
/// language is a BCP 47 tag, a policy is one of its words), checked key by key in the order
/// the settings are read, each failure a message at the key's line.
struct CourseSettings {
    let written: CourseFile
    let data: Data
    let file: String

    init(_ written: CourseFile, data: Data, file: String) {
        self.written = written
        self.data = data
        self.file = file
    }

    func config() throws(CourseReadError) -> CourseConfig {
        let title = try required(.title, written.title)
        let language = try required(.language, written.language)
        guard language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw error(at: .language, "'language' must be a BCP 47 tag such as \"tr\" or \"en-GB\"")
        }
        let core = try core()
        let templates = try optional(.templates, written.templates)
        let typography: Typography = try choice(.typography, written.typography, default: .plain)
        let limitNotes: LimitNotePolicy = try choice(.limitNotes, written.limitNotes, default: .required)
        let diagrams: DiagramPolicy = try choice(.diagrams, written.diagrams, default: .on)
        let languageMode = try languageMode()
        let description = try optional(.description, written.description)
        let glossary = try optional(.glossary, written.glossary)
        return CourseConfig(title: title, language: language, core: core, description: description,
                            templates: templates, typography: typography, limitNotes: limitNotes,
                            diagrams: diagrams, languageMode: languageMode, glossary: glossary,
                            labels: try labels())
    }

    /// No core: scenarios are plain Swift programs (a language book needs none).
    private func core() throws(CourseReadError) -> [String] {
        switch written.core {
        case .absent: return []
        case .given(let paths) where paths.allSatisfy({ !$0.isEmpty }): return paths
        default: throw error(at: .core, "'core' must be a list of paths (relative to the course folder)")
        }
    }

    private func languageMode() throws(CourseReadError) -> LanguageMode? {
        switch written.languageMode {
        case .absent: return nil
        case .given(.text(let text)) where LanguageMode(rawValue: text) != nil: return LanguageMode(rawValue: text)
        default:
            let modes = LanguageMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw error(at: .languageMode, "'languageMode' is \(modes) (the Swift language mode scenarios are compiled in: -swift-version N)")
        }
    }

    private func labels() throws(CourseReadError) -> [String: String] {
        switch written.labels {
        case .absent: return [:]
        case .given(let texts) where texts.values.allSatisfy({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }): return texts
        default:
            throw error(at: .labels, "'labels' must be an object of lesson files and what each page is (\"08-ozet.md\": \"Özet\"), every label a non-empty string")
        }
    }

    /// A string that must be there and not blank.
    private func required(_ key: CourseFile.Key, _ field: CourseFile.Field<String>) throws(CourseReadError) -> String {
        guard let text = try optional(key, field) else {
            throw CourseReadError("missing '\(key.rawValue)'", file: file, line: 1)
        }
        return text
    }

    /// A string that may be left out, and is not blank when given.
    private func optional(_ key: CourseFile.Key, _ field: CourseFile.Field<String>) throws(CourseReadError) -> String? {
        switch field {
        case .absent: return nil
        case .given(let text) where !text.trimmingCharacters(in: .whitespaces).isEmpty: return text
        default: throw error(at: key, "'\(key.rawValue)' must be a non-empty string")
        }
    }

    /// One of a setting's words (`"plain"` or `"smart"`), or its default when left out.
    private func choice<Setting: RawRepresentable & CaseIterable>(
        _ key: CourseFile.Key, _ field: CourseFile.Field<String>, default fallback: Setting
    ) throws(CourseReadError) -> Setting where Setting.RawValue == String {
        guard let value = try optional(key, field) else { return fallback }
        guard let chosen = Setting(rawValue: value) else {
            let words = Setting.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw error(at: key, "'\(key.rawValue)' is \(words), not \"\(value)\"")
        }
        return chosen
    }

    private func error(at key: CourseFile.Key, _ message: String) -> CourseReadError {
        CourseReadError(message, file: file, line: CourseConfigReader.line(of: key.rawValue, in: data))
    }
}
