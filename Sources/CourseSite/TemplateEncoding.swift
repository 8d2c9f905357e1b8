import BackgroundWork

/// Template contexts, the `Encodable` values a page template is rendered with, turned into the
/// template's values (`TemplateRecord`), and into the schema a template is checked against.
///
/// A context's stored properties are its names (the synthesized `CodingKeys`), and their
/// Swift types are their kinds: `String` and `Int` are text, `Bool` a yes/no value,
/// `RenderedHTML` HTML, an array a list of records, any other `Encodable` value a record. A
/// context has no optional property: every name it has is given a value when the context is
/// made, so no placeholder a template was checked to use can render as nothing by omission.
///
/// The schema is the shape of a context's sample value (`TemplateSchema(shapeOf:)`): the names
/// and kinds of what the sample encodes to, each list's items read from its first item. A
/// sample therefore has one item in each of its lists.
enum TemplateEncoding {
    /// The values `context` gives a template.
    static func record(_ context: some Encodable) -> TemplateRecord {
        guard case .record(let record) = value(context, at: []) else {
            preconditionFailure("a template context is a record of names, not \(type(of: context))")
        }
        return record
    }

    /// One value of a context, at `path` (for the message of a context the templates cannot use).
    static func value<Value: Encodable>(_ value: Value, at path: [any CodingKey]) -> TemplateValue {
        switch value {
        case let text as String: return .text(text)
        case let flag as Bool: return .bool(flag)
        case let number as Int: return .text(String(number))
        case let ready as any TemplateValueEncodable: return ready.templateValue
        default:
            let slot = EncodedSlot()
            do {
                try value.encode(to: TemplateValueEncoder(slot: slot, codingPath: path))
            } catch {
                preconditionFailure("\(describe(path)): \(error)")
            }
            guard let encoded = slot.value else { preconditionFailure("\(describe(path)) encodes to nothing") }
            return encoded
        }
    }

    static func describe(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "a template context" : "the template context's '\(path.map(\.stringValue).joined(separator: "."))'"
    }
}

/// A value that is a template's value as it is: HTML, and what was encoded ahead of the pages.
protocol TemplateValueEncodable: Encodable {
    var templateValue: TemplateValue { get }
}

extension TemplateValueEncodable {
    /// Only a template's encoder can take it (each conformance's `encode(to:)` calls this).
    func encodeAsIs(to encoder: any Encoder) throws {
        guard let encoder = encoder as? TemplateValueEncoder else {
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath,
                                                         debugDescription: "a template's value, for templates only"))
        }
        encoder.slot.set(templateValue, at: encoder.codingPath)
    }
}

/// HTML the tool rendered itself, inserted into a page as it is: made already, or made when the
/// template reaches it (`DeferredHTML`).
struct RenderedHTML: TemplateValueEncodable, Sendable {
    let templateValue: TemplateValue

    init(_ html: String) {
        templateValue = .html(html)
    }

    init(_ html: DeferredHTML) {
        templateValue = .deferred(html)
    }

    func encode(to encoder: any Encoder) throws { try encodeAsIs(to: encoder) }
}

/// A list encoded once for every page that shows it, each item keeping what the templates'
/// `{{#each}}` blocks render of it (`TemplateRecord.keepingRenderings(by:)`): the navigation,
/// which every page shows and in which all but one entry are the same on each.
struct KeptList<Item: Encodable & Sendable>: TemplateValueEncodable, Sendable {
    private var records: [TemplateRecord]

    init(_ items: [Item], keepingRenderingsBy templates: [Template]) {
        records = items.concurrentMap { TemplateEncoding.record($0).keepingRenderings(by: templates) }
    }

    /// The list with item `index` replaced (and rendered afresh on its page).
    func replacing(_ index: Int, with item: Item) -> KeptList {
        var list = self
        list.records[index] = TemplateEncoding.record(item)
        return list
    }

    var templateValue: TemplateValue { .list(records) }

    func encode(to encoder: any Encoder) throws { try encodeAsIs(to: encoder) }
}

/// A value encoded once for every page that shows it as it is (the words of the site).
struct EncodedOnce<Value: Encodable>: TemplateValueEncodable, Sendable {
    let templateValue: TemplateValue

    init(_ value: Value) {
        templateValue = TemplateEncoding.value(value, at: [])
    }

    func encode(to encoder: any Encoder) throws { try encodeAsIs(to: encoder) }
}

/// Where an encoded value is put: a record's names and values as they come, a list's items, or
/// one value.
final class EncodedSlot {
    private enum Held {
        case nothing, value(TemplateValue), list([TemplateRecord])
        case record(names: [String], values: [TemplateValue])
    }

    private var held = Held.nothing

    var value: TemplateValue? {
        switch held {
        case .nothing: nil
        case .value(let value): value
        case .list(let items): .list(items)
        case .record(let names, let values): .record(TemplateRecord(names: names, values: values))
        }
    }

    func set(_ value: TemplateValue, at path: [any CodingKey]) {
        guard case .nothing = held else { preconditionFailure("\(TemplateEncoding.describe(path)) is encoded twice") }
        held = .value(value)
    }

