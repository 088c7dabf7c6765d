import ListSync

/// Position key growth under the patterns of `../shared/anchors/fracindex_bench.py`.
enum KeysBenchmark {
    static let patterns = ["append", "prepend", "after-first", "before-last", "random", "drag-to-top", "random-move"]

    static func run(pattern: String, operations: Int, seed: UInt64) throws -> JSONObject {
        guard patterns.contains(pattern) else {
            throw UsageError("unknown key pattern '\(pattern)'; one of \(patterns.joined(separator: ", "))")
        }
        var generator = SplitMix64(seed: seed)
        let list = ReplicatedList<Int>(replicaID: ReplicaID(1))
        if pattern == "drag-to-top" || pattern == "random-move" {
            list.append(contentsOf: Array(0..<1_000))
        }
        for step in 0..<operations {
            let value = step
            switch pattern {
            case "append": list.append(value)
            case "prepend": list.insert(value, at: 0)
            case "after-first": list.insert(value, at: min(1, list.count))
            case "before-last": list.insert(value, at: max(0, list.count - 1))
            case "random": list.insert(value, at: Int.random(in: 0...list.count, using: &generator))
            case "drag-to-top": list.move(fromOffsets: [list.count - 1], toOffset: 0)
            default:
                list.move(
                    fromOffsets: [Int.random(in: 0..<list.count, using: &generator)],
                    toOffset: Int.random(in: 0...list.count, using: &generator))
            }
        }
        let keys = KeyStatistics(list)
        var result = JSONObject()
        result["bench"] = "keys"
        result["pattern"] = pattern
        result.set("ops", operations)
        result.set("rows", list.count)
        result.set("key_bytes_avg", keys.average)
        result.set("key_bytes_p99", keys.percentile99)
        result.set("key_bytes_max", keys.maximum)
        return result
    }
}
