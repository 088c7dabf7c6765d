import ListSync

/// Random single-row inserts, moves and deletes on a list of a million rows: each measured alone.
enum LargeListBenchmark {
    static func run(rows count: Int, operations: Int, repeats: Int, seed: UInt64) throws -> JSONObject {
        let snapshot = ListBenchmark.baseSnapshot(Array(0..<count))
        var result = JSONObject()
        result["bench"] = "large"
        result.set("rows", count)
        result.set("ops", operations)
        for kind in ["insert", "move", "delete"] {
            var generator = SplitMix64(seed: seed)
            let timing = try Measurement.repeated("large \(kind)", count: repeats) { _ in
                let list: ReplicatedList<Int> = try ListBenchmark.replica(loading: snapshot, id: 1)
                let indexes = (0..<operations).map { _ in Int.random(in: 0..<(count - operations), using: &generator) }
                let destinations = (0..<operations).map { _ in
                    Int.random(in: 0..<(count - operations), using: &generator)
                }
                let elapsed = Measurement.seconds {
                    for (index, destination) in zip(indexes, destinations) {
                        switch kind {
                        case "insert": list.insert(count + index, at: index)
                        case "move": list.move(fromOffsets: [index], toOffset: destination)
                        default: list.remove(at: index)
                        }
                    }
                }.0
                precondition(list.count == count + (kind == "insert" ? operations : kind == "delete" ? -operations : 0))
                return elapsed
            }
            result.set("\(kind)_ops_per_s", Int(Double(operations) / timing.median))
            result.set("\(kind)_s", timing)
        }
        return result
    }
}
