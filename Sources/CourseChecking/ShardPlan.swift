import CourseModel

/// `--shard K/N`: which scenarios each of N machines runs. The split depends on the course's
/// text alone (never on a cache or a clock), so that every job of a CI matrix computes the
/// same one, and it balances the work: a scenario that needs a program of its own costs a
/// compile of its own (about 0.3 s), one that is batched costs a small share of one.
package enum ShardPlan {
    /// The estimated cost of a scenario, in units of about 10 ms.
    package static func cost(_ shape: ScenarioShape, lines: Int) -> Int {
        shape.needsOwnProgram ? 30 + lines / 10 : 1 + lines / 20
    }

    /// The shard (0-based) of each scenario, given their costs in course order: the costliest
    /// first, each to the shard with the least work so far (the lowest-numbered one among
    /// equals), which keeps the shards within one scenario's cost of each other.
    package static func assign(costs: [Int], shards count: Int) -> [Int] {
        precondition(count >= 1)
        var load = [Int](repeating: 0, count: count)
        var assignment = [Int](repeating: 0, count: costs.count)
        let order = costs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        for index in order {
            let lightest = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            assignment[index] = lightest
            load[lightest] += costs[index]
        }
        return assignment
    }
}
