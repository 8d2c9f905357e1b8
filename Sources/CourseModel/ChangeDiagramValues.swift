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

/// A view that a change recomputed, and why: the cause as the core printed it (the causes the
/// classifier knows are ChangeDiagramDrawing's `causes`).
package struct RecomputedView: Sendable, Equatable {
    package var view: String
    package var cause: String

    package init(view: String, cause: String) {
        self.view = view
        self.cause = cause
    }
}

/// One line that the classifier's `change(_:key:)` printed, read back (its format, and how it
/// is read, are ChangeDiagrams': `MeasuredChange.all(in:)`).
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
}

/// One picture the site draws under a scenario: the tree a change was measured on, and the
/// change as the scenario's output states it.
package struct ChangeDiagram: Sendable, Equatable {
    package var tree: WrittenTree
    package var change: MeasuredChange
    /// The section of the output the change line stands in: the title of the nearest
    /// `-- title --` line above it, nil when there is none.
    package var section: String?

    package init(tree: WrittenTree, change: MeasuredChange, section: String? = nil) {
        self.tree = tree
        self.change = change
        self.section = section
    }
}
