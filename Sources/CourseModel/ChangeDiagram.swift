import Foundation

/// Where a key of a view tree is stored, as a scenario writes it in the storage literal of
/// `ViewTree(nodes:storage:)`: the classifier's `Storage`.
package enum KeyStorage: Sendable, Equatable {
    /// `.state(owner: "Counter")`: a view's `@State`.
    case state(owner: String)
    /// `.model(object: "cart")`: a property of an `@Observable` object.
    case model(object: String)
    /// `.environment`: a value put into the environment.
    case environment
}

/// A view of a written tree: a `ViewNode(name, parent:, reads:)` call.
package struct WrittenView: Sendable, Equatable {
    package var name: String
    package var parent: String?
    package var reads: [String]

    package init(_ name: String, parent: String?, reads: [String]) {
        self.name = name
        self.parent = parent
        self.reads = reads
    }
}

/// A view tree exactly as a scenario writes it out: one `ViewTree(nodes: [...], storage: [...])`
/// whose views and storage are literals, read by the Swift parser (never run). This is where a
/// change diagram takes its tree from; nothing of it is typed by hand.
package struct WrittenTree: Sendable, Equatable {
    /// The name it is bound to (`let tree = ViewTree(...)`), when it is.
    package var binding: String?
    /// The line of `ViewTree(` inside the scenario's code (from 1).
    package var line: Int
    /// The views, in the order written (the classifier's tree order).
    package var views: [WrittenView]
    /// The storage literal's entries, in the order written.
    package var storage: [(key: String, storage: KeyStorage)]

    package init(binding: String?, line: Int, views: [WrittenView], storage: [(key: String, storage: KeyStorage)]) {
        self.binding = binding
        self.line = line
        self.views = views
        self.storage = storage
    }

    /// Where `key` is stored; nil when the literal has no entry for it.
    package func storage(of key: String) -> KeyStorage? {
        storage.first { $0.key == key }?.storage
    }

    /// The index of each view's parent (the first view of that name, as the classifier finds
    /// it), nil for a root: a view without a parent, or whose parent is not in the tree.
    package var parentIndices: [Int?] {
        var first: [String: Int] = [:]
        for (index, view) in views.enumerated() where first[view.name] == nil { first[view.name] = index }
        return views.map { view in view.parent.flatMap { first[$0] } }
    }

    /// Why the tree cannot be drawn as a tree, nil when it can: two views of one name (the
    /// output could not say which is which), or parents that go round in a circle.
    package var undrawableReason: String? {
        var seen: Set<String> = []
        for view in views where !seen.insert(view.name).inserted {
            return "two views are named '\(view.name)'"
        }
        let parents = parentIndices
        for start in views.indices {
            var steps = 0, next = parents[start]
            while let index = next {
                steps += 1
                if index == start || steps > views.count {
                    return "the parents of '\(views[start].name)' lead back to it"
                }
                next = parents[index]
            }
        }
        return nil
    }

    package static func == (lhs: WrittenTree, rhs: WrittenTree) -> Bool {
        lhs.binding == rhs.binding && lhs.line == rhs.line && lhs.views == rhs.views
            && lhs.storage.map(\.key) == rhs.storage.map(\.key) && lhs.storage.map(\.storage) == rhs.storage.map(\.storage)
    }
}

