internal import BackgroundWork
internal import CourseFiles
internal import CourseModel
internal import HTMLText

/// A reading as the store keeps it, without its HTML (kept apart): a few lines of text.
enum ReadingCoding {
    static func encode(_ reading: SwiftBlockReading) -> [UInt8] {
        var text = "shape \(reading.needsOwnProgram ? 1 : 0) \(reading.hasMainAttribute ? 1 : 0)\n"
        if let unread = reading.unread { text += "unread " + encode(unread: unread) + "\n" }
        if !reading.declaredNames.isEmpty { text += "names \(reading.declaredNames.joined(separator: " "))\n" }
        if let hoisting = reading.hoisting { text += encode(hoisting: hoisting) + "\n" }
        for problem in reading.problems {
            text += "problem \(problem.line) \(problem.column) \(TreeCoding.escaped(problem.message))\n"
        }
        text += TreeCoding.encode(reading.trees)
        return Array(text.utf8)
    }

    /// A hoisting on one line: `hoist`, its line ranges (`3-7,10-12`, or `-` for none) and the
    /// names it declares.
    static func encode(hoisting: ScenarioHoisting) -> String {
        let lines = hoisting.lines.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
        return (["hoist", lines.isEmpty ? "-" : lines] + hoisting.names).joined(separator: " ")
    }

    static func decodeHoisting(_ line: Substring) -> ScenarioHoisting? {
        let words = line.split(separator: " ")
        guard words.count >= 2, words[0] == "hoist" else { return nil }
        var lines: [ClosedRange<Int>] = []
        if words[1] != "-" {
            for range in words[1].split(separator: ",") {
                let ends = range.split(separator: "-")
                guard ends.count == 2, let first = Int(ends[0]), let last = Int(ends[1]), first <= last else { return nil }
                lines.append(first...last)
            }
        }
        return ScenarioHoisting(lines: lines, names: words.dropFirst(2).map(String.init))
    }

    /// Why a block was not read, on one line: its line, its column and the reason.
    static func encode(unread: SwiftBlockReading.Unread) -> String {
        "\(unread.line) \(unread.column) \(TreeCoding.escaped(unread.reason))"
    }

    static func decodeUnread(_ bytes: [UInt8]) -> SwiftBlockReading.Unread? {
        let words = String(decoding: bytes, as: UTF8.self).split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard words.count == 3, let line = Int(words[0]), let column = Int(words[1]) else { return nil }
        return SwiftBlockReading.Unread(line: line, column: column, reason: TreeCoding.unescaped(words[2]))
    }

