internal import BackgroundWork
internal import CourseFiles
package import CourseModel
internal import HTMLText
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
    /// How a batch of programs of their own may hold it (see `TypeHoisting`); nil when it must
    /// be compiled alone.
    package var hoisting: ScenarioHoisting? = nil
    package var highlighted: String?
    /// The view trees it builds, as written (see `ViewTreeReading`).
    package var trees: ScenarioTrees = .none
    /// What stands for a block the command did not need to read (an `errors` scenario in a
    /// check, which is type-checked alone whatever its shape).
    package static let notNeeded = SwiftBlockReading(problems: [], needsOwnProgram: true, hasMainAttribute: false,
                                                     declaredNames: [], highlighted: nil)

    /// Why coursebook did not read the block, nil when it did: it nests deeper than the parser
    /// is given (`SwiftNesting`), or its reading took too long or ended the process that read
    /// it. Such a block is a program of its own, shown without highlighting, and its problems
    /// are the compiler's to find.
    package var unread: Unread?

    /// Why a block was not read, and where (line and column inside the block's code).
    package struct Unread: Error, Sendable, Equatable {
        package var line: Int
        package var column: Int
        package var reason: String

        package init(line: Int = 1, column: Int = 1, reason: String) {
            self.line = line
            self.column = column
            self.reason = reason
        }
    }

    /// What is known of a block that was not read: a program of its own (batching needs its
    /// shape), with `@main` where its text has one, shown as plain text.
    package static func unread(_ code: String, _ why: Unread, highlighted: Bool) -> SwiftBlockReading {
        SwiftBlockReading(problems: [], needsOwnProgram: true, hasMainAttribute: code.contains("@main"),
                          declaredNames: [], highlighted: highlighted ? escapeHTML(code) : nil, unread: why)
    }
}

/// Reads Swift blocks somewhere other than this process: `codes` in, one answer of
/// `SwiftBlockReader.answer(_:)` each out (in the same order), or why there is none.
package typealias SwiftReadingElsewhere = @Sendable (_ requests: [[UInt8]]) -> [Result<[UInt8], SwiftReadingFailure>]

/// Why a block's reading elsewhere gave no answer, in words for the block's finding.
package struct SwiftReadingFailure: Error, Sendable, Equatable {
    package var reason: String

    package init(reason: String) { self.reason = reason }
}

