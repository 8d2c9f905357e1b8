import CourseModel
import HTMLText

import Foundation
import Synchronization

/// A page template in coursebook's small, strict syntax:
///
/// - `{{ name }}` inserts a value: text is HTML-escaped, rendered HTML is inserted as it is.
///   The kind of the value decides, never the template.
/// - `{{ a.b }}` reads a field of a record.
/// - `{{#each items}} ... {{/each}}` repeats for every item of a list; inside, the item's
///   fields come first, then the names outside.
/// - `{{#if name}} ... {{else}} ... {{/if}}`: true for `true`, a non-empty text, HTML or list.
/// - `{{! a comment }}` renders nothing.
///
/// A template is checked against the schema of the page it renders before anything is written:
/// an unknown name, a list used as text, a block left open is an error at its line. Its work is
/// bounded before it renders anything: blocks nest at most `maximumNesting` deep, and an
/// `#each` never repeats a list that an `#each` around it is already repeating (each such
/// nesting would multiply the page by the list's length).
package struct Template: Sendable {
    /// How deep `{{#if}}` and `{{#each}}` blocks may nest: far more than a page needs, and
    /// little enough that checking and rendering never run out of stack.
    package static let maximumNesting = 16
    package var name: String
    private var nodes: [Node]

    indirect enum Node: Sendable {
        case literal(String)
        case value(path: [String], line: Int)
        /// `memo`: what an item's rendering of the body is kept under, and the names the body
        /// looks up (see `RenderMemo`).
        case each(path: [String], body: [Node], line: Int, memo: EachMemo)
        case conditional(path: [String], then: [Node], otherwise: [Node], line: Int)
    }

    /// Parses `text` and checks every name against `schema`.
    package init(name: String, text: String, schema: TemplateSchema) throws(TemplateError) {
        self.name = name
        var parser = TemplateParser(name: name, text: text)
        nodes = try parser.parse()
        try Self.validate(nodes, scopes: [schema], repeating: [], template: name)
    }

    /// The template with the given values; they must follow the schema it was checked with.
    package func render(_ values: TemplateRecord) -> String {
        var output = ""
        output.reserveCapacity(1 << 16)
        var scopes = [values]
        Self.render(nodes, scopes: &scopes, into: &output)
        return output
    }

    /// The template with the given values, handed to `write` piece by piece as it is made: for a
    /// page too large to hold whole, whose pieces go to a file as they come. The pieces joined
    /// are `render(values)`.
    package func render(_ values: TemplateRecord, writing write: (String) -> Void) {
        withoutActuallyEscaping(write) { write in
            var output = ForwardingOutput(send: write)
            var scopes = [values]
            Self.render(nodes, scopes: &scopes, into: &output)
        }
    }

    /// Whether the template renders nothing with these values, found without rendering it:
    /// what `{{#if}}` asks of a deferred page made from it, answered without making the page.
    package func rendersNothing(_ values: TemplateRecord) -> Bool {
        var scopes = [values]
        return Self.rendersNothing(nodes, scopes: &scopes)
    }

    /// `repeating`: the lists the `#each` blocks around these nodes repeat, each as the scope
    /// it was found in (counted from the outermost) and its path, with the line of its block.
    private static func validate(_ nodes: [Node], scopes: [TemplateSchema],
                                 repeating: [(list: String, line: Int)], template: String) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .literal:
                break
            case let .value(path, line):
                let kind = try lookUp(path, in: scopes, template: template, line: line)
                switch kind {
                case .text, .html: break
                default:
                    throw TemplateError(template: template, line: line,
                                        message: "'\(path.joined(separator: "."))' is \(kind.noun); only text and HTML can be inserted")
                }
            case let .each(path, body, line, _):
                guard case let .list(item) = try lookUp(path, in: scopes, template: template, line: line) else {
                    throw TemplateError(template: template, line: line,
                                        message: "'\(path.joined(separator: "."))' is not a list; #each needs one")
                }
                // Scopes are innermost first: the list is known by the scope that holds it.
                let holder = scopes.count - 1 - scopes.firstIndex { $0.fields[path[0]] != nil }!
                let list = "\(holder):" + path.joined(separator: ".")
                if let outer = repeating.first(where: { $0.list == list }) {
                    throw TemplateError(template: template, line: line,
                                        message: "'{{#each \(path.joined(separator: "."))}}' inside the '{{#each}}' of line \(outer.line), which already repeats that list: the page would hold it once for every item of it")
                }
                try validate(body, scopes: [item] + scopes, repeating: repeating + [(list, line)], template: template)
            case let .conditional(path, then, otherwise, line):
                _ = try lookUp(path, in: scopes, template: template, line: line)
                try validate(then, scopes: scopes, repeating: repeating, template: template)
                try validate(otherwise, scopes: scopes, repeating: repeating, template: template)
            }
        }
    }

    private static func lookUp(_ path: [String], in scopes: [TemplateSchema], template: String,
                               line: Int) throws(TemplateError) -> TemplateSchema.Kind {
        let known = scopes.flatMap { $0.fields.keys }.sorted()
        guard let first = path.first,
              var kind = scopes.lazy.compactMap({ $0.fields[first] }).first else {
            throw TemplateError(template: template, line: line,
                                message: "unknown placeholder '\(path.joined(separator: "."))' (known here: \(Array(Set(known)).sorted().joined(separator: ", ")))")
        }
        for (index, field) in path.dropFirst().enumerated() {
            guard case let .record(schema) = kind, let next = schema.fields[field] else {
                throw TemplateError(template: template, line: line,
                                    message: "unknown placeholder '\(path.joined(separator: "."))': '\(path[...index].joined(separator: "."))' has no field '\(field)'")
            }
            kind = next
        }
        return kind
    }

    /// `scopes`: the innermost last (an `#each` item above the names outside it).
    private static func render<Output: TextOutputStream>(_ nodes: [Node], scopes: inout [TemplateRecord],
                                                         into output: inout Output) {
        for node in nodes {
            switch node {
            case .literal(let text):
                output.write(text)
            case .value(let path, _):
                switch value(path, in: scopes) {
                case .text(let text)?: output.write(escapeHTML(BidiTokens.inText(text)))
                case .html(let html)?: output.write(html)
                case .deferred(let html)?: html.produce { output.write($0) }
                default: break
                }
            case .each(let path, let body, _, let memo):
                guard case let .list(items)? = value(path, in: scopes) else { continue }
                for item in items {
                    // An item that keeps its rendering by this block (made when it was kept,
                    // see `renderings(of:)`) renders the same whatever is around it.
                    if let html = item.memo?.rendering(memo.id) {
                        output.write(html)
                        continue
                    }
                    scopes.append(item)
                    render(body, scopes: &scopes, into: &output)
                    scopes.removeLast()
                }
            case .conditional(let path, let then, let otherwise, _):
                render(value(path, in: scopes)?.isTrue == true ? then : otherwise, scopes: &scopes, into: &output)
            }
        }
    }

    /// What `render` would write nothing for, node by node as `render` goes, with a deferred
    /// value's emptiness taken from the value (not made).
    private static func rendersNothing(_ nodes: [Node], scopes: inout [TemplateRecord]) -> Bool {
        for node in nodes {
            switch node {
            case .literal(let text):
                if !text.isEmpty { return false }
            case .value(let path, _):
                switch value(path, in: scopes) {
                case .text(let text)?: if !text.isEmpty { return false }
                case .html(let html)?: if !html.isEmpty { return false }
                case .deferred(let html)?: if !html.isEmpty { return false }
                default: break
                }
            case .each(let path, let body, _, _):
                guard case let .list(items)? = value(path, in: scopes) else { continue }
                for item in items {
                    scopes.append(item)
                    let nothing = rendersNothing(body, scopes: &scopes)
                    scopes.removeLast()
                    if !nothing { return false }
                }
            case .conditional(let path, let then, let otherwise, _):
                if !rendersNothing(value(path, in: scopes)?.isTrue == true ? then : otherwise, scopes: &scopes) { return false }
            }
        }
        return true
    }

    private static func value(_ path: [String], in scopes: [TemplateRecord]) -> TemplateValue? {
        guard let first = path.first else { return nil }
        var found: TemplateValue?
        for scope in scopes.reversed() {
            if let value = scope[first] { found = value; break }
        }
        guard var value = found else { return nil }
        for field in path.dropFirst() {
            guard case let .record(record) = value, let next = record[field] else { return nil }
            value = next
        }
        return value
    }
}

