import Foundation
import ListSync

/// Applies a workload to fresh replicas and measures apply time, memory, snapshot and merge.
enum ListBenchmark {
    /// A replica holding `rows`, made from a snapshot as an app would load it (not timed).
    static func replica<Value: Codable & Sendable>(loading snapshot: [UInt8]?, id: UInt64) throws -> ReplicatedList<
        Value
    > {
        guard let snapshot else { return ReplicatedList<Value>(replicaID: ReplicaID(id)) }
        return try ReplicatedList<Value>(snapshot: snapshot, replicaID: ReplicaID(id))
    }

    /// The snapshot of a replica holding `rows` as one block, or nil when there are none.
    static func baseSnapshot<Value: Codable & Sendable>(_ rows: [Value]) -> [UInt8]? {
        guard !rows.isEmpty else { return nil }
        let list = ReplicatedList<Value>(replicaID: ReplicaID(100))
        list.append(contentsOf: rows)
        return list.snapshot()
    }

    /// Runs `workload` `repeats` times on fresh replicas and returns the figures.
    static func run<Value>(_ name: String, _ workload: Workload<Value>, repeats: Int) throws -> JSONObject {
        let expected = workload.referenceResult()
        let base = baseSnapshot(workload.base)
        var list = ReplicatedList<Value>()
        var residentDelta = 0
        let apply = try Measurement.repeated(name, count: repeats) { run in
            if run == 0 { Measurement.releaseFreedMemory() }
            let before = Measurement.residentBytes()
            let fresh: ReplicatedList<Value> = try replica(loading: base, id: 1)
            let (elapsed, _) = Measurement.seconds { applyAll(workload.operations, to: fresh) }
            if run == 0 { residentDelta = Measurement.residentBytes() - before }
            list = fresh
            return elapsed
        }
        let liveDelta = try liveMemoryGrowth(workload, base: base)
        var result = JSONObject()
        result["bench"] = name
        result.set("ops", workload.rowOperationCount)
        result.set("apply_s", apply)
        result.set("ops_per_s", Int(Double(workload.rowOperationCount) / apply.median))
        result.set("correct", list.map(\.value) == expected)
        result.set("rows", list.count)
        try measureSnapshotAndMerge(list, repeats: repeats, into: &result)
        result.set("rss_delta_bytes", residentDelta)
        result.set("rss_delta_bytes_per_row", list.isEmpty ? 0 : residentDelta / list.count)
        result.set("live_bytes_per_row", list.isEmpty ? 0 : liveDelta / list.count)
        let keys = KeyStatistics(list)
        result.set("key_bytes_avg", keys.average)
        result.set("key_bytes_max", keys.maximum)
        return result
    }

    /// The timed loop; out of line so that a profiler can count exactly it
    /// (`valgrind --tool=callgrind --toggle-collect='*ListBenchmarkO8applyAll*'`).
    @inline(never)
    static func applyAll<Value>(_ operations: [RowOperation<Value>], to list: ReplicatedList<Value>) {
        for operation in operations { operation.apply(to: list) }
    }

    /// The resident memory a fresh replica grows by as it takes `workload`, once the allocator has
    /// returned its free pages (on Linux; elsewhere the plain growth): the list's own data, without the
    /// buffers it freed while growing. Measured on an extra untimed run, so that the timed runs do not
    /// fault in the returned pages again.
    static func liveMemoryGrowth<Value>(_ workload: Workload<Value>, base: [UInt8]?) throws -> Int {
        Measurement.releaseFreedMemory()
        let before = Measurement.residentBytes()
        let fresh: ReplicatedList<Value> = try replica(loading: base, id: 1)
        applyAll(workload.operations, to: fresh)
        Measurement.releaseFreedMemory()
        return withExtendedLifetime(fresh) { Measurement.residentBytes() - before }
    }

    /// Snapshot size and load time, and the size and merge time of the full change set.
    static func measureSnapshotAndMerge<Value: Codable & Sendable>(
        _ list: ReplicatedList<Value>, repeats: Int, into result: inout JSONObject
    ) throws {
        let snapshot = list.snapshot()
        result.set("snapshot_bytes", snapshot.count)
        let load = try Measurement.repeated("load", count: repeats) { _ in
            try Measurement.seconds {
                let loaded = try ReplicatedList<Value>(snapshot: snapshot)
                var read = 0
                for row in loaded where (row.rowID?.counter ?? 0) > 0 { read += 1 }
                precondition(read == loaded.count)
            }.0
        }
        result.set("load_s", load.median)
        let changes = list.changes(since: VersionVector()).encoded()
        result.set("changes_bytes", changes.count)
        let merge = try Measurement.repeated("merge", count: repeats) { _ in
            try Measurement.seconds {
                let empty = ReplicatedList<Value>(replicaID: ReplicaID(7))
                try empty.merge(ChangeSet(decoding: changes))
                precondition(empty.count == list.count)
            }.0
        }
        result.set("merge_s", merge.median)
    }
}

/// Average, 99th percentile and maximum key length over a replica's visible rows.
struct KeyStatistics {
    var average: Double = 0
    var percentile99 = 0
    var maximum = 0

    init<Value: Codable & Sendable>(_ list: ReplicatedList<Value>) {
        guard !list.isEmpty else { return }
        let lengths = (0..<list.count).map { list.storedPositionKeyLength(at: $0) }.sorted()
        average = Double(lengths.reduce(0, +)) / Double(lengths.count)
        percentile99 = lengths[min(lengths.count - 1, lengths.count * 99 / 100)]
        maximum = lengths.last ?? 0
    }
}
