import Foundation

/// A JSON value as the Language Server Protocol sends it: messages are read and written through
/// Foundation's `JSONDecoder` and `JSONEncoder` as this one type, and each handler takes what it
/// needs from it. The protocol is small; a typed struct per message would say no more.
package enum JSONValue: Sendable, Equatable, Codable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
                        ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
                        ExpressibleByNilLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
    package init(nilLiteral: ()) { self = .null }

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    package var string: String? { if case .string(let value) = self { value } else { nil } }
    package var int: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value == value.rounded() && abs(value) < 1e15: Int(value)
        default: nil
        }
    }
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    package var isObject: Bool { if case .object = self { true } else { false } }

    /// The value as message bytes: keys sorted, slashes as they are.
    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A JSONValue holds nothing an encoder can refuse (no NaN: the server makes none).
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// A message body, or nil when it is not JSON.
    package static func decoded(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }
}