/// Reads the Swift blocks of a course with the toolchain's parser, each distinct block text at
/// most once per command and not at all when the content-addressed store already knows it: a
/// parse yields the block's syntax problems, its shape as a scenario and its highlighted HTML
/// together, and all three are kept.
///
/// The toolchain's parser is not safe on every text: some nestings make it take exponential
/// time or overflow its stack, and its lookahead and diagnostics have paths whose cost grows
/// faster than the text. So a block nested past `SwiftNesting`'s limits is not parsed, and a
/// command's parses run in another process (`elsewhere`, a `coursebook read-swift` under a
/// time limit): what takes too long there, or ends that process, is a block not read, never a
/// hang or a crash of the command. Without `elsewhere` (tests, the reading process itself) the
/// parses run here.
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

    /// The course's store (its cache folder), then one every course of this user shares
    /// (`shared`): a reading depends only on the block's text, the tool's build and the
    /// compiler, so what one course or run read serves another, and a check without a course
    /// cache (`--no-cache`, a CI runner with only the user's cache restored) parses nothing
    /// that was read before.
    private var store: ContentStore?
    private var shared: ContentStore?
    private var toolVersion: String
    private var compilerVersion: String
    private var onParse: (@Sendable () -> Void)?
    private var elsewhere: SwiftReadingElsewhere?

    /// `storeFolder` keeps what was learned between runs of a course (nil: nothing is kept
    /// there), `sharedFolder` what every course and run may use (nil: none); the compiler's
    /// version is part of every key, since the parser ships with it. `onParse` is called for
    /// every parse (tests count them). `elsewhere` reads the blocks in another process; nil
    /// reads them here.
    package init(storeFolder: String?, sharedFolder: String? = nil, toolVersion: String, compilerVersion: String,
                 onParse: (@Sendable () -> Void)? = nil, elsewhere: SwiftReadingElsewhere? = nil) {
        store = storeFolder.map { ContentStore(folder: $0) }
        shared = sharedFolder.map { ContentStore(folder: $0) }
        self.toolVersion = toolVersion
        self.compilerVersion = compilerVersion
        self.onParse = onParse
        self.elsewhere = elsewhere
    }

    /// Stored readings that were found and not believed (see `ContentStore`).
    package var refusedEntries: Int { (store?.refusals ?? 0) + (shared?.refusals ?? 0) }
    /// Why a reading could not be kept in the course's store, and in the shared one, the first
    /// time one could not (see `ContentStore.writeProblem`): the blocks are then read again.
    package var writeProblem: (course: String?, shared: String?) { (store?.writeProblem, shared?.writeProblem) }

    /// What a parse learned, apart from the HTML: all that a check reads.
    static let factsSuffix = "swift"
    /// The highlighted HTML, which only a build reads.
    static let htmlSuffix = "html"
    /// The names a core file uses, which a scenario's own top-level names must not change.
    static let identifiersSuffix = "ids"
    /// Bump when what is learned from a block, or how it is written down, changes.
    static let formatVersion = "10"

    /// What is known of every block, in the order of `requests`, read on every core. A text
    /// asked for several times (with several needs) is read once, for the largest need. With a
    /// `pack` name, the course's store keeps these blocks' facts in one file as well (see
    /// `ContentStore.readPack`), read first the next time the same caller asks: a warm check
    /// reads one file where it read one per block. The pack is written again only when one
    /// of the blocks was not in it.
    package func read(_ requests: [(code: String, need: Need)], pack: String? = nil) -> [SwiftBlockReading] {
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
        let keys = distinct.map { key($0.code) }
        let asked = distinct
        let packName = pack.map { "readings-\($0)" }
        let packed = store == nil ? [:] : packName.map { store!.readPack($0) } ?? [:]
        var found = Array(asked.indices).concurrentMap {
            stored(keys[$0], withHTML: asked[$0].need == .highlighted, packed: packed[keys[$0]], from: .course)
        }
        // What the course's store lacks is looked for in the shared one, whose packs are
        // opened only then (a warm check never lists that folder).
        let lacking = found.indices.filter { found[$0] == nil }
        if shared != nil, !lacking.isEmpty {
            let packs = sharedPacks()
            for (index, reading) in zip(lacking, lacking.concurrentMap({
                stored(keys[$0], withHTML: asked[$0].need == .highlighted, from: .shared(packs))
            })) { found[index] = reading }
        }
        var readings = found.map { $0?.reading }
        var payloads = found.map { $0?.facts }
        let unknown = distinct.indices.filter { readings[$0] == nil }
        var facts: [(key: String, payload: [UInt8])] = []
        var html: [(key: String, payload: [UInt8])] = []
        for (index, parsed) in zip(unknown, parse(unknown.map { distinct[$0] })) {
            readings[index] = parsed.reading
            // A parse makes the HTML whatever was asked: it is kept for the build that comes
            // after a check, and handed on only to who asked for it.
            if distinct[index].need < .highlighted { readings[index]?.highlighted = nil }
            // What a reading elsewhere could not give (too long, a crash) is not kept: the
            // next command tries again.
            guard parsed.kept else { continue }
            let encoded = ReadingCoding.encode(parsed.reading)
            payloads[index] = encoded
            facts.append((keys[index], encoded))
            if let highlighted = parsed.reading.highlighted { html.append((keys[index], Array(highlighted.utf8))) }
        }
        keepShared(facts, suffix: Self.factsSuffix)
        keepShared(html, suffix: Self.htmlSuffix)
        // What only the shared store knew goes into the course's too, which stays whole.
        let copied = found.compactMap { $0?.copied }
        store?.write(facts + copied.compactMap { copy in copy.facts.map { (copy.key, $0) } }, suffix: Self.factsSuffix)
        store?.write(html + copied.compactMap { copy in copy.html.map { (copy.key, $0) } }, suffix: Self.htmlSuffix)
        if let packName, let store, keys.contains(where: { packed[$0] == nil }) {
            store.writePack(packName, keys.indices.compactMap { index in payloads[index].map { (keys[index], $0) } })
        }
        return slots.map { readings[$0]! }
    }

    /// Where `stored` looks: the course's store alone, or the shared one after it (its packs,
    /// by suffix and key, then its entries one by one).
    private enum Stores {
        case course
        case shared([String: [String: [UInt8]]])
    }

    /// What the stores know of a block (`packed`: its facts from the course's pack), the
    /// course's first; nil when they lack anything asked for. `facts`: the stored form of the
    /// reading; `copied`: what the course's store lacks and the shared one had.
    private func stored(_ key: String, withHTML: Bool, packed: [UInt8]? = nil, from stores: Stores)
        -> (reading: SwiftBlockReading, facts: [UInt8], copied: (key: String, facts: [UInt8]?, html: [UInt8]?)?)? {
        guard let (payload, fromShared) = packed.map({ ($0, false) }) ?? storedPayload(key, suffix: Self.factsSuffix, from: stores),
              var reading = ReadingCoding.decode(payload) else { return nil }
        var htmlCopy: [UInt8]?
        if withHTML {
            guard let (html, htmlShared) = storedPayload(key, suffix: Self.htmlSuffix, from: stores) else { return nil }
            reading.highlighted = String(decoding: html, as: UTF8.self)
            if htmlShared { htmlCopy = html }
        }
        guard store != nil, fromShared || htmlCopy != nil else { return (reading, payload, nil) }
        return (reading, payload, (key, fromShared ? payload : nil, htmlCopy))
    }

    /// A payload from the course's store, else the shared one when `stores` says so (`shared`
    /// says which).
    private func storedPayload(_ key: String, suffix: String, from stores: Stores = .shared([:])) -> (bytes: [UInt8], shared: Bool)? {
        if let bytes = store?.read(key, suffix: suffix) { return (bytes, false) }
        guard case .shared(let packs) = stores else { return nil }
        if let bytes = packs[suffix]?[key] ?? shared?.read(key, suffix: suffix) { return (bytes, true) }
        return nil
    }

    /// A write to the shared store of at least this many readings goes into one pack: a cold
    /// check's hundreds of blocks make one new file instead of one each (a new file cost the
    /// file system a third of a millisecond here, as much as parsing a fifth of a block).
    /// Fewer (an edited block) are kept one by one, so that packs do not pile up.
    static let sharedPackSize = 16

    /// How the names of the shared store's packs that this build of the tool writes begin:
    /// packs of other builds, whose keys cannot match, are never opened.
    private var sharedPackPrefix: String {
        var hash = SHA256()
        for part in ["coursebook-swift-reading-packs", Self.formatVersion, toolVersion, compilerVersion] {
            hash.update(part)
            hash.update([0])
        }
        return "readings-" + hash.finalize().prefix(16) + "-"
    }

    /// Keeps readings in the shared store: as one pack, named by their keys, or one by one.
    private func keepShared(_ entries: [(key: String, payload: [UInt8])], suffix: String) {
        guard let shared, !entries.isEmpty else { return }
        guard entries.count >= Self.sharedPackSize else {
            shared.write(entries, suffix: suffix)
            return
        }
        var digest = SHA256()
        for entry in entries {
            digest.update(entry.key)
            digest.update([0])
        }
        shared.writePack(sharedPackPrefix + suffix + "-" + digest.finalize().prefix(16), entries)
    }

    /// The entries of this build's packs in the shared store, by suffix and key.
    private func sharedPacks() -> [String: [String: [UInt8]]] {
        guard let shared else { return [:] }
        let prefix = sharedPackPrefix
        var packs: [String: [String: [UInt8]]] = [:]
        for name in shared.packNames(beginningWith: prefix) {
            guard let suffix = name.dropFirst(prefix.count).split(separator: "-").first else { continue }
            packs[String(suffix), default: [:]].merge(shared.readPack(name)) { first, _ in first }
        }
        return packs
    }

    /// The readings of blocks the store did not know, in order: here, or elsewhere when this
    /// reader has somewhere else to read. `kept` says whether the reading may be stored (not
    /// when the reading elsewhere failed, which may not happen again).
    private func parse(_ requests: [(code: String, need: Need)]) -> [(reading: SwiftBlockReading, kept: Bool)] {
        guard !requests.isEmpty else { return [] }
        for _ in requests { onParse?() }
        // With a store to keep it in, the course's or the shared one, the HTML is made whatever
        // was asked: a check's readings then serve the build after it, which would otherwise
        // parse every block again for its highlighting. The shared store counts too: a reading
        // kept there without its HTML (a check with --no-cache) would make every later build
        // of every course that finds it parse the block again.
        let kept = store != nil || shared != nil
        let withHTML = { @Sendable (need: Need) in need == .highlighted || kept }
        guard let elsewhere else {
            return requests.concurrentMap { (Self.reading(of: $0.code, highlighting: withHTML($0.need)), true) }
        }
        // Too deep is known here at once, without a process to ask.
        var readings: [(reading: SwiftBlockReading, kept: Bool)?] = requests.map { request in
            SwiftNesting.tooDeep(request.code).map { (Self.tooDeep(request.code, $0), true) }
        }
        let asked = requests.indices.filter { readings[$0] == nil }
        let results = elsewhere(asked.map {
            Self.request(.reading(withHTML(requests[$0].need) ? .highlighted : .problems), requests[$0].code)
        })
        for (index, result) in zip(asked, results) {
            let request = requests[index]
            let highlighted = withHTML(request.need)
            switch result {
            case .success(let answer) where answer.first == UInt8(ascii: "r"):
                if let reading = ReadingCoding.decodeAnswer(Array(answer.dropFirst()), withHTML: highlighted) {
                    readings[index] = (reading, true)
                    continue
                }
                fallthrough
            case .success:
                readings[index] = (.unread(request.code, SwiftBlockReading.Unread(reason: "the process that read it gave an answer coursebook cannot make out"),
                                           highlighted: highlighted), false)
            case .failure(let failure):
                readings[index] = (.unread(request.code, SwiftBlockReading.Unread(reason: failure.reason), highlighted: highlighted), false)
            }
        }
        return readings.map { $0! }
    }

    /// The reading of a block nested past what the parser is given.
    private static func tooDeep(_ code: String, _ deep: SwiftNesting.TooDeep) -> SwiftBlockReading {
        .unread(code, SwiftBlockReading.Unread(line: deep.line, column: deep.column, reason: deep.message), highlighted: true)
    }

    /// One parse of one block, here, and everything learned from it (see `reading(of:)`).
    func parse(_ code: String) -> SwiftBlockReading {
        onParse?()
        return Self.reading(of: code)
    }

    /// Everything learned from one block: nothing but why, for a block nested past what the
    /// parser is given; else what one parse of it says, its highlighted HTML only when
    /// `highlighting` (a tenth of a reading's time, and a check without a store never shows it).
    static func reading(of code: String, highlighting: Bool = true) -> SwiftBlockReading {
        if let deep = SwiftNesting.tooDeep(code) { return tooDeep(code, deep) }
        let tree = Parser.parse(source: code)
        let shape = ShapeReading(tree, code: code)
        var reading = SwiftBlockReading(problems: SyntaxFindings.of(tree, code: code), needsOwnProgram: shape.needsOwnProgram,
                                        hasMainAttribute: shape.hasMainAttribute, declaredNames: shape.declaredNames,
                                        highlighted: highlighting ? SwiftHighlighter.html(tree, code: code) : nil,
                                        trees: ViewTreeReading.of(tree))
        reading.hoisting = shape.hoisting
        return reading
    }

    /// The names of a core file that a scenario's top-level names could change (see
    /// `CoreNames`), from the store or one parse (here or elsewhere, as blocks are read); or
    /// why the file could not be read.
    package func globalNames(of code: String) -> Result<Set<String>, SwiftBlockReading.Unread> {
        let key = self.key("global names\n" + code)
        if let (payload, fromShared) = storedPayload(key, suffix: Self.identifiersSuffix) {
            if fromShared { store?.write([(key, payload)], suffix: Self.identifiersSuffix) }
            return .success(Set(String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init)))
        }
        onParse?()
        let answer: Result<[UInt8], SwiftBlockReading.Unread>
        if let deep = SwiftNesting.tooDeep(code) {
            answer = .failure(SwiftBlockReading.Unread(line: deep.line, column: deep.column, reason: deep.message))
        } else if let elsewhere {
            switch elsewhere([Self.request(.globalNames, code)])[0] {
            case .success(let payload) where payload.first == UInt8(ascii: "n"):
                answer = .success(Array(payload.dropFirst()))
            case .success(let payload) where payload.first == UInt8(ascii: "u"):
                answer = .failure(ReadingCoding.decodeUnread(Array(payload.dropFirst()))
                                  ?? SwiftBlockReading.Unread(reason: "the process that read it gave an answer coursebook cannot make out"))
            case .success:
                answer = .failure(SwiftBlockReading.Unread(reason: "the process that read it gave an answer coursebook cannot make out"))
            case .failure(let failure):
                answer = .failure(SwiftBlockReading.Unread(reason: failure.reason))
            }
        } else {
            answer = Self.globalNamesAnswer(code)
        }
        guard case .success(let payload) = answer else { return answer.map { _ in [] } }
        store?.write([(key, payload)], suffix: Self.identifiersSuffix)
        shared?.write([(key, payload)], suffix: Self.identifiersSuffix)
        return .success(Set(String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init)))
    }

    /// The names of a core file as one line each, sorted; or why it was not parsed.
    private static func globalNamesAnswer(_ code: String) -> Result<[UInt8], SwiftBlockReading.Unread> {
        if let deep = SwiftNesting.tooDeep(code) {
            return .failure(SwiftBlockReading.Unread(line: deep.line, column: deep.column, reason: deep.message))
        }
        return .success(Array(CoreNames.of(Parser.parse(source: code)).sorted().joined(separator: "\n").utf8))
    }

    // MARK: Reading in another process

    /// What a request asks of the process that reads.
    enum Question {
        case reading(Need)
        case globalNames
    }

    /// A request as the reading process gets it: one byte for the question, then the code.
    static func request(_ question: Question, _ code: String) -> [UInt8] {
        let kind: UInt8
        switch question {
        case .reading(.problems): kind = 0
        case .reading(.highlighted): kind = 1
        case .globalNames: kind = 2
        }
        return [kind] + Array(code.utf8)
    }

    /// The reading process's answer to one request (`coursebook read-swift` calls it for each):
    /// a block's reading, or a core file's names. The first byte says which: `r` and the
    /// reading (see `ReadingCoding.encodeAnswer`), `n` and the names, `u` and why a core file's
    /// names were not read. A request it cannot make out is answered with nothing.
    package static func answer(_ request: [UInt8]) -> [UInt8] {
        guard let kind = request.first, kind <= 2 else { return [] }
        let code = String(decoding: request.dropFirst(), as: UTF8.self)
        if kind == 2 {
            switch globalNamesAnswer(code) {
            case .success(let names): return [UInt8(ascii: "n")] + names
            case .failure(let why): return [UInt8(ascii: "u")] + Array(ReadingCoding.encode(unread: why).utf8)
            }
        }
        return [UInt8(ascii: "r")] + ReadingCoding.encodeAnswer(reading(of: code, highlighting: kind == 1), withHTML: kind == 1)
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