extension Template {
    /// The renderings of `item` by every `{{#each}}` block of the template whose body looks up
    /// nothing but the item's own names: what it renders there whatever is around it.
    func renderings(of item: TemplateRecord) -> [(id: Int, html: String)] {
        var found: [(id: Int, html: String)] = []
        func walk(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .literal, .value: break
                case .each(_, let body, _, let memo):
                    if memo.names.allSatisfy({ item[$0] != nil }) {
                        var alone = "", scopes = [item]
                        Self.render(body, scopes: &scopes, into: &alone)
                        found.append((memo.id, alone))
                    }
                    walk(body)
                case .conditional(_, let then, let otherwise, _):
                    walk(then)
                    walk(otherwise)
                }
            }
        }
        walk(nodes)
        return found
    }

    /// The first names of every path the nodes look up, inside their blocks too.
    static func names(in nodes: [Node]) -> Set<String> {
        var names = Set<String>()
        for node in nodes {
            switch node {
            case .literal: break
            case .value(let path, _): names.insert(path[0])
            case .each(let path, _, _, let memo):
                names.insert(path[0])
                names.formUnion(memo.names)
            case .conditional(let path, let then, let otherwise, _):
                names.insert(path[0])
                names.formUnion(Self.names(in: then))
                names.formUnion(Self.names(in: otherwise))
            }
        }
        return names
    }
}