    /// Adds a name to the record the slot holds: a context may encode its names in several
    /// steps (a page's own names after the names every page has).
    func add(_ name: String, _ value: TemplateValue, at path: [any CodingKey]) {
        var names: [String], values: [TemplateValue]
        switch held {
        case .nothing: (names, values) = ([], [])
        case .record(let heldNames, let heldValues): (names, values) = (heldNames, heldValues)
        default: preconditionFailure("\(TemplateEncoding.describe(path)) is both a record and not one")
        }
        held = .nothing
        guard !names.contains(name) else {
            preconditionFailure("\(TemplateEncoding.describe(path)) has the name '\(name)' twice")
        }
        names.append(name)
        values.append(value)
        held = .record(names: names, values: values)
    }

    func append(_ item: TemplateValue, at path: [any CodingKey]) {
        guard case .record(let record) = item else {
            preconditionFailure("\(TemplateEncoding.describe(path)) is a list of what is not a record; a template's lists hold records")
        }
        var items: [TemplateRecord]
        switch held {
        case .nothing: items = []
        case .list(let heldItems): items = heldItems
        default: preconditionFailure("\(TemplateEncoding.describe(path)) is both a list and not one")
        }
        held = .nothing
        items.append(record)
        held = .list(items)
    }

    func startList(at path: [any CodingKey]) {
        if case .nothing = held { held = .list([]) }
    }
}

/// The `Encoder` of a template context: records, lists and the leaves a template knows.
struct TemplateValueEncoder: Encoder {
    let slot: EncodedSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordContainer(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.startList(at: codingPath)
        return ListContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        LeafContainer(slot: slot, codingPath: codingPath)
    }
}

private struct RecordContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: EncodedSlot
    let codingPath: [any CodingKey]

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        slot.add(key.stringValue, TemplateEncoding.value(value, at: codingPath + [key]), at: codingPath)
    }

    mutating func encodeNil(forKey key: Key) throws { noOptionals(key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { noOptionals(key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        guard let value else { noOptionals(key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        guard let value else { noOptionals(key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        guard let value else { noOptionals(key) }
        try encode(value, forKey: key)
    }

    private func noOptionals(_ key: Key) -> Never {
        preconditionFailure("\(TemplateEncoding.describe(codingPath + [key])) is absent: a template context has a value for every name")
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("\(TemplateEncoding.describe(codingPath + [key])): a template context encodes its records as values")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("\(TemplateEncoding.describe(codingPath + [key])): a template context encodes its lists as values")
    }

    mutating func superEncoder() -> any Encoder { TemplateValueEncoder(slot: slot, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { TemplateValueEncoder(slot: slot, codingPath: codingPath) }
}

private struct ListContainer: UnkeyedEncodingContainer {
    let slot: EncodedSlot
    let codingPath: [any CodingKey]
    private(set) var count = 0

    init(slot: EncodedSlot, codingPath: [any CodingKey]) {
        self.slot = slot
        self.codingPath = codingPath
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.append(TemplateEncoding.value(value, at: codingPath + [ItemKey(count)]), at: codingPath)
        count += 1
    }

    mutating func encodeNil() throws {
        preconditionFailure("\(TemplateEncoding.describe(codingPath)) holds an absent item: a template's lists hold records")
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("\(TemplateEncoding.describe(codingPath)): a template context encodes its list items as values")
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("\(TemplateEncoding.describe(codingPath)): a template's lists hold records, not lists")
    }

    mutating func superEncoder() -> any Encoder { TemplateValueEncoder(slot: slot, codingPath: codingPath) }
}

/// A leaf encoded on its own (a type that encodes itself as one value): text, a number as
/// text, or a yes/no value.
private struct LeafContainer: SingleValueEncodingContainer {
    let slot: EncodedSlot
    let codingPath: [any CodingKey]

    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.set(TemplateEncoding.value(value, at: codingPath), at: codingPath)
    }

    mutating func encode(_ value: String) throws { slot.set(.text(value), at: codingPath) }
    mutating func encode(_ value: Bool) throws { slot.set(.bool(value), at: codingPath) }
    mutating func encode(_ value: Int) throws { slot.set(.text(String(value)), at: codingPath) }

    mutating func encodeNil() throws {
        preconditionFailure("\(TemplateEncoding.describe(codingPath)) is absent: a template context has a value for every name")
    }
}

private struct ItemKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

extension TemplateSchema {
    /// The names and kinds of what `sample` encodes to: a template context's schema, read from
    /// a value of it that has one item in each of its lists.
    init(shapeOf sample: some Encodable) {
        self = Self.shape(of: TemplateEncoding.record(sample), at: "")
    }

    private static func shape(of record: TemplateRecord, at path: String) -> TemplateSchema {
        var fields: [String: Kind] = [:]
        for (name, value) in record.entries {
            let here = path.isEmpty ? name : "\(path).\(name)"
            switch value {
            case .text: fields[name] = .text
            case .html, .deferred: fields[name] = .html
            case .bool: fields[name] = .bool
            case .record(let inner): fields[name] = .record(shape(of: inner, at: here))
            case .list(let items):
                guard let first = items.first else {
                    preconditionFailure("the sample of a template context has no item in its list '\(here)': its items' names cannot be read")
                }
                fields[name] = .list(shape(of: first, at: here))
            }
        }
        return TemplateSchema(fields)
    }
}
