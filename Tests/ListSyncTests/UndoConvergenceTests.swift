import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Randomized undo and redo among concurrent edits: three replicas insert, move, delete, edit, drop
/// placeholders and undo and redo, on a few hot rows, while change sets are delayed, reordered,
/// duplicated and lost to partitions. Every undo and redo may change only what its own replica wrote
/// last (it deletes only its own rows, moves only rows whose position it set last, edits only values it
/// wrote last), and once healed and synced every replica shows the same rows.
struct UndoConvergenceTests {
    @Test(arguments: RunSize.seeds("LISTSYNC_UNDO_SEEDS", quick: 8, long: 200))
    func undoNeverTouchesOtherReplicasWorkAndReplicasConverge(seed: UInt64) throws {
        announceSeed(seed, of: "undoNeverTouchesOtherReplicasWorkAndReplicasConverge", replay: "LISTSYNC_UNDO_SEEDS")
        try Self.run(UndoRun<String>(seed: seed), seed: seed)
    }

    /// The same with struct rows, edited and undone field by field: an undo changes only fields its
    /// replica wrote last.
    @Test(arguments: RunSize.seeds("LISTSYNC_UNDO_SEEDS", quick: 8, long: 200))
    func undoOfStructRowsNeverTouchesOtherReplicasFieldsAndReplicasConverge(seed: UInt64) throws {
        announceSeed(
            seed, of: "undoOfStructRowsNeverTouchesOtherReplicasFieldsAndReplicasConverge",
            replay: "LISTSYNC_UNDO_SEEDS")
        try Self.run(UndoRun<Chore>(seed: seed), seed: seed)
    }

    /// Runs `run` for the configured steps, settles it, and checks convergence and violations.
    private static func run<Value: UndoRunValue>(_ run: UndoRun<Value>, seed: UInt64) throws {
        var run = run
        for _ in 0..<RunSize.count("LISTSYNC_UNDO_STEPS", quick: 400, long: 2000) { try run.step() }
        try run.finish()
        let first = run.replicas[0]
        for replica in run.replicas {
            replica._checkInvariants()
            #expect(replica.map(\.id) == first.map(\.id), "seed \(seed)")
            #expect(replica.map(\.value) == first.map(\.value), "seed \(seed)")
        }
        #expect(run.undoCount > 0 && run.redoCount > 0, "seed \(seed): the run undid and redid nothing")
        #expect(run.violations.isEmpty, "seed \(seed): \(run.violations.prefix(3))")
    }
}

/// The values a run writes.
private protocol UndoRunValue: Codable, Sendable, Equatable {
    /// A new value, the `counter`th a run writes, by replica `replica`.
    static func fresh(_ replica: Int, _ counter: Int) -> Self
    /// This value edited by replica `replica` (`choice` picks which fields of a struct).
    func edited(_ replica: Int, _ counter: Int, choice: Int) -> Self
    /// The fields edited one by one; empty for values written whole.
    static var fields: [String] { get }
}

extension String: UndoRunValue {
    static func fresh(_ replica: Int, _ counter: Int) -> String { "r\(replica)-\(counter)" }
    func edited(_ replica: Int, _ counter: Int, choice: Int) -> String { .fresh(replica, counter) }
    static var fields: [String] { [] }
}

/// A struct row of two fields.
private struct Chore: UndoRunValue {
    var title: String
    var done: Bool

    static func fresh(_ replica: Int, _ counter: Int) -> Chore { Chore(title: "r\(replica)-\(counter)", done: false) }

    func edited(_ replica: Int, _ counter: Int, choice: Int) -> Chore {
        var chore = self
        if choice != 1 { chore.title = "r\(replica)-\(counter)" }
        if choice != 0 { chore.done.toggle() }
        return chore
    }

    static var fields: [String] { ["done", "title"] }
}

/// A seeded run: replicas with undo, the messages in flight, a partition, and what undos did wrong.
private struct UndoRun<Value: UndoRunValue> {
    /// A visible row's registers as an undo may find them: its position stamp and value version, and
    /// whether its key ties with a neighbour's (two replicas allocated it at once): any local edit that
    /// lands in such a tie re-keys the rows after it, keeping their order, as the core always does.
    private struct Registers {
        let position: Stamp
        let value: Stamp
        let fields: [String: Stamp]
        let tied: Bool
    }