/// What an `{{#each}}` block's renderings are kept under: a number of its own (among every
/// block of every template), and the names its body looks up.
struct EachMemo: Sendable {
    private static let count = Atomic<Int>(0)
    let id: Int
    let names: Set<String>

    init(names: Set<String>) {
        id = Self.count.add(1, ordering: .relaxed).newValue
        self.names = names
    }
}

/// The renderings of one list item, kept for the pages that list it as it is (every lesson's
/// page lists every lesson, and all but one entry are the same on each): one per `{{#each}}`
/// block whose body looks up nothing but the item's names, so what is kept depends on the
/// item alone; changing the item drops it. Made once, before any page, and only read after:
/// pages rendered on every core read it without a lock (a lock taken per entry and page, two
/// million times at 1000 lessons, cost a twentieth of a build).
package final class RenderMemo: Sendable {
    private let kept: [(id: Int, html: String)]

    init(_ kept: [(id: Int, html: String)]) {
        self.kept = kept
    }

    /// The item's rendering by block `id`, nil when that block was not one it was kept for.
    func rendering(_ id: Int) -> String? {
        for entry in kept where entry.id == id { return entry.html }
        return nil
    }
}

/// A template's output that hands every piece on (`render(_:writing:)`).
private struct ForwardingOutput: TextOutputStream {
    let send: (String) -> Void

    mutating func write(_ text: String) { send(text) }
}

/// HTML made only when a template reaches it and written straight to the template's output:
/// a lesson's body on the whole-course page is made, written and dropped, and the page's
/// content inside the layout is the page template rendered piece by piece. In a schema it is
/// HTML; `{{#if}}` takes it as true when it is not empty, which its maker states up front
/// (`isEmpty`), so that asking does not make it.
package final class DeferredHTML: Sendable, Equatable {
    /// Whether `produce` writes nothing: stated by the maker, who knows without producing.
    package let isEmpty: Bool
    /// Writes the HTML, in as many pieces as it likes, to the function it is given.
    let produce: @Sendable (_ write: (String) -> Void) -> Void

    package init(isEmpty: Bool, produce: @escaping @Sendable (_ write: (String) -> Void) -> Void) {
        self.isEmpty = isEmpty
        self.produce = produce
    }

    /// HTML made by a function when it is needed: empty when the function's result is.
    package convenience init(isEmpty: Bool, making make: @escaping @Sendable () -> String) {
        self.init(isEmpty: isEmpty) { write in write(make()) }
    }

    /// The same deferred value: two makers are never compared by what they make.
    package static func == (left: DeferredHTML, right: DeferredHTML) -> Bool { left === right }
}