/// A `ViewTree(...)` of a scenario that is not written out: its views or storage are made when
/// the scenario runs (a variable, a `map`, a loop), so no diagram can be drawn from it.
package struct UnwrittenTree: Sendable, Equatable {
    /// The line of `ViewTree(` inside the scenario's code (from 1).
    package var line: Int
    /// What is not a literal, in a few words.
    package var reason: String

    package init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// The view trees a scenario builds, as its source shows them: those written out, and those
/// that are not.
package struct ScenarioTrees: Sendable, Equatable {
    package var written: [WrittenTree]
    package var unwritten: [UnwrittenTree]

    package init(written: [WrittenTree] = [], unwritten: [UnwrittenTree] = []) {
        self.written = written
        self.unwritten = unwritten
    }

    package static let none = ScenarioTrees()
}

/// A view that a change recomputed, and why (`yerel`, `ebeveyn`, `gozlem`, `ortam`,
/// `kural-disi`, `olcum-disi`, or what another core prints).
package struct RecomputedView: Sendable, Equatable {
    package var view: String
    package var cause: String

    package init(view: String, cause: String) {
        self.view = view
        self.cause = cause
    }
}

/// One line that the classifier's `change(_:key:)` printed, read back:
/// `<label>: <key> degisti | yeniden <view> <cause>, ... | atlanan <view>,...` (a list that is
/// empty prints as `yok`).
package struct MeasuredChange: Sendable, Equatable {
    package var label: String
    package var key: String
    package var recomputed: [RecomputedView]
    package var skipped: [String]
    /// Its line in the output (from 1).
    package var outputLine: Int

    package init(label: String, key: String, recomputed: [RecomputedView], skipped: [String], outputLine: Int) {
        self.label = label
        self.key = key
        self.recomputed = recomputed
        self.skipped = skipped
        self.outputLine = outputLine
    }

    /// Every view the line names: recomputed, then skipped.
    package var views: [String] { recomputed.map(\.view) + skipped }

    /// The change lines of an output, in order; other lines are passed over.
    package static func all(in output: String) -> [MeasuredChange] {
        var found: [MeasuredChange] = []
        for (index, line) in output.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let change = parse(line, outputLine: index + 1) { found.append(change) }
        }
        return found
    }

    private static let changed: StaticString = " degisti | yeniden "
    private static let skippedMark: StaticString = " | atlanan "

    /// The change a line states, nil for a line of another form. The label may hold anything,
    /// `: ` included (the key is what follows the last `: ` before ` degisti`); the key and the
    /// view names hold no space.
    package static func parse(_ line: Substring, outputLine: Int) -> MeasuredChange? {
        guard let changedRange = find(changed, in: line),
              let skippedRange = find(skippedMark, in: line, last: true),
              changedRange.upperBound <= skippedRange.lowerBound else { return nil }
        let head = line[..<changedRange.lowerBound]
        guard let colon = find(": ", in: head, last: true) else { return nil }
        let label = String(head[..<colon.lowerBound])
        let key = String(head[colon.upperBound...])
        guard !label.isEmpty, !key.isEmpty, !key.contains(" ") else { return nil }

        let recomputedText = line[changedRange.upperBound..<skippedRange.lowerBound]
        var recomputed: [RecomputedView] = []
        if recomputedText != "yok" {
            var rest = recomputedText
            while true {
                let separator = find(", ", in: rest)
                let entry = separator.map { rest[..<$0.lowerBound] } ?? rest
                let words = entry.split(separator: " ", omittingEmptySubsequences: false)
                guard words.count == 2, !words[0].isEmpty, !words[1].isEmpty else { return nil }
                recomputed.append(RecomputedView(view: String(words[0]), cause: String(words[1])))
                guard let separator else { break }
                rest = rest[separator.upperBound...]
            }
        }
        let skippedText = line[skippedRange.upperBound...]
        var skipped: [String] = []
        if skippedText != "yok" {
            skipped = skippedText.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard skipped.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else { return nil }
        }
        return MeasuredChange(label: label, key: key, recomputed: recomputed, skipped: skipped, outputLine: outputLine)
    }

    /// Where the ASCII text `needle` stands in `text` (its first place, or its `last`), found
    /// on UTF-8 bytes: an ASCII byte never stands inside another character's bytes, and a
    /// warm check reads every output line of the course here.
    static func find(_ needle: StaticString, in text: Substring, last: Bool = false) -> Range<Substring.Index>? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        let bytes = text.utf8
        guard pattern.count > 0, bytes.count >= pattern.count else { return nil }
        var found: Range<Substring.Index>?
        var start = bytes.startIndex
        while let end = bytes.index(start, offsetBy: pattern.count, limitedBy: bytes.endIndex) {
            if bytes[start] == pattern[0], bytes[start..<end].elementsEqual(pattern) {
                found = start..<end
                if !last { return found }
            }
            start = bytes.index(after: start)
        }
        return found
    }
}

/// One picture the site draws under a scenario: the tree a change was measured on, and the
/// change as the scenario's output states it.
package struct ChangeDiagram: Sendable, Equatable {
    package var tree: WrittenTree
    package var change: MeasuredChange

    package init(tree: WrittenTree, change: MeasuredChange) {
        self.tree = tree
        self.change = change
    }

    /// The diagram as text that says everything a drawing depends on: a cache key is made
    /// from it.
    package var canonicalText: String {
        var text = "tree \(tree.views.count) \(tree.storage.count)\n"
        for view in tree.views {
            text += "view \(view.name)\t\(view.parent ?? "\u{0}")\t\(view.reads.joined(separator: "\t"))\n"
        }
        for entry in tree.storage {
            switch entry.storage {
            case .state(let owner): text += "state \(entry.key)\t\(owner)\n"
            case .model(let object): text += "model \(entry.key)\t\(object)\n"
            case .environment: text += "environment \(entry.key)\n"
            }
        }
        text += "change \(change.label)\t\(change.key)\n"
        for view in change.recomputed { text += "recomputed \(view.view)\t\(view.cause)\n" }
        text += "skipped \(change.skipped.joined(separator: "\t"))\n"
        return text
    }
}
