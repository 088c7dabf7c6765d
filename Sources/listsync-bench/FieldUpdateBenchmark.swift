import Foundation
import ListSync

/// A to-do row: a `Codable` struct of four fields, stored as a JSON object whose fields merge one by one.
struct TodoRow: Codable, Sendable, Equatable {
    var title: String
    var done: Bool
    var note: String
    var priority: Int
}

extension Workload where Value == TodoRow {
    /// N to-do rows, then N edits that each change one field (title, done, note or priority, drawn at
    /// random) of a random row through `updateValue(_:at:)` with the whole struct.
    static func randomFieldUpdate(_ count: Int, using generator: inout SplitMix64) -> Workload {
        var rows = (0..<count).map {
            TodoRow(title: "Task \($0)", done: false, note: "Added with the others, row \($0)", priority: $0 % 4)
        }
        let base = rows
        let operations = (0..<count).map { edit -> RowOperation<TodoRow> in
            let index = Int.random(in: 0..<count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: rows[index].title = "Task \(index), renamed at edit \(edit)"
            case 1: rows[index].done.toggle()
            case 2: rows[index].note = "Changed at edit \(edit)"
            default: rows[index].priority = (rows[index].priority + Int.random(in: 1...3, using: &generator)) % 4
            }
            return .update(index: index, value: rows[index])
        }
        return Workload(base: base, operations: operations, expected: rows)
    }
}

/// `random-field-update N`: the figures of ``ListBenchmark`` for N one-field edits of N to-do rows, plus
/// what the edits cost on the wire against one row's whole value.
enum FieldUpdateBenchmark {
    /// Runs the workload `repeats` times and measures its change sets once.
    static func run(rows count: Int, repeats: Int, seed: UInt64) throws -> JSONObject {
        var generator = SplitMix64(seed: seed)
        let workload = Workload.randomFieldUpdate(count, using: &generator)
        var result = try ListBenchmark.run("random-field-update", workload, repeats: repeats)
        try measureWire(workload, into: &result)
        try measureEncoding(workload, repeats: repeats, into: &result)
        return result
    }

    /// The JSON encoder configured as ListSync's for struct values (sorted keys), so sizes and times match.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The time to JSON-encode the edits' new values once (`json_encode_s`): what any write of a struct
    /// row pays at least, whole or by field, and what `random-update`'s integer rows do not.
    static func measureEncoding(_ workload: Workload<TodoRow>, repeats: Int, into result: inout JSONObject) throws {
        let values = workload.operations.compactMap { operation -> TodoRow? in
            guard case .update(_, let value) = operation else { return nil }
            return value
        }
        let encoder = encoder()
        let encode = try Measurement.repeated("encode", count: repeats) { _ in
            try Measurement.seconds {
                let bytes = try values.reduce(0) { $0 + (try encoder.encode($1)).count }
                precondition(bytes > 0 || values.isEmpty)
            }.0
        }
        result.set("json_encode_s", encode)
    }

    /// Replays the edits on a fresh replica (not timed) and records: the mean size of one row's whole
    /// value (its JSON, as ListSync stores it), the size of the one change set of all edits divided by
    /// their number (what a peer that missed them all receives), and the mean size of each edit's own
    /// change set (what live sync sends after each edit).
    static func measureWire(_ workload: Workload<TodoRow>, into result: inout JSONObject) throws {
        let list: ReplicatedList<TodoRow> = try ListBenchmark.replica(
            loading: ListBenchmark.baseSnapshot(workload.base), id: 1)
        let start = list.versionVector
        var vector = start
        var liveBytes = 0
        for operation in workload.operations {
            operation.apply(to: list)
            liveBytes += list.changes(since: vector).encoded().count
            vector = list.versionVector
        }
        let encoder = encoder()
        let rowBytes = try workload.base.reduce(0) { $0 + (try encoder.encode($1)).count }
        let editsBytes = list.changes(since: start).encoded().count
        let edits = Double(max(1, workload.operations.count))
        result.set("row_value_bytes", Double(rowBytes) / Double(max(1, workload.base.count)))
        result.set("edits_changes_bytes", editsBytes)
        result.set("changes_bytes_per_field_edit", Double(editsBytes) / edits)
        result.set("live_changes_bytes_per_field_edit", Double(liveBytes) / edits)
    }
}