    /// A reading as the reading process hands it over: its stored form's length (4 bytes,
    /// little-endian), that form, then the HTML when it was asked for.
    static func encodeAnswer(_ reading: SwiftBlockReading, withHTML: Bool) -> [UInt8] {
        let facts = encode(reading)
        let count = UInt32(facts.count)
        var answer = (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) } + facts
        if withHTML { answer += Array((reading.highlighted ?? "").utf8) }
        return answer
    }

    static func decodeAnswer(_ answer: [UInt8], withHTML: Bool) -> SwiftBlockReading? {
        guard answer.count >= 4 else { return nil }
        let count = (0..<4).reduce(0) { $0 | Int(answer[$1]) << (8 * $1) }
        guard answer.count >= 4 + count, var reading = decode(Array(answer[4..<(4 + count)])) else { return nil }
        if withHTML { reading.highlighted = String(decoding: answer[(4 + count)...], as: UTF8.self) }
        return reading
    }

    /// A stored reading read back. Most are ASCII without a carriage return, where every byte
    /// is a character of its own: those are read on their bytes, lines and fields found by
    /// their separator bytes (a warm check reads thousands). Any other is read on characters,
    /// as it always was; both ways give the same answer.
    static func decode(_ payload: [UInt8]) -> SwiftBlockReading? {
        guard payload.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) else { return decode(text: payload) }
        return payload.withUnsafeBufferPointer { decode(ascii: $0) }
    }

    static func decode(ascii bytes: UnsafeBufferPointer<UInt8>) -> SwiftBlockReading? {
        let space = UInt8(ascii: " ")
        var shape: (own: Bool, main: Bool)?
        var problems: [SyntaxProblem] = []
        var names: [String] = []
        var unread: SwiftBlockReading.Unread?
        var hoisting: ScenarioHoisting?
        var trees = TreeCoding.Decoder()
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start..<bytes.count].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            if let understood = trees.take(TreeCoding.fields(ascii: line)) {
                guard understood else { return nil }
                continue
            }
            let words = TreeCoding.split(line, at: space, maxSplits: 3)
            func word(_ index: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[words[index]]) }
            func text(_ index: Int) -> String { String(decoding: word(index), as: UTF8.self) }
            switch text(0) {
            case "shape":
                guard words.count == 3 else { return nil }
                shape = (word(1).elementsEqual("1".utf8), word(2).elementsEqual("1".utf8))
            case "names":
                names = TreeCoding.split(line, at: space, maxSplits: .max).dropFirst().filter { !$0.isEmpty }
                    .map { String(decoding: UnsafeBufferPointer(rebasing: line[$0]), as: UTF8.self) }
            case "problem":
                guard words.count == 4, let number = Int(text(1)), let column = Int(text(2)) else { return nil }
                problems.append(SyntaxProblem(line: number, column: column, message: TreeCoding.unescaped(ascii: word(3))))
            case "unread":
                guard let why = decodeUnread(Array(line.dropFirst("unread ".utf8.count))) else { return nil }
                unread = why
            case "hoist":
                guard let read = decodeHoisting(Substring(String(decoding: line, as: UTF8.self))) else { return nil }
                hoisting = read
            default:
                return nil
            }
        }
        guard let shape, let trees = trees.finish() else { return nil }
        var reading = SwiftBlockReading(problems: problems, needsOwnProgram: shape.own, hasMainAttribute: shape.main,
                                        declaredNames: names, highlighted: nil, trees: trees, unread: unread)
        reading.hoisting = hoisting
        return reading
    }

    /// `decode` on characters, for a reading that is not all ASCII.
    static func decode(text payload: [UInt8]) -> SwiftBlockReading? {
        let text = String(decoding: payload, as: UTF8.self)
        var shape: (own: Bool, main: Bool)?
        var problems: [SyntaxProblem] = []
        var names: [String] = []
        var unread: SwiftBlockReading.Unread?
        var hoisting: ScenarioHoisting?
        var trees = TreeCoding.Decoder()
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let end = rest.firstIndex(of: "\n") else { return nil }
            let line = rest[..<end]
            rest = rest[rest.index(after: end)...]
            if let understood = trees.take(line) {
                guard understood else { return nil }
                continue
            }
            let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            switch words.first {
            case "shape":
                guard words.count == 3 else { return nil }
                shape = (words[1] == "1", words[2] == "1")
            case "names":
                names = line.split(separator: " ").dropFirst().map(String.init)
            case "problem":
                guard words.count == 4, let line = Int(words[1]), let column = Int(words[2]) else { return nil }
                problems.append(SyntaxProblem(line: line, column: column, message: TreeCoding.unescaped(words[3])))
            case "unread":
                guard let why = decodeUnread(Array(line.dropFirst("unread ".count).utf8)) else { return nil }
                unread = why
            case "hoist":
                guard let read = decodeHoisting(line) else { return nil }
                hoisting = read
            default:
                return nil
            }
        }
        guard let shape, let trees = trees.finish() else { return nil }
        var reading = SwiftBlockReading(problems: problems, needsOwnProgram: shape.own, hasMainAttribute: shape.main,
                                        declaredNames: names, highlighted: nil, trees: trees, unread: unread)
        reading.hoisting = hoisting
        return reading
    }
}

struct CodeKey: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (lhs: CodeKey, rhs: CodeKey) -> Bool { sameBytes(Substring(lhs.text), Substring(rhs.text)) }
}

/// The view trees of a reading as the store keeps them: one line per tree, view, storage
/// entry and tree not written out, fields apart by tabs, each field escaped.
enum TreeCoding {
    static func encode(_ trees: ScenarioTrees) -> String {
        var text = ""
        for tree in trees.written {
            text += line("tree", String(tree.line), tree.binding.map { "=" + $0 } ?? "-")
            for view in tree.views {
                text += line(["view", view.name, view.parent.map { "=" + $0 } ?? "-"] + view.reads)
            }
            for entry in tree.storage {
                switch entry.storage {
                case .state(let owner): text += line("store", "state", entry.key, owner)
                case .model(let object): text += line("store", "model", entry.key, object)
                case .environment: text += line("store", "environment", entry.key, "")
                }
            }
        }
        for tree in trees.unwritten { text += line("unwritten", String(tree.line), tree.reason) }
        return text
    }

