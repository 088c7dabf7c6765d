import ListSync

/// Pairs of replicas with random IDs that fill one gap of a shared list concurrently, each with a
/// forward run (typing: every insert right after the previous one), a backward run (every insert at the
/// same index, before the previous one) or one dropped block; after they merge both ways, counts the
/// pairs whose rows interleave (DESIGN.md requires none; issue 23's target is 0 at 100,000 pairs).
enum InterleaveBenchmark {
    /// How a replica fills the gap.
    enum Fill: String, CaseIterable {
        case forward, backward, block
    }

    /// The two replicas of a pair differ after merging both ways: a convergence bug, not interleaving.
    struct Diverged: Error, CustomStringConvertible {
        let pair: Int
        var description: String { "pair \(pair): the replicas differ after merging both ways" }
    }

    static func run(pairs: Int, seed: UInt64) throws -> JSONObject {
        var generator = SplitMix64(seed: seed)
        var interleaved: [String: Int] = [:]
        for pair in 0..<pairs {
            if pair > 0 && pair % 20_000 == 0 { Measurement.progress("interleave: \(pair) of \(pairs) pairs") }
            let baseCount = Int(generator.next() % 6) + 1
            let gap = Int(generator.next() % UInt64(baseCount + 1))
            let a = ReplicatedList<Int>(replicaID: ReplicaID(generator.next()))
            let b = ReplicatedList<Int>(replicaID: ReplicaID(generator.next()))
            a.append(contentsOf: (0..<baseCount).map { -1 - $0 })
            try b.merge(a.changes(since: b.versionVector))
            let fills = (Fill.allCases[Int(generator.next() % 3)], Fill.allCases[Int(generator.next() % 3)])
            let aRows = Array(0..<Int(generator.next() % 15 + 2))
            let bRows = Array(1000..<1000 + Int(generator.next() % 15 + 2))
            fill(a, with: aRows, at: gap, fills.0)
            fill(b, with: bRows, at: gap, fills.1)
            try a.merge(b.changes(since: a.versionVector))
            try b.merge(a.changes(since: b.versionVector))
            let rows = a.map(\.value)
            guard rows == b.map(\.value) else { throw Diverged(pair: pair) }
            if !isContiguous(aRows, in: rows) || !isContiguous(bRows, in: rows) {
                interleaved["\(fills.0.rawValue)-\(fills.1.rawValue)", default: 0] += 1
            }
        }
        var result = JSONObject()
        result["bench"] = "interleave"
        result.set("pairs", pairs)
        result.set("interleaved_pairs", interleaved.values.reduce(0, +))
        for (kinds, count) in interleaved.sorted(by: { $0.key < $1.key }) { result.set("interleaved_" + kinds, count) }
        return result
    }

    /// Inserts `values` into `list` at `index` as `fill` says.
    private static func fill(_ list: ReplicatedList<Int>, with values: [Int], at index: Int, _ fill: Fill) {
        switch fill {
        case .forward: for (offset, value) in values.enumerated() { list.insert(value, at: index + offset) }
        case .backward: for value in values { list.insert(value, at: index) }
        case .block: list.insert(contentsOf: values, at: index)
        }
    }

    /// Whether every value of `run` is in `rows` and they stand next to each other.
    private static func isContiguous(_ run: [Int], in rows: [Int]) -> Bool {
        let members = Set(run)
        let positions = rows.indices.filter { members.contains(rows[$0]) }
        return positions.count == run.count && positions.last! - positions.first! == run.count - 1
    }
}
