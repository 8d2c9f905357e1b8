internal import CourseFiles
package import CourseModel
internal import SwiftParser
internal import SwiftSyntax

/// What reading one Swift block taught: what does not parse, its shape as a scenario, and its
/// highlighted HTML (nil when it was not asked for and not known).
package struct SwiftBlockReading: Sendable, Equatable {
    package var problems: [SyntaxProblem]
    package var needsOwnProgram: Bool
    package var hasMainAttribute: Bool
    /// The names a scenario declares at its top level (see `ShapeReading`).
    package var declaredNames: [String]
    package var highlighted: String?
    /// The view trees it builds, as written (see `ViewTreeReading`).
    package var trees: ScenarioTrees = .none
}

/// Reads the Swift blocks of a course with the toolchain's parser, each distinct block text at
/// most once per command and not at all when the content-addressed store already knows it: a
/// parse yields the block's syntax problems, its shape as a scenario and its highlighted HTML
/// together, and all three are kept.
///
/// This is the only module that sees swift-syntax: it is built with library evolution and
/// imports it `internal`, so no other target can.
package struct SwiftBlockReader: Sendable {
    /// How much a caller needs to know of a block.
    package enum Need: Int, Sendable, Comparable {
        /// Shape and syntax problems.
        case problems
        /// Everything, highlighted HTML included.
        case highlighted

        package static func < (lhs: Need, rhs: Need) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var store: ContentStore?
    private var toolVersion: String
    private var compilerVersion: String
    private var onParse: (@Sendable () -> Void)?

    /// `storeFolder` keeps what was learned between runs (nil: nothing is kept); the compiler's
    /// version is part of every key, since the parser ships with it. `onParse` is called for
    /// every parse (tests count them).
    package init(storeFolder: String?, toolVersion: String, compilerVersion: String,
                 onParse: (@Sendable () -> Void)? = nil) {
        store = storeFolder.map { ContentStore(folder: $0) }
        self.toolVersion = toolVersion
        self.compilerVersion = compilerVersion
        self.onParse = onParse
    }

    /// Stored readings that were found and not believed (see `ContentStore`).
    package var refusedEntries: Int { store?.refusals ?? 0 }

    /// What a parse learned, apart from the HTML: all that a check reads.
    static let factsSuffix = "swift"
    /// The highlighted HTML, which only a build reads.
    static let htmlSuffix = "html"
    /// The names a core file uses, which a scenario's own top-level names must not change.
    static let identifiersSuffix = "ids"
    /// Bump when what is learned from a block, or how it is written down, changes.
    static let formatVersion = "7"

    /// What is known of every block, in the order of `requests`, read on every core. A text
    /// asked for several times (with several needs) is read once, for the largest need.
    package func read(_ requests: [(code: String, need: Need)]) -> [SwiftBlockReading] {
        var slot: [CodeKey: Int] = [:]
        var distinct: [(code: String, need: Need)] = []
        var slots: [Int] = []
        slots.reserveCapacity(requests.count)
        for request in requests {
            let key = CodeKey(request.code)
            if let index = slot[key] {
                distinct[index].need = Swift.max(distinct[index].need, request.need)
                slots.append(index)
            } else {
                slot[key] = distinct.count
                slots.append(distinct.count)
                distinct.append(request)
            }
        }
        let answers = distinct.concurrentMap { request -> (reading: SwiftBlockReading, key: String?, parsed: Bool) in
            let key = self.key(request.code)
            if let known = stored(key, withHTML: request.need == .highlighted) { return (known, key, false) }
            return (parse(request.code), key, true)
        }
        var facts: [(key: String, payload: [UInt8])] = []
        var html: [(key: String, payload: [UInt8])] = []
        for answer in answers where answer.parsed {
            guard let key = answer.key else { continue }
            facts.append((key, ReadingCoding.encode(answer.reading)))
            if let highlighted = answer.reading.highlighted { html.append((key, Array(highlighted.utf8))) }
        }
        store?.write(facts, suffix: Self.factsSuffix)
        store?.write(html, suffix: Self.htmlSuffix)
        return slots.map { answers[$0].reading }
    }

    /// What the store knows of a block; nil when it lacks anything asked for.
    private func stored(_ key: String, withHTML: Bool) -> SwiftBlockReading? {
        guard let store, let payload = store.read(key, suffix: Self.factsSuffix),
              var reading = ReadingCoding.decode(payload) else { return nil }
        if withHTML {
            guard let html = store.read(key, suffix: Self.htmlSuffix) else { return nil }
            reading.highlighted = String(decoding: html, as: UTF8.self)
        }
        return reading
    }

    /// One parse of one block, and everything learned from it.
    func parse(_ code: String) -> SwiftBlockReading {
        onParse?()
        let tree = Parser.parse(source: code)
        let shape = ShapeReading(tree, code: code)
        return SwiftBlockReading(problems: SyntaxFindings.of(tree), needsOwnProgram: shape.needsOwnProgram,
                                 hasMainAttribute: shape.hasMainAttribute, declaredNames: shape.declaredNames,
                                 highlighted: SwiftHighlighter.html(tree, code: code),
                                 trees: ViewTreeReading.of(tree))
    }

    /// The names of a core file that a scenario's top-level names could change (see
    /// `CoreNames`), from the store or one parse.
    package func globalNames(of code: String) -> Set<String> {
        let key = self.key("global names\n" + code)
        if let payload = store?.read(key, suffix: Self.identifiersSuffix) {
            return Set(String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init))
        }
        onParse?()
        let names = CoreNames.of(Parser.parse(source: code))
        store?.write([(key, Array(names.sorted().joined(separator: "\n").utf8))], suffix: Self.identifiersSuffix)
        return names
    }

    func key(_ code: String) -> String {
        var hash = SHA256()
        for part in ["coursebook-swift-reading", Self.formatVersion, toolVersion, compilerVersion] {
            hash.update(part)
            hash.update([0])
        }
        hash.update(code)
        return hash.finalize()
    }
}

/// A reading as the store keeps it, without its HTML (kept apart): a few lines of text.
enum ReadingCoding {
    static func encode(_ reading: SwiftBlockReading) -> [UInt8] {
        var text = "shape \(reading.needsOwnProgram ? 1 : 0) \(reading.hasMainAttribute ? 1 : 0)\n"
        if !reading.declaredNames.isEmpty { text += "names \(reading.declaredNames.joined(separator: " "))\n" }
        for problem in reading.problems {
            text += "problem \(problem.line) \(problem.column) \(TreeCoding.escaped(problem.message))\n"
        }
        text += TreeCoding.encode(reading.trees)
        return Array(text.utf8)
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
            default:
                return nil
            }
        }
        guard let shape, let trees = trees.finish() else { return nil }
        return SwiftBlockReading(problems: problems, needsOwnProgram: shape.own, hasMainAttribute: shape.main,
                                 declaredNames: names, highlighted: nil, trees: trees)
    }

    /// `decode` on characters, for a reading that is not all ASCII.
    static func decode(text payload: [UInt8]) -> SwiftBlockReading? {
        let text = String(decoding: payload, as: UTF8.self)
        var shape: (own: Bool, main: Bool)?
        var problems: [SyntaxProblem] = []
        var names: [String] = []
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
            default:
                return nil
            }
        }
        guard let shape, let trees = trees.finish() else { return nil }
        return SwiftBlockReading(problems: problems, needsOwnProgram: shape.own, hasMainAttribute: shape.main,
                                 declaredNames: names, highlighted: nil, trees: trees)
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