/// A value given to a template.
package indirect enum TemplateValue: Sendable, Equatable {
    /// Inserted HTML-escaped.
    case text(String)
    /// Inserted as it is: only for HTML the tool rendered itself.
    case html(String)
    /// HTML too, made when the template reaches it: for a page too large to hold whole.
    case deferred(DeferredHTML)
    case bool(Bool)
    case list([TemplateRecord])
    case record(TemplateRecord)

    var isTrue: Bool {
        switch self {
        case .text(let text): return !text.isEmpty
        case .html(let html): return !html.isEmpty
        case .deferred(let html): return !html.isEmpty
        case .bool(let flag): return flag
        case .list(let items): return !items.isEmpty
        case .record: return true
        }
    }
}

/// Named values for a template. A record holds a handful of names, so it keeps them in a
/// list and finds one by comparing names: cheaper than hashing, for the many small records
/// (one per navigation entry) that every page renders.
package struct TemplateRecord: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var names: [String]
    private var values: [TemplateValue]
    /// Where its renderings are kept (`keepingRenderings()`); any change to it lets them go.
    fileprivate private(set) var memo: RenderMemo?

    package init(dictionaryLiteral elements: (String, TemplateValue)...) {
        names = elements.map(\.0)
        values = elements.map(\.1)
    }

    /// The record of these names, each with the value at its place (no name twice).
    init(names: [String], values: [TemplateValue]) {
        self.names = names
        self.values = values
    }

    /// The record with its renderings by the `{{#each}}` blocks of `templates` kept, for every
    /// page that lists it unchanged: for an item that many pages list. Its values must render
    /// the same every time (no deferred HTML).
    package func keepingRenderings(by templates: [Template]) -> TemplateRecord {
        var record = self
        record.memo = RenderMemo(templates.flatMap { $0.renderings(of: self) })
        return record
    }

    package static func == (lhs: TemplateRecord, rhs: TemplateRecord) -> Bool {
        lhs.names == rhs.names && lhs.values == rhs.values
    }

    /// Its names and values, in the order they were given.
    var entries: Zip2Sequence<[String], [TemplateValue]> { zip(names, values) }

    package subscript(name: String) -> TemplateValue? {
        get {
            for index in names.indices where names[index] == name { return values[index] }
            return nil
        }
        set {
            memo = nil
            if let index = names.firstIndex(of: name) {
                if let newValue { values[index] = newValue } else { names.remove(at: index); values.remove(at: index) }
            } else if let newValue {
                names.append(name)
                values.append(newValue)
            }
        }
    }
}

/// The names a template may use, and the kind of each.
package struct TemplateSchema: Sendable, Equatable {
    package indirect enum Kind: Sendable, Equatable {
        case text, html, bool
        case list(TemplateSchema)
        case record(TemplateSchema)

        var noun: String {
            switch self {
            case .text: "text"
            case .html: "HTML"
            case .bool: "a yes/no value"
            case .list: "a list"
            case .record: "a record"
            }
        }
    }

    package var fields: [String: Kind]

    package init(_ fields: [String: Kind]) {
        self.fields = fields
    }
}

/// A template that cannot be read or does not fit its page: named by file and line.
package struct TemplateError: Error, Equatable, CustomStringConvertible {
    package var template: String
    package var line: Int
    package var message: String

    package init(template: String, line: Int, message: String) {
        self.template = template
        self.line = line
        self.message = message
    }

    package var description: String { "\(template):\(line): \(message)" }
}

/// Reads the `{{ }}` tags of a template into nodes.
private struct TemplateParser {
    let name: String
    let text: String

    init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// One tag and the line it starts on.
    private enum Tag {
        case value([String]), open(String, [String]), close(String), otherwise, comment
    }

