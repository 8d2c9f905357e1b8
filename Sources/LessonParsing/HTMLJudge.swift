/// Which of a lesson's raw HTML nodes a page shows as HTML (`AllowedHTML`): inline tags must
/// open and close inside one paragraph; `<details>` must stand at the top level, close what it
/// opens, and hide no heading. When a lesson breaks a rule, none of its tags of that kind pass.
enum HTMLJudge {
    /// The allowed nodes, by their place in `nodes`; `inDetails` gets the top-level code
    /// blocks hidden in a `<details>` when those pass.
    static func allowed(_ nodes: [LessonReading.HTMLNode], topLevel: [LessonReading.TopLevel],
                        inDetails: inout Set<Int>) -> [Int] {
        var allowed = balancedInlineTags(nodes)
        // `<details>` blocks, through the top level of the document.
        var depth = 0
        var candidates: [Int] = []
        var hidden: Set<Int> = []
        var sound = !nodes.contains { $0.isBlock && !$0.isTopLevel && $0.pieces != nil }
        for entry in topLevel {
            switch entry {
            case .html(let index):
                guard nodes[index].isBlock, let pieces = nodes[index].pieces else { continue }
                candidates.append(index)
                for piece in pieces {
                    switch piece {
                    case .open("details", _): depth += 1
                    case .close("details"): depth -= 1
                    case .open("summary", _): if depth == 0 { sound = false }
                    default: break
                    }
                    if depth < 0 { sound = false }
                }
            case .heading:
                // Sections are never hidden.
                if depth > 0 { sound = false }
            case .code(let id):
                if depth > 0 { hidden.insert(id) }
            }
        }
        if sound, depth == 0 {
            allowed += candidates
            inDetails = hidden
        }
        return allowed
    }

    /// Inline tags, paragraph by paragraph: a paragraph's pass when they close what they open.
    private static func balancedInlineTags(_ nodes: [LessonReading.HTMLNode]) -> [Int] {
        var allowed: [Int] = []
        var byParent: [Int: [Int]] = [:]
        var parents: [Int] = []
        for (index, node) in nodes.enumerated() where !node.isBlock {
            if byParent[node.parent] == nil { parents.append(node.parent) }
            byParent[node.parent, default: []].append(index)
        }
        for parent in parents {
            let indices = byParent[parent]!
            var open: [String] = []
            var balanced = true
            for index in indices {
                guard let piece = nodes[index].pieces?.first else { balanced = false; break }
                switch piece {
                case .open(let name, _) where AllowedHTML.voidNames.contains(name): break
                case .open(let name, _): open.append(name)
                case .close(let name): if open.popLast() != name { balanced = false }
                case .text: balanced = false
                }
            }
            if balanced, open.isEmpty { allowed += indices }
        }
        return allowed
    }
}
