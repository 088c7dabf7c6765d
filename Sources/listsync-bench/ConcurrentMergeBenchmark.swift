import Foundation
import ListSync

/// Two replicas share N rows, each does N/2 random operations (40% insert, 40% move, 20% delete,
/// one transaction each), then they exchange `changes(since:)` both ways.
enum ConcurrentMergeBenchmark {
    /// One side's operations, generated against its own local copy, and what they did.
    struct Side {
        var operations: [RowOperation<Int>] = []
        var inserted = Set<Int>()
        var deleted = Set<Int>()
    }

    static func side(_ index: Int, base: [Int], count: Int, using generator: inout SplitMix64) -> Side {
        var side = Side()
        var rows = base
        var next = base.count + index
        for _ in 0..<count {
            let roll = Double.random(in: 0..<1, using: &generator)
            let operation: RowOperation<Int>
            if roll < 0.4 || rows.count < 2 {
                operation = .insert(index: Int.random(in: 0...rows.count, using: &generator), values: [next])
                side.inserted.insert(next)
                next += 2
            } else if roll < 0.8 {
                operation = .move(
                    from: Int.random(in: 0..<rows.count, using: &generator),
                    to: Int.random(in: 0..<rows.count, using: &generator))
            } else {
                let index = Int.random(in: 0..<rows.count, using: &generator)
                side.deleted.insert(rows[index])
                operation = .delete(index: index, count: 1)
            }
            operation.apply(to: &rows)
            side.operations.append(operation)
        }
        return side
    }

    static func run(rows count: Int, repeats: Int, seed: UInt64) throws -> JSONObject {
        var generator = SplitMix64(seed: seed)
        let base = Array(0..<count)
        let sides = [
            side(0, base: base, count: count / 2, using: &generator),
            side(1, base: base, count: count / 2, using: &generator),
        ]
        let snapshot = ListBenchmark.baseSnapshot(base)
        var replicas: [ReplicatedList<Int>] = []
        var bytes = (0, 0)
        var localSamples: [Double] = []
        let merge = try Measurement.repeated("concurrent-merge", count: repeats) { _ in
            let a: ReplicatedList<Int> = try ListBenchmark.replica(loading: snapshot, id: 1)
            let b: ReplicatedList<Int> = try ListBenchmark.replica(loading: snapshot, id: 2)
            let start = a.versionVector
            localSamples.append(
                Measurement.seconds {
                    for operation in sides[0].operations { operation.apply(to: a) }
                    for operation in sides[1].operations { operation.apply(to: b) }
                }.0)
            let fromA = a.changes(since: start).encoded()
            let fromB = b.changes(since: start).encoded()
            bytes = (fromA.count, fromB.count)
            replicas = [a, b]
            return try Measurement.seconds {
                try b.merge(ChangeSet(decoding: fromA))
                try a.merge(ChangeSet(decoding: fromB))
            }.0
        }
        let (a, b) = (replicas[0], replicas[1])
        let values = a.map(\.value)
        var counts: [Int: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        let deleted = sides[0].deleted.union(sides[1].deleted)
        let expected = Set(base).union(sides[0].inserted).union(sides[1].inserted).subtracting(deleted)
        let present = Set(values)
        var result = JSONObject()
        result["bench"] = "concurrent-merge"
        result.set("ops", sides[0].operations.count + sides[1].operations.count)
        result.set("local_apply_s", Measurement.Timing(localSamples).median)
        result.set("merge_s", merge)
        result.set("bytes_a_to_b", bytes.0)
        result.set("bytes_b_to_a", bytes.1)
        result.set("converged", values == b.map(\.value) && a.map(\.id) == b.map(\.id))
        result.set("final_rows", values.count)
        result.set("duplicates", counts.values.reduce(0) { $0 + max(0, $1 - 1) })
        result.set("lost", expected.subtracting(present).count)
        result.set("resurrected", present.intersection(deleted).count)
        let keys = KeyStatistics(a)
        result.set("key_bytes_avg", keys.average)
        result.set("key_bytes_max", keys.maximum)
        return result
    }
}
