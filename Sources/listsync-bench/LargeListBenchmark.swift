import ListSync

/// Random single-row inserts, moves and deletes on a list of a million rows: each measured alone.
enum LargeListBenchmark {
    /// The operations measured, each alone.
    enum Kind: String, CaseIterable {
        case insert, move, delete
    }

    static func run(rows count: Int, operations: Int, repeats: Int, seed: UInt64) throws -> JSONObject {
        let snapshot = ListBenchmark.baseSnapshot(Array(0..<count))
        var result = JSONObject()
        result["bench"] = "large"
        result.set("rows", count)
        result.set("ops", operations)
        for kind in Kind.allCases {
            var generator = SplitMix64(seed: seed)
            let timing = try Measurement.repeated("large \(kind.rawValue)", count: repeats) { _ in
                let list: ReplicatedList<Int> = try ListBenchmark.replica(loading: snapshot, id: 1)
                let indexes = (0..<operations).map { _ in Int.random(in: 0..<(count - operations), using: &generator) }
                let destinations = (0..<operations).map { _ in
                    Int.random(in: 0..<(count - operations), using: &generator)
                }
                let elapsed = Measurement.seconds {
                    apply(kind, at: indexes, to: destinations, on: list, count: count)
                }.0
                precondition(list.count == count + (kind == .insert ? operations : kind == .delete ? -operations : 0))
                return elapsed
            }
            result.set("\(kind.rawValue)_ops_per_s", Int(Double(operations) / timing.median))
            result.set("\(kind.rawValue)_s", timing)
        }
        return result
    }

    /// The timed loop; out of line so that a profiler can count exactly it
    /// (`valgrind --tool=callgrind --toggle-collect='*LargeListBenchmarkO5apply*'`).
    @inline(never)
    static func apply(
        _ kind: Kind, at indexes: [Int], to destinations: [Int], on list: ReplicatedList<Int>, count: Int
    ) {
        for (index, destination) in zip(indexes, destinations) {
            switch kind {
            case .insert: list.insert(count + index, at: index)
            case .move: list.move(from: index, to: destination)
            case .delete: list.remove(at: index)
            }
        }
    }
}