    private var network: LossyExchange<Value>
    var replicas: [ReplicatedList<Value>] { network.replicas }
    private(set) var violations: [String] = []
    private(set) var undoCount = 0
    private(set) var redoCount = 0
    private var random: SplitMix64
    private var counter = 0

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        network = LossyExchange((0..<3).map { ReplicatedList<Value>(replicaID: ReplicaID(UInt64($0) + 1)) })
        for list in replicas { list.enableUndo(limit: 20) }
    }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// A confirmed row's index, among the first few (hot rows, so that replicas meet on them), or nil.
    private mutating func hotRow(of list: ReplicatedList<Value>) -> Int? {
        let rows = list.indices.prefix(6).filter { list[$0].rowID != nil }
        return rows.isEmpty ? nil : rows[below(rows.count)]
    }

    private mutating func newValue(_ replica: Int) -> Value {
        counter += 1
        return .fresh(replica, counter)
    }

    mutating func step() throws {
        let index = below(replicas.count)
        let list = replicas[index]
        switch below(16) {
        case 0, 1:
            let values = (0...below(2)).map { _ in newValue(index) }
            list.insert(contentsOf: values, at: below(list.count + 1))
        case 2:
            guard let at = hotRow(of: list) else { break }
            list.move(fromOffsets: [at], toOffset: below(list.count + 1))
        case 3:
            guard let at = hotRow(of: list) else { break }
            counter += 1
            list.updateValue(list[at].value.edited(index, counter, choice: below(3)), at: at)
        case 4:
            guard let at = hotRow(of: list), below(2) == 0 else { break }
            list.remove(at: at)
        case 5:
            _ = list.transaction { list in
                _ = list.insertPlaceholders(showing: [.fresh(0, 0)], at: below(list.count + 1))
                if let at = hotRow(of: list) { list.move(fromOffsets: [at], toOffset: 0) }
            }
        case 6:
            guard let id = list.lazy.compactMap(\.id.placeholderID).first else { break }
            if below(3) == 0 {
                try list.removePlaceholder(id)
            } else {
                _ = try list.commitPlaceholder(id, value: newValue(index))
            }
        case 7, 8, 9:
            try reverse(on: index, redoing: below(3) == 0)
        case 10:
            network.changePartition(startOdds: 8, healOdds: 4, using: &random)
        default:
            try network.exchange(from: index, using: &random)
        }
        list._checkInvariants()
    }

    /// Undoes or redoes on replica `index`, and notes every register it changed that its replica did not
    /// write last.
    private mutating func reverse(on index: Int, redoing: Bool) throws {
        let list = replicas[index]
        let replica = list.replicaID
        var before: [RowID: Registers] = [:]
        let keys = list.indices.map { list.positionKey(at: $0) }
        for offset in list.indices {
            guard let row = list[offset].rowID else { continue }
            let tied =
                (offset > 0 && keys[offset - 1] == keys[offset])
                || (offset + 1 < keys.count && keys[offset + 1] == keys[offset])
            let fields = Dictionary(
                uniqueKeysWithValues: Value.fields.map { ($0, list.fieldVersion(ofRow: row, field: $0)!) })
            before[row] = Registers(
                position: list.core.record(at: offset).positionStamp, value: list.valueVersion(ofRow: row)!,
                fields: fields, tied: tied)
        }
        let result = redoing ? list.redo() : list.undo()
        if result.change.isEmpty && result.skipped.isEmpty { return }
        if redoing { redoCount += 1 } else { undoCount += 1 }
        for (row, old) in before {
            guard let offset = list.index(forRow: row) else {
                if row.replica != replica { violations.append("\(replica) deleted \(row) of another replica") }
                continue
            }
            if list.core.record(at: offset).positionStamp != old.position && old.position.dot.replica != replica
                && !old.tied
            {
                violations.append("\(replica) moved \(row), last moved by \(old.position.dot.replica)")
            }
            if Value.fields.isEmpty && list.valueVersion(ofRow: row) != old.value && old.value.dot.replica != replica {
                violations.append("\(replica) edited \(row), last edited by \(old.value.dot.replica)")
            }
            for (field, stamp) in old.fields
            where list.fieldVersion(ofRow: row, field: field) != stamp && stamp.dot.replica != replica {
                violations.append("\(replica) edited \(field) of \(row), last edited by \(stamp.dot.replica)")
            }
        }
    }

    /// Withdraws pending placeholders, heals the partition, delivers what is in flight, and syncs every
    /// pair until nothing is missing.
    mutating func finish() throws {
        for list in replicas {
            while let id = list.lazy.compactMap(\.id.placeholderID).first { try list.removePlaceholder(id) }
        }
        try network.settle()
    }
}
