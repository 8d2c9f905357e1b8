import CourseModel

/// An `OutputPattern` held against the lines a program printed: whether it stands for them,
/// and the block `--update` writes when it does not. Pure and bounded: every comparison of a
/// character or a line spends a step of a budget, and a match that would need more answers
/// `.tooCostly` instead of running on (a lesson from a stranger can hold a pattern written to
/// make a backtracking matcher take years; none here backtracks more than the classic
/// wildcard walk, quadratic at worst, and the budget cuts even that short).
package enum PatternMatch {
    /// What the comparison came to.
    package enum Verdict: Sendable, Equatable {
        case matches
        case differs
        /// The budget ran out before the answer: the block's patterns are too costly for this output.
        case tooCostly
    }

    /// Steps one comparison may take: a character compared in a glob, a line compared, a
    /// cell of the alignment. Ten million is a fraction of a second, and far more than any
    /// real block needs (a thousand-line output against a hundred patterns takes ~10^5).
    package static let defaultBudget = 10_000_000

    /// The steps left; `spend` says false once they are gone.
    package struct Budget: Sendable {
        package private(set) var remaining: Int
        package init(_ steps: Int = PatternMatch.defaultBudget) { remaining = steps }
        package var isSpent: Bool { remaining < 0 }
        @inline(__always) mutating func spend(_ steps: Int = 1) -> Bool {
            remaining -= steps
            return remaining >= 0
        }
    }

    // MARK: Lines

    /// Characters as the walk compares them: a character of one Unicode scalar is its value, any
    /// other (a letter and its combining marks, a flag) a number of its own by its bytes, so
    /// that characters compare byte for byte (two spellings of "é" are two characters) and as
    /// cheaply as integers. The wildcards are numbers no character has.
    struct CharacterCodes {
        static let anyRun = Int.min, oneCharacter = Int.min + 1
        private var clusters: [[UInt8]: Int] = [:]

        mutating func code(_ character: Character) -> Int {
            let scalars = character.unicodeScalars
            if scalars.count == 1 { return Int(scalars.first!.value) }
            let bytes = Array(character.utf8)
            if let known = clusters[bytes] { return known }
            let code = -1 - clusters.count
            clusters[bytes] = code
            return code
        }

        mutating func codes(_ text: Substring) -> [Int] { text.map { code($0) } }

        mutating func tokens(_ pieces: [OutputPattern.GlobPiece]) -> [Int] {
            var tokens: [Int] = []
            for piece in pieces {
                switch piece {
                case .text(let text): tokens += codes(text[...])
                case .anyRun: tokens.append(Self.anyRun)
                case .oneCharacter: tokens.append(Self.oneCharacter)
                }
            }
            return tokens
        }
    }

    /// The pattern's lines and the output's, each read once for the comparisons of a block
    /// (a glob's tokens, a line's characters), whatever the number of comparisons.
    struct LineTable {
        let pattern: [OutputPattern.Line]
        let actual: [Substring]
        private var codes = CharacterCodes()
        private var globs: [[Int]?] = []
        private var characters: [[Int]?]

        init(_ pattern: [OutputPattern.Line], _ actual: [Substring]) {
            self.pattern = pattern
            self.actual = actual
            characters = Array(repeating: nil, count: actual.count)
            for line in pattern {
                if case .glob(let pieces) = line.kind { globs.append(codes.tokens(pieces)) } else { globs.append(nil) }
            }
        }

        /// Whether pattern line `p` stands for output line `a` (`...` stands for any); nil
        /// when the budget ran out.
        mutating func matches(_ p: Int, _ a: Int, budget: inout Budget) -> Bool? {
            switch pattern[p].kind {
            case .anyLines:
                return true
            case .literal:
                guard budget.spend(1 + pattern[p].text.utf8.count / 64) else { return nil }
                return sameBytes(pattern[p].text[...], actual[a])
            case .glob:
                if characters[a] == nil {
                    guard budget.spend(1 + actual[a].utf8.count) else { return nil }
                    characters[a] = codes.codes(actual[a])
                }
                return PatternMatch.glob(globs[p]!, matches: characters[a]!, budget: &budget)
            }
        }
    }

    /// Whether one line of a pattern stands for one line of output (`...` stands for any).
    /// Nil when the budget ran out.
    package static func line(_ pattern: OutputPattern.Line, matches actual: Substring, budget: inout Budget) -> Bool? {
        var table = LineTable([pattern], [actual])
        return table.matches(0, 0, budget: &budget)
    }

    /// A glob against a line's characters: the wildcard walk that goes back only to the last
    /// `*` (the leftmost match of what follows a `*` is never worse than a later one), so
    /// characters × pattern length at worst.
    static func glob(_ tokens: [Int], matches line: [Int], budget: inout Budget) -> Bool? {
        var t = 0, c = 0
        var star = -1, resume = 0
        while c < line.count {
            guard budget.spend() else { return nil }
            if t < tokens.count {
                let token = tokens[t]
                if token == CharacterCodes.anyRun {
                    star = t
                    resume = c
                    t += 1
                    continue
                }
                if token == CharacterCodes.oneCharacter || token == line[c] {
                    t += 1
                    c += 1
                    continue
                }
            }
            guard star >= 0 else { return false }
            t = star + 1
            resume += 1
            c = resume
        }
        while t < tokens.count, tokens[t] == CharacterCodes.anyRun { t += 1 }
        return t == tokens.count
    }

    // MARK: Blocks

    /// Whether the pattern stands for the output's lines: in order, `...` standing for any run
    /// of lines; or, `unordered`, as a multiset (`...` then lets other lines be).
    package static func compare(_ pattern: OutputPattern, _ actual: [Substring], budget: Int = defaultBudget) -> Verdict {
        var budget = Budget(budget)
        let result = pattern.unordered ? unorderedPairs(pattern, actual, budget: &budget)?.isComplete
                                       : ordered(pattern.lines, actual, budget: &budget)
        guard let result else { return .tooCostly }
        return result ? .matches : .differs
    }

    /// In order: the walk of `glob`, one level up (a `...` is a `*`, a line a character).
    static func ordered(_ lines: [OutputPattern.Line], _ actual: [Substring], budget: inout Budget) -> Bool? {
        var table = LineTable(lines, actual)
        var p = 0, a = 0
        var star = -1, resume = 0
        while a < actual.count {
            guard budget.spend() else { return nil }
            if p < lines.count {
                if lines[p].isAnyLines {
                    star = p
                    resume = a
                    p += 1
                    continue
                }
                guard let same = table.matches(p, a, budget: &budget) else { return nil }
                if same {
                    p += 1
                    a += 1
                    continue
                }
            }
            guard star >= 0 else { return false }
            p = star + 1
            resume += 1
            a = resume
        }
        while p < lines.count, lines[p].isAnyLines { p += 1 }
        return p == lines.count
    }

    /// An unordered block's lines paired with the output's: as many pattern lines as can be
    /// each given a line of its own. Literal lines take equal lines first (any equal line
    /// serves a glob as well as another), then the globs share what is left by augmenting
    /// paths (a maximum bipartite matching, each distinct line with its count).
    struct UnorderedPairs {
        /// For each pattern line, the index of the output line it stands for; nil for a line
        /// left without one (and for `...`).
        var partner: [Int?]
        /// Output lines no pattern line stands for, in output order.
        var leftOver: [Int]
        /// The pattern's `...` lines.
        var anyLines: Set<Int>

        /// Every line of the pattern has its own line of output, and every line of output its
        /// pattern line (unless a `...` lets the others be).
        var isComplete: Bool {
            partner.indices.allSatisfy { partner[$0] != nil || anyLines.contains($0) }
                && (!anyLines.isEmpty || leftOver.isEmpty)
        }
    }

    static func unorderedPairs(_ pattern: OutputPattern, _ actual: [Substring], budget: inout Budget) -> UnorderedPairs? {
        guard let output = DistinctLines(actual, budget: &budget) else { return nil }
        var free = output.holders.map { $0.count }
        var anyLines: Set<Int> = []
        // Literal lines first: the equal lines are theirs alone.
        var globs: [Int] = []
        var distinctOf: [Int?] = Array(repeating: nil, count: pattern.lines.count)
        for (index, line) in pattern.lines.enumerated() {
            switch line.kind {
            case .anyLines: anyLines.insert(index)
            case .glob: globs.append(index)
            case .literal:
                guard budget.spend(1 + line.text.utf8.count / 64) else { return nil }
                if let known = output.slot[Array(line.text.utf8)], free[known] > 0 {
                    free[known] -= 1
                    distinctOf[index] = known
                }
            }
        }
        guard let globLine = matchedGlobs(globs, of: pattern, to: output.texts, free: free, budget: &budget) else { return nil }
        for (slot, index) in globs.enumerated() { distinctOf[index] = globLine[slot] }
        return output.pairs(distinctOf, anyLines: anyLines)
    }

    /// The output's distinct lines (by bytes), each with the indices of the lines that hold it.
    private struct DistinctLines {
        /// A line's bytes to its place in `holders` and `texts`.
        var slot: [[UInt8]: Int] = [:]
        var holders: [[Int]] = []
        var texts: [Substring] = []

        /// Nil when the budget runs out.
        init?(_ actual: [Substring], budget: inout Budget) {
            for (index, line) in actual.enumerated() {
                guard budget.spend(1 + line.utf8.count / 64) else { return nil }
                let key = Array(line.utf8)
                if let known = slot[key] {
                    holders[known].append(index)
                } else {
                    slot[key] = holders.count
                    holders.append([index])
                    texts.append(line)
                }
            }
        }

        /// Each distinct line's holders handed out in output order to the pattern lines that
        /// stand for it (`distinctOf`, by pattern line); the holders left are the left-over lines.
        func pairs(_ distinctOf: [Int?], anyLines: Set<Int>) -> UnorderedPairs {
            var partnerOf: [Int?] = Array(repeating: nil, count: distinctOf.count)
            var next = Array(repeating: 0, count: texts.count)
            for index in distinctOf.indices {
                guard let known = distinctOf[index] else { continue }
                partnerOf[index] = holders[known][next[known]]
                next[known] += 1
            }
            var leftOver: [Int] = []
            for (known, lines) in holders.enumerated() { leftOver += lines[next[known]...] }
            leftOver.sort()
            return UnorderedPairs(partner: partnerOf, leftOver: leftOver, anyLines: anyLines)
        }
    }

    /// For each glob (`globs`: pattern line indices), the distinct output line it stands for,
    /// or nil: which lines each could stand for, then augmenting paths over the `free` count
    /// of each line the literal lines left; nil when the budget runs out.
    private static func matchedGlobs(_ globs: [Int], of pattern: OutputPattern, to texts: [Substring],
                                     free: [Int], budget: inout Budget) -> [Int?]? {
        var table = LineTable(pattern.lines, texts)
        var candidates: [[Int]] = []
        for index in globs {
            var found: [Int] = []
            for lineIndex in texts.indices where free[lineIndex] > 0 {
                guard let same = table.matches(index, lineIndex, budget: &budget) else { return nil }
                if same { found.append(lineIndex) }
            }
            candidates.append(found)
        }
        var assigned: [[Int]] = Array(repeating: [], count: texts.count)   // glob slots per distinct line
        var globLine: [Int?] = Array(repeating: nil, count: globs.count)
        func augment(_ glob: Int, _ seen: inout [Bool], _ budget: inout Budget) -> Bool? {
            for lineIndex in candidates[glob] where !seen[lineIndex] {
                guard budget.spend() else { return nil }
                seen[lineIndex] = true
                if assigned[lineIndex].count < free[lineIndex] {
                    assigned[lineIndex].append(glob)
                    globLine[glob] = lineIndex
                    return true
                }
                for (slot, other) in assigned[lineIndex].enumerated() {
                    guard let moved = augment(other, &seen, &budget) else { return nil }
                    if moved {
                        assigned[lineIndex][slot] = glob
                        globLine[glob] = lineIndex
                        return true
                    }
                }
            }
            return false
        }
        for glob in globs.indices {
            var seen = Array(repeating: false, count: texts.count)
            guard augment(glob, &seen, &budget) != nil else { return nil }
        }
        return globLine
    }

    // MARK: What --update writes

    /// The block that stands for `actual`, keeping every line of the pattern that still
    /// matches: in order, the alignment of the pattern's lines with the output's that keeps
    /// the most (a `...` goes on standing for the lines around it; a line that no longer
    /// matches gives way to the line printed in its place; a line printed where the pattern
    /// has none is written out); unordered, the lines that kept a partner stay where they are,
    /// those that lost theirs give way to the lines left over, and the rest of those follow.
    /// Lines written out are written so that they stand for themselves only
    /// (`OutputPattern.literalLine`). When even that is too costly, the output itself, so
    /// written.
    package static func rewritten(_ pattern: OutputPattern, toStandFor actual: [Substring], budget: Int = defaultBudget) -> [String] {
        var budget = Budget(budget)
        let kept = pattern.unordered ? unorderedRewrite(pattern, actual, budget: &budget)
                                     : orderedRewrite(pattern.lines, actual, budget: &budget)
        return kept ?? actual.map { OutputPattern.literalLine(String($0)) }
    }

    /// The largest alignment table `orderedRewrite` fills (pattern lines × output lines).
    static let alignmentCells = 4_000_000

    /// Edit costs: keeping a line that matches is free, a `...` standing for one more line
    /// costs a little (so that a line that no longer matches gives way to the line printed
    /// in its place rather than to a `...` before it), and dropping, writing or replacing a
    /// line costs much more.
    static let absorbCost: Int32 = 1, changeCost: Int32 = 10

    static func orderedRewrite(_ lines: [OutputPattern.Line], _ actual: [Substring], budget: inout Budget) -> [String]? {
        let rows = lines.count + 1, columns = actual.count + 1
        guard rows.multipliedReportingOverflow(by: columns).partialValue <= alignmentCells,
              budget.spend(rows * columns) else { return nil }
        // Which line stands for which (computed once; `...` needs none).
        var same = [Bool](repeating: false, count: lines.count * actual.count)
        var table = LineTable(lines, actual)
        for p in lines.indices where !lines[p].isAnyLines {
            for a in actual.indices {
                guard let matches = table.matches(p, a, budget: &budget) else { return nil }
                same[p * actual.count + a] = matches
            }
        }
        // cost[p][a]: the least cost of standing for actual[a...] with lines[p...].
        var cost = [Int32](repeating: 0, count: rows * columns)
        func at(_ p: Int, _ a: Int) -> Int32 { cost[p * columns + a] }
        for p in stride(from: lines.count, through: 0, by: -1) {
            for a in stride(from: actual.count, through: 0, by: -1) {
                let value: Int32
                if p == lines.count {
                    value = Int32(actual.count - a) * changeCost
                } else if lines[p].isAnyLines {
                    value = a == actual.count ? at(p + 1, a) : min(at(p + 1, a), absorbCost + at(p, a + 1))
                } else if a == actual.count {
                    value = changeCost + at(p + 1, a)
                } else {
                    var best = min(changeCost + at(p + 1, a + 1), changeCost + at(p + 1, a), changeCost + at(p, a + 1))
                    if same[p * actual.count + a] { best = min(best, at(p + 1, a + 1)) }
                    value = best
                }
                cost[p * columns + a] = value
            }
        }
        // Walk the cheapest path, preferring to keep, then to replace.
        var written: [String] = []
        var p = 0, a = 0
        while p < lines.count || a < actual.count {
            let here = at(p, a)
            if p == lines.count {
                written.append(OutputPattern.literalLine(String(actual[a]))); a += 1
            } else if lines[p].isAnyLines {
                // Where ending it and standing for one more line cost the same, it ends.
                if here == at(p + 1, a) {
                    written.append(lines[p].text); p += 1
                } else {
                    a += 1
                }
            } else if a == actual.count {
                p += 1
            } else if same[p * actual.count + a], here == at(p + 1, a + 1) {
                written.append(lines[p].text); p += 1; a += 1
            } else if here == changeCost + at(p + 1, a + 1) {
                written.append(OutputPattern.literalLine(String(actual[a]))); p += 1; a += 1
            } else if here == changeCost + at(p + 1, a) {
                p += 1
            } else {
                written.append(OutputPattern.literalLine(String(actual[a]))); a += 1
            }
        }
        return written
    }

    static func unorderedRewrite(_ pattern: OutputPattern, _ actual: [Substring], budget: inout Budget) -> [String]? {
        guard let pairs = unorderedPairs(pattern, actual, budget: &budget) else { return nil }
        var leftOver = pairs.leftOver
        var written: [String] = []
        for (index, line) in pattern.lines.enumerated() {
            if line.isAnyLines || pairs.partner[index] != nil {
                written.append(line.text)
                continue
            }
            // A line that lost its partner gives way to the line left over most like it (the
            // longest common start; the first printed of equals), so that `apples: 3` become
            // `apples: 4` whatever order the run printed in.
            var best: Int?, bestLength = -1
            for (slot, candidate) in leftOver.enumerated() {
                guard budget.spend(1 + line.text.utf8.count / 16) else { return nil }
                let length = zip(line.text.utf8, actual[candidate].utf8).prefix { $0 == $1 }.count
                if length > bestLength { best = slot; bestLength = length }
            }
            if let best { written.append(OutputPattern.literalLine(String(actual[leftOver.remove(at: best)]))) }
        }
        // The rest is written out, unless a `...` stands for it.
        if pairs.anyLines.isEmpty { written += leftOver.map { OutputPattern.literalLine(String(actual[$0])) } }
        return written
    }
}
