import CourseModel

/// A line diff of two texts, shown as a unified diff (`--- expected`, `+++ actual`, `@@` hunks).
package enum LineDiff {
    package enum Edit: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// Beyond this many differing lines the diff stops looking for the shortest script and
    /// shows the rest as removed and added: a runaway output must not make the diff the slow
    /// part of a check.
    static let effortLimit = 2000

    /// The edits that turn `old` into `new`: common prefix and suffix first, then Myers'
    /// shortest edit script for the middle.
    package static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let oldMiddle = Array(old[prefix..<old.count - suffix])
        let newMiddle = Array(new[prefix..<new.count - suffix])
        return old[..<prefix].map(Edit.same) + middle(oldMiddle, newMiddle)
            + old[(old.count - suffix)...].map(Edit.same)
    }

    private static func middle(_ a: [String], _ b: [String]) -> [Edit] {
        if a.isEmpty { return b.map(Edit.added) }
        if b.isEmpty { return a.map(Edit.removed) }
        let n = a.count, m = b.count, maxD = min(n + m, effortLimit)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...maxD {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                    ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n, y >= m { found = true; break search }
            }
        }
        guard found else { return a.map(Edit.removed) + b.map(Edit.added) }

        // Walk the trace back from the end to recover the script.
        var edits: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                edits.append(.same(a[x - 1])); x -= 1; y -= 1
            }
            if d > 0 {
                if x == previousX { edits.append(.added(b[y - 1])); y -= 1 }
                else { edits.append(.removed(a[x - 1])); x -= 1 }
            }
        }
        while x > 0, y > 0 { edits.append(.same(a[x - 1])); x -= 1; y -= 1 }
        return edits.reversed()
    }

    /// The index of the first line where the two differ (the shorter count when one is the
    /// start of the other).
    package static func firstDifference(_ a: [String], _ b: [String]) -> Int {
        var index = 0
        while index < a.count, index < b.count, a[index] == b[index] { index += 1 }
        return index
    }

    /// The text's lines; a final line end does not start another line.
    package static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A unified diff with `context` lines around each change; empty when the texts' lines
    /// are equal. The labels are shown with their control characters escaped.
    package static func unified(from old: String, to new: String, oldLabel: String,
                                newLabel: String, context: Int = 3) -> String {
        let script = edits(lines(old), lines(new))
        guard script.contains(where: { if case .same = $0 { return false } else { return true } }) else {
            return ""
        }
        // Group the changes into hunks that share context.
        var hunks: [Range<Int>] = []
        for (index, edit) in script.enumerated() {
            if case .same = edit { continue }
            let range = max(0, index - context)..<min(script.count, index + context + 1)
            if let last = hunks.last, last.upperBound >= range.lowerBound {
                hunks[hunks.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        // A label is one line whatever it holds (a path may hold a line feed): escaped, it
        // cannot end the diff's header and start a line of its own.
        var output = "--- \(escapingControls(oldLabel))\n+++ \(escapingControls(newLabel))\n"
        var marks: Set<Mark> = []
        let oldLines = lines(old).count, newLines = lines(new).count
        for hunk in hunks {
            var oldStart = 1, newStart = 1
            for edit in script[..<hunk.lowerBound] {
                switch edit {
                case .same: oldStart += 1; newStart += 1
                case .removed: oldStart += 1
                case .added: newStart += 1
                }
            }
            var oldCount = 0, newCount = 0, body = ""
            for edit in script[hunk] {
                switch edit {
                case .same(let line):
                    oldCount += 1; newCount += 1; body += " \(visible(line, marks: &marks))\n"
                case .removed(let line):
                    oldCount += 1; body += "-\(visible(line, marks: &marks))\n"
                    if oldStart + oldCount - 1 == oldLines, !old.isEmpty, !old.hasSuffix("\n") { body += noFinalNewline }
                case .added(let line):
                    newCount += 1; body += "+\(visible(line, marks: &marks))\n"
                    if newStart + newCount - 1 == newLines, !new.isEmpty, !new.hasSuffix("\n") { body += noFinalNewline }
                }
            }
            func range(_ start: Int, _ count: Int) -> String {
                count == 1 ? "\(start)" : "\(count == 0 ? start - 1 : start),\(count)"
            }
            output += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n" + body
        }
        if !marks.isEmpty {
            output += "(" + Mark.allCases.filter(marks.contains).map(\.legend).joined(separator: ", ") + ")\n"
        }
        return output
    }

    /// Under the last line of a side that does not end with a line end (as `diff` writes it).
    static let noFinalNewline = "\\ No newline at end of file\n"

    /// A character a reader cannot see in a terminal, and how a changed line shows it.
    enum Mark: CaseIterable {
        case trailingSpace, tab, carriageReturn, noBreakSpace, invisible

        var legend: String {
            switch self {
            case .trailingSpace: "· is a space at the end of a line"
            case .tab: "⇥ a tab"
            case .carriageReturn: "␍ a carriage return"
            case .noBreakSpace: "⍽ a no-break space"
            case .invisible: "<U+…> an invisible character"
            }
        }
    }

    /// A line of the diff with what cannot be seen made visible: spaces at its end, tabs, carriage
    /// returns, no-break spaces and other invisible characters (format characters such as a
    /// zero-width space or a byte-order mark).
    static func visible(_ line: String, marks: inout Set<Mark>) -> String {
        let scalars = Array(line.unicodeScalars)
        var end = scalars.count
        while end > 0, scalars[end - 1] == " " { end -= 1 }
        var shown = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case " " where index >= end:
                marks.insert(.trailingSpace); shown.append("·")
            case "\t":
                marks.insert(.tab); shown.append("⇥")
            case "\r":
                marks.insert(.carriageReturn); shown.append("␍")
            case "\u{00A0}":
                marks.insert(.noBreakSpace); shown.append("⍽")
            case _ where scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .control:
                marks.insert(.invisible)
                shown.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))>".unicodeScalars)
            default:
                shown.append(scalar)
            }
        }
        return String(shown)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