    mutating func parse() throws(TemplateError) -> [Template.Node] {
        var index = text.startIndex
        var line = 1
        // A stack of open blocks: their kind, path, line, and the nodes gathered so far.
        var stack: [(kind: String, path: [String], line: Int, then: [Template.Node], otherwise: [Template.Node]?)] = []
        var top: [Template.Node] = []

        func append(_ node: Template.Node) {
            if stack.isEmpty { top.append(node); return }
            if stack[stack.count - 1].otherwise != nil {
                stack[stack.count - 1].otherwise!.append(node)
            } else {
                stack[stack.count - 1].then.append(node)
            }
        }

        while index < text.endIndex {
            guard let open = text[index...].range(of: "{{") else {
                append(.literal(String(text[index...])))
                break
            }
            if open.lowerBound > index { append(.literal(String(text[index..<open.lowerBound]))) }
            line += text[index..<open.lowerBound].filter { $0 == "\n" }.count
            guard let close = text[open.upperBound...].range(of: "}}") else {
                throw TemplateError(template: name, line: line, message: "'{{' is not closed by '}}'")
            }
            let body = text[open.upperBound..<close.lowerBound]
            let tagLine = line
            line += body.filter { $0 == "\n" }.count
            index = close.upperBound

            switch try tag(String(body), line: tagLine) {
            case .comment:
                break
            case .value(let path):
                append(.value(path: path, line: tagLine))
            case .open(let kind, let path):
                guard stack.count < Template.maximumNesting else {
                    throw TemplateError(template: name, line: tagLine,
                                        message: "'{{#\(kind)}}' nests blocks more than \(Template.maximumNesting) deep ('{{#if}}' and '{{#each}}' inside one another)")
                }
                stack.append((kind, path, tagLine, [], nil))
            case .otherwise:
                guard let last = stack.last, last.kind == "if", last.otherwise == nil else {
                    throw TemplateError(template: name, line: tagLine, message: "'{{else}}' outside an '{{#if}}' block")
                }
                stack[stack.count - 1].otherwise = []
            case .close(let kind):
                guard let block = stack.popLast() else {
                    throw TemplateError(template: name, line: tagLine, message: "'{{/\(kind)}}' closes nothing")
                }
                guard block.kind == kind else {
                    throw TemplateError(template: name, line: tagLine,
                                        message: "'{{/\(kind)}}' closes the '{{#\(block.kind)}}' opened at line \(block.line)")
                }
                append(kind == "each"
                       ? .each(path: block.path, body: block.then, line: block.line,
                               memo: EachMemo(names: Template.names(in: block.then)))
                       : .conditional(path: block.path, then: block.then, otherwise: block.otherwise ?? [], line: block.line))
            }
        }
        if let open = stack.last {
            throw TemplateError(template: name, line: open.line, message: "'{{#\(open.kind)}}' is never closed with '{{/\(open.kind)}}'")
        }
        return top
    }

    private func tag(_ body: String, line: Int) throws(TemplateError) -> Tag {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("!") { return .comment }
        if trimmed == "else" { return .otherwise }
        if let rest = trimmed.dropPrefix("#each") { return .open("each", try path(rest, line: line)) }
        if let rest = trimmed.dropPrefix("#if") { return .open("if", try path(rest, line: line)) }
        if trimmed == "/each" || trimmed == "/if" { return .close(String(trimmed.dropFirst())) }
        if trimmed.hasPrefix("#") || trimmed.hasPrefix("/") || trimmed.hasPrefix(">") || trimmed.hasPrefix("{") {
            throw TemplateError(template: name, line: line,
                                message: "unknown tag '{{\(trimmed)}}' (tags: {{name}}, {{#each list}}, {{#if name}}, {{else}}, {{/each}}, {{/if}}, {{! comment}})")
        }
        return .value(try path(Substring(trimmed), line: line))
    }

    private func path(_ text: Substring, line: Int) throws(TemplateError) -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !trimmed.isEmpty, parts.allSatisfy({ part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }) else {
            throw TemplateError(template: name, line: line, message: "'\(trimmed)' is not a placeholder name (letters, digits, '_', '.' between fields)")
        }
        return parts
    }
}

private extension String {
    /// The rest after `prefix` when it is followed by a space (`#each items`), else nil.
    func dropPrefix(_ prefix: String) -> Substring? {
        guard hasPrefix(prefix) else { return nil }
        let rest = dropFirst(prefix.count)
        guard rest.first == " " || rest.first == "\t" else { return nil }
        return rest
    }
}