    private static func line(_ fields: String...) -> String { line(fields) }

    private static func line(_ fields: [String]) -> String {
        fields.map(escaped).joined(separator: "\t") + "\n"
    }

    /// A field on one line: backslashes, line ends and tabs written as `\\`, `\n` and `\t`
    /// (also a syntax problem's message in a block's reading).
    static func escaped(_ field: String) -> String {
        var result = ""
        for character in field {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }

    /// `unescaped` of an ASCII field, on its bytes.
    static func unescaped(ascii field: UnsafeBufferPointer<UInt8>) -> String {
        let backslash = UInt8(ascii: "\\")
        guard field.contains(backslash) else { return String(decoding: field, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(field.count)
        var escaping = false
        for byte in field {
            if escaping {
                result.append(byte == UInt8(ascii: "n") ? UInt8(ascii: "\n") : byte == UInt8(ascii: "t") ? UInt8(ascii: "\t") : byte)
                escaping = false
            } else if byte == backslash {
                escaping = true
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The places of the parts of `line` between `separator` bytes, empty ones kept, the last
    /// holding the rest after `maxSplits` separators (as `split(separator:maxSplits:
    /// omittingEmptySubsequences: false)` cuts a line of ASCII characters).
    static func split(_ line: UnsafeBufferPointer<UInt8>, at separator: UInt8, maxSplits: Int) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = 0
        while parts.count < maxSplits, let end = line[start..<line.count].firstIndex(of: separator) {
            parts.append(start..<end)
            start = end + 1
        }
        parts.append(start..<line.count)
        return parts
    }

    /// The fields of a line of ASCII characters, unescaped.
    static func fields(ascii line: UnsafeBufferPointer<UInt8>) -> [String] {
        split(line, at: UInt8(ascii: "\t"), maxSplits: .max).map { unescaped(ascii: UnsafeBufferPointer(rebasing: line[$0])) }
    }

    static func unescaped(_ field: Substring) -> String {
        var result = ""
        var escaping = false
        for character in field {
            if escaping {
                result.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Reads the lines back, one at a time, among the reading's other lines.
    struct Decoder {
        private var trees = ScenarioTrees()
        private var broken = false

        /// nil for a line that is not about trees; whether it was understood otherwise.
        mutating func take(_ line: Substring) -> Bool? {
            take(line.split(separator: "\t", omittingEmptySubsequences: false).map(TreeCoding.unescaped))
        }

        /// `take` of a line's fields, unescaped.
        mutating func take(_ fields: [String]) -> Bool? {
            switch fields.first {
            case "tree":
                guard fields.count == 3, let number = Int(fields[1]), let binding = Self.optional(fields[2]) else { return fail() }
                trees.written.append(WrittenTree(binding: binding, line: number, views: [], storage: []))
            case "view":
                guard fields.count >= 3, !trees.written.isEmpty, let parent = Self.optional(fields[2]) else { return fail() }
                trees.written[trees.written.count - 1].views.append(WrittenView(fields[1], parent: parent, reads: Array(fields[3...])))
            case "store":
                guard fields.count == 4, !trees.written.isEmpty else { return fail() }
                let storage: KeyStorage
                switch fields[1] {
                case "state": storage = .state(owner: fields[3])
                case "model": storage = .model(object: fields[3])
                case "environment": storage = .environment
                default: return fail()
                }
                trees.written[trees.written.count - 1].storage.append((fields[2], storage))
            case "unwritten":
                guard fields.count == 3, let number = Int(fields[1]) else { return fail() }
                trees.unwritten.append(UnwrittenTree(line: number, reason: fields[2]))
            default:
                return nil
            }
            return true
        }

        private mutating func fail() -> Bool {
            broken = true
            return false
        }

        /// `=name` → name, `-` → nil (a field that is neither is not understood).
        private static func optional(_ field: String) -> String?? {
            if field == "-" { return .some(nil) }
            guard field.hasPrefix("=") else { return nil }
            return .some(String(field.dropFirst()))
        }

        func finish() -> ScenarioTrees? { broken ? nil : trees }
    }
}
