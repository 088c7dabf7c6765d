import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Randomized convergence of struct rows edited per field: several replicas insert, edit fields, move
/// and delete, and exchange encoded change sets that are delayed, reordered, duplicated and lost to
/// partitions; once healed and synced, every replica shows the same rows, and every field of every
/// row holds the latest write of that field (by stamp), computed by an oracle from every write made.
struct FieldConvergenceTests {
    /// A row with four fields, one optional (removed when nil).
    struct Item: Codable, Equatable, Sendable {
        var title: String
        var done: Bool
        var count: Int
        var tag: String?
    }

    @Test(arguments: RunSize.seeds("LISTSYNC_FIELD_SEEDS", quick: 6, long: 200))
    func everyFieldConvergesToItsLatestWrite(seed: UInt64) throws {
        announceSeed(seed, of: "everyFieldConvergesToItsLatestWrite", replay: "LISTSYNC_FIELD_SEEDS")
        var run = FieldRun(seed: seed, replicaCount: 4)
        for _ in 0..<RunSize.count("LISTSYNC_FIELD_STEPS", quick: 300, long: 2000) { try run.step() }
        try run.finish()
        let first = run.replicas[0]
        for replica in run.replicas {
            replica._checkInvariants()
            #expect(replica.map(\.id) == first.map(\.id), "seed \(seed)")
            #expect(replica.map(\.value) == first.map(\.value), "seed \(seed)")
        }
        let live = Set(first.compactMap(\.rowID))
        #expect(live == run.oracle.rows.subtracting(run.oracle.deleted), "seed \(seed)")
        for row in first {
            #expect(row.value == run.oracle.expectedValue(of: row.rowID!), "seed \(seed), row \(row.rowID!)")
        }
    }
}

/// Every write made, and the value the field merge rule gives each row.
private struct FieldOracle {
    /// Each row's whole value (its insert's) and, per field, its writes with their stamps.
    var wholes: [RowID: [UInt8]] = [:]
    var writes: [RowID: [String: [(stamp: Stamp, fragment: [UInt8]?)]]] = [:]
    var rows = Set<RowID>()
    var deleted = Set<RowID>()

    /// The insert's value, `item`, and the field writes of an edit from `old` to `new` stamped `stamp`.
    mutating func recordEdit(of row: RowID, from old: [UInt8], to new: [UInt8], stamp: Stamp) {
        let oldMembers = Dictionary(uniqueKeysWithValues: JSONFields.split(old[...])!.map { ($0.name, $0.fragment) })
        let newMembers = JSONFields.split(new[...])!
        for member in newMembers where oldMembers[member.name] != member.fragment {
            writes[row, default: [:]][member.name, default: []].append((stamp, Array(member.fragment)))
        }
        for name in oldMembers.keys where !newMembers.contains(where: { $0.name == name }) {
            writes[row, default: [:]][name, default: []].append((stamp, nil))
        }
    }

    /// The whole value with, per field, its write of the greatest stamp applied.
    func expectedValue(of row: RowID) -> FieldConvergenceTests.Item? {
        var members = Dictionary(
            uniqueKeysWithValues: JSONFields.split(wholes[row]![...])!.map { ($0.name, $0.fragment) })
        for (name, fieldWrites) in writes[row] ?? [:] {
            members[name] = fieldWrites.max { $0.stamp < $1.stamp }!.fragment?[...]
        }
        let bytes = JSONFields.join(members.map { JSONFields.Member(name: $0.key, fragment: $0.value) })
        return try? JSONDecoder().decode(FieldConvergenceTests.Item.self, from: Data(bytes))
    }
}

/// A seeded run: replicas, the messages in flight, a partition, and the oracle.
private struct FieldRun {
    typealias Item = FieldConvergenceTests.Item
    private var network: LossyExchange<Item>
    var replicas: [ReplicatedList<Item>] { network.replicas }
    var oracle = FieldOracle()
    private var random: SplitMix64
    private var counter = 0

    init(seed: UInt64, replicaCount: Int) {
        random = SplitMix64(seed: seed)
        network = LossyExchange((0..<replicaCount).map { ReplicatedList<Item>(replicaID: ReplicaID(UInt64($0) + 1)) })
    }

    private mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// The stamp of the latest local operation of `list`.
    private static func latestStamp(of list: ReplicatedList<Item>) -> Stamp {
        Stamp(lamport: list.lamportClock, dot: Dot(replica: list.replicaID, counter: list.nextOperationCounter - 1))
    }

    private mutating func randomItem() -> Item {
        counter += 1
        return Item(
            title: "t\(counter)", done: below(2) == 0, count: below(5), tag: below(2) == 0 ? nil : "g\(counter)")
    }

    mutating func step() throws {
        let index = below(replicas.count)
        let list = replicas[index]
        var choice = below(10)
        if list.isEmpty && (2...6).contains(choice) { choice = 0 }  // nothing to edit: insert
        switch choice {
        case 0, 1:
            let at = below(list.count + 1)
            let item = randomItem()
            list.insert(item, at: at)
            let row = list[at].rowID!
            oracle.rows.insert(row)
            oracle.wholes[row] = ValueCoding.encode(item)
        case 2, 3, 4:
            let at = below(list.count)
            let old = list[at].value
            var new = old
            let fresh = randomItem()
            for _ in 0...below(2) {
                switch below(4) {
                case 0: new.title = fresh.title
                case 1: new.done.toggle()
                case 2: new.count = fresh.count
                default: new.tag = fresh.tag
                }
            }
            let row = list[at].rowID!
            if !list.updateValue(new, at: at).isEmpty {
                oracle.recordEdit(
                    of: row, from: ValueCoding.encode(old), to: ValueCoding.encode(new),
                    stamp: Self.latestStamp(of: list))
            }
        case 5:
            list.move(fromOffsets: [below(list.count)], toOffset: below(list.count + 1))
        case 6:
            guard below(3) == 0 else { break }
            let at = below(list.count)
            oracle.deleted.insert(list[at].rowID!)
            list.remove(at: at)
        case 7:
            network.changePartition(startOdds: 10, healOdds: 5, using: &random)
        default:
            try network.exchange(from: index, using: &random)
        }
        list._checkInvariants()
    }

    /// Heals the partition, delivers what is in flight, and syncs every pair until nothing is missing.
    mutating func finish() throws {
        try network.settle()
    }
}
