import CourseModel
import Foundation

/// The index of each view's parent, and whether a written tree can be drawn: what a diagram
/// reads into the model's `WrittenTree`.
extension WrittenTree {
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
}

/// The classifier's change lines, read back: the one place that knows their format,
/// `<label>: <key> degisti | yeniden <view> <cause>, ... | atlanan <view>,...` (a list that is
/// empty prints as `yok`).
extension MeasuredChange {
    /// The change lines of an output, in order; other lines are passed over.
    package static func all(in output: String) -> [MeasuredChange] {
        // A line feed is a character of its own unless a carriage return comes before it (CR LF
        // is one character, and splitting on characters does not end a line there): without a
        // carriage return, the lines end at the line feed bytes, found without reading
        // characters. A warm check reads every output of the course here.
        let byBytes = output.utf8.withContiguousStorageIfAvailable { bytes -> [MeasuredChange]? in
            guard !bytes.contains(UInt8(ascii: "\r")) else { return nil }
            var found: [MeasuredChange] = []
            var start = 0
            var number = 1
            while true {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let change: MeasuredChange?
                if line.allSatisfy({ $0 < 0x80 }) {
                    change = parse(ascii: line, outputLine: number)
                } else {
                    let utf8 = output.utf8
                    change = parse(text: output[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)],
                                   outputLine: number)
                }
                if let change { found.append(change) }
                guard end < bytes.count else { break }
                start = end + 1
                number += 1
            }
            return found
        }
        if let found = byBytes ?? nil { return found }
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
        var line = line
        if let change = line.withUTF8({ bytes in
            bytes.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") } ? parse(ascii: bytes, outputLine: outputLine) : nil
        }) {
            return change
        }
        return parse(text: line, outputLine: outputLine)
    }

    /// `parse` on characters: the words of a line are apart where a space or comma character
    /// stands, and a space followed by a combining mark is one character, not a space.
    package static func parse(text line: Substring, outputLine: Int) -> MeasuredChange? {
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

    /// `parse` of a line of ASCII bytes without a carriage return: each byte is a character of
    /// its own there, so the words are apart at space and comma bytes, read without building a
    /// character or a substring. It answers exactly as `parse(text:)` does.
    static func parse(ascii line: UnsafeBufferPointer<UInt8>, outputLine: Int) -> MeasuredChange? {
        let space = UInt8(ascii: " ")
        guard let changed = find(changed, in: line, 0..<line.count),
              let skippedAt = find(skippedMark, in: line, 0..<line.count, last: true),
              changed.upperBound <= skippedAt.lowerBound,
              let colon = find(": ", in: line, 0..<changed.lowerBound, last: true) else { return nil }
        let labelBytes = 0..<colon.lowerBound
        let keyBytes = colon.upperBound..<changed.lowerBound
        guard !labelBytes.isEmpty, !keyBytes.isEmpty, !line[keyBytes].contains(space) else { return nil }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self) }
        func isNone(_ range: Range<Int>) -> Bool { line[range].elementsEqual("yok".utf8) }

        var recomputed: [RecomputedView] = []
        let recomputedBytes = changed.upperBound..<skippedAt.lowerBound
        if !isNone(recomputedBytes) {
            var rest = recomputedBytes
            while true {
                let separator = find(", ", in: line, rest)
                let entry = rest.lowerBound..<(separator?.lowerBound ?? rest.upperBound)
                guard let gap = line[entry].firstIndex(of: space), gap > entry.lowerBound, gap + 1 < entry.upperBound,
                      !line[(gap + 1)..<entry.upperBound].contains(space) else { return nil }
                recomputed.append(RecomputedView(view: text(entry.lowerBound..<gap), cause: text((gap + 1)..<entry.upperBound)))
                guard let separator else { break }
                rest = separator.upperBound..<rest.upperBound
            }
        }
        var skipped: [String] = []
        let skippedBytes = skippedAt.upperBound..<line.count
        if !isNone(skippedBytes) {
            var start = skippedBytes.lowerBound
            while true {
                let end = line[start..<skippedBytes.upperBound].firstIndex(of: UInt8(ascii: ",")) ?? skippedBytes.upperBound
                guard end > start, !line[start..<end].contains(space) else { return nil }
                skipped.append(text(start..<end))
                guard end < skippedBytes.upperBound else { break }
                start = end + 1
            }
        }
        return MeasuredChange(label: text(labelBytes), key: text(keyBytes), recomputed: recomputed, skipped: skipped,
                              outputLine: outputLine)
    }

    /// Where the ASCII text `needle` stands among `bytes[range]` (its first place, or its `last`).
    private static func find(_ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                             last: Bool = false) -> Range<Int>? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard pattern.count > 0, range.count >= pattern.count else { return nil }
        let starts = range.lowerBound...(range.upperBound - pattern.count)
        func matches(_ start: Int) -> Bool {
            guard bytes[start] == pattern[0] else { return false }
            for offset in 1..<pattern.count where bytes[start + offset] != pattern[offset] { return false }
            return true
        }
        let found = last ? starts.reversed().first(where: matches) : starts.first(where: matches)
        return found.map { $0..<($0 + pattern.count) }
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

/// The sections of an output (its `-- title --` lines), and the text a drawing's cache key is
/// made from.
extension ChangeDiagram {
    /// The title of an output line that starts a section, `-- ortamla --` (the way a scenario
    /// prints what it measures next); nil for any other line.
    package static func sectionTitle(ofLine line: Substring) -> String? {
        let trimmed = line.trimmingSuffix(while: { $0 == " " || $0 == "\r" })
        guard trimmed.hasPrefix("-- "), trimmed.hasSuffix(" --"), trimmed.count > 6 else { return nil }
        let title = trimmed.dropFirst(3).dropLast(3).trimmingSuffix(while: { $0 == " " })
        let inner = title.drop { $0 == " " }
        return inner.isEmpty ? nil : String(inner)
    }

    /// The sections of an output: each `-- title --` line's number (from 1) and title.
    package static func sections(in output: String) -> [(line: Int, title: String)] {
        guard output.containsBytes("-- "), output.contains("-- ") else { return [] }
        return output.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            sectionTitle(ofLine: line).map { (index + 1, $0) }
        }
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
        text += "section \(section ?? "\u{0}")\n"
        text += "change \(change.label)\t\(change.key)\n"
        for view in change.recomputed { text += "recomputed \(view.view)\t\(view.cause)\n" }
        text += "skipped \(change.skipped.joined(separator: "\t"))\n"
        return text
    }
}

extension Substring {
    /// The text without the characters at its end that `drop` accepts.
    func trimmingSuffix(while drop: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
