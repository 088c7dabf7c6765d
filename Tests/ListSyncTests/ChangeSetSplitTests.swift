import Foundation
import ListSync
import TestSupport
import Testing

/// `ChangeSet.split(byteBudget:)`: parts that fit the budget, each mergeable alone, together equal to the whole.
struct ChangeSetSplitTests {
    /// Replicas that edit at random and sync now and then, so their change sets carry inserts, moves,
    /// edits, deletes and overwritten operations of several replicas.
    static func editedReplicas(_ random: inout SplitMix64) throws -> [ReplicatedList<String>] {
        let replicas = (1...5).map { ReplicatedList<String>(replicaID: ReplicaID(UInt64($0))) }
        for _ in 0..<300 {
            let list = replicas[Int(random.next() % 5)]
            let size = Int(random.next() % 60)
            switch random.next() % 6 {
            case 0, 1: list.insert(String(repeating: "v", count: size), at: Int(random.next() % UInt64(list.count + 1)))
            case 2 where !list.isEmpty:
                list.move(from: Int(random.next() % UInt64(list.count)), to: Int(random.next() % UInt64(list.count)))
            case 3 where !list.isEmpty:
                list.updateValue(String(repeating: "e", count: size), at: Int(random.next() % UInt64(list.count)))
            case 4 where !list.isEmpty: list.remove(at: Int(random.next() % UInt64(list.count)))
            default:
                let other = replicas[Int(random.next() % 5)]
                try list.merge(other.changes(since: list.versionVector))
            }
        }
        return replicas
    }

    /// 12 seeds in `swift test`, 1,200 in the long run (``RunSize``); `LISTSYNC_SPLIT_SEEDS=N` runs N.
    @Test(arguments: RunSize.seeds("LISTSYNC_SPLIT_SEEDS", quick: 12, long: 1_200))
    func partsMergedInAnyOrderWithDuplicatesEqualTheWhole(seed: UInt64) throws {
        print("ChangeSetSplitTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        let replicas = try Self.editedReplicas(&random)
        let source = replicas[Int(random.next() % 5)]
        let base = replicas[Int(random.next() % 5)]
        for since in [VersionVector(), base.versionVector] {
            let whole = source.changes(since: since)
            let budget = 120 + Int(random.next() % 600)
            let parts = whole.split(byteBudget: budget)
            #expect(whole.encodedSplit(byteBudget: budget) == parts.map { $0.encoded() })
            #expect(parts.allSatisfy { $0.encoded().count <= budget || $0.rowCount == 1 })
            #expect(whole.isEmpty || parts.allSatisfy { !$0.isEmpty })
            #expect(parts.reduce(0) { $0 + $1.rowCount } == whole.rowCount)
            #expect(parts.count > 1 || whole.encoded().count <= budget)

            let expected = try ReplicatedList<String>(snapshot: base.snapshot(), replicaID: ReplicaID(99))
            try expected.merge(whole)
            var deliveries = parts + parts.filter { _ in random.next() % 3 == 0 }
            deliveries.shuffle(using: &random)
            let merged = try ReplicatedList<String>(snapshot: base.snapshot(), replicaID: ReplicaID(99))
            for part in deliveries {
                try merged.merge(ChangeSet(decoding: part.encoded()))
                merged._checkInvariants()
            }
            #expect(Array(merged) == Array(expected), "seed \(seed)")
            #expect(merged.versionVector == expected.versionVector, "seed \(seed)")
            #expect(merged.snapshot() == expected.snapshot(), "seed \(seed)")
            #expect(parts.allSatisfy { merged.hasSeen($0) })
            #expect(whole.isEmpty || parts.allSatisfy { !ReplicatedList<String>(replicaID: ReplicaID(98)).hasSeen($0) })
        }
    }

    @Test func aChangeSetThatFitsIsItsOwnOnlyPart() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: ["a", "b", "c"])
        let whole = list.changes(since: VersionVector())
        #expect(whole.split(byteBudget: whole.encoded().count) == [whole])
    }

    /// Coverage of overwritten operations that alone exceeds the budget is cut into coverage-only parts.
    @Test func overwrittenCoverageBeyondTheBudgetGetsPartsOfItsOwn() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append("row")
        for index in 0..<400 {
            list.updateValue("\(index)", at: 0)
            list.append("kept")
        }
        let other = ReplicatedList<String>(replicaID: ReplicaID(2))
        other.append("x")
        try list.merge(other.changes(since: VersionVector()))
        let whole = list.changes(since: VersionVector())
        let parts = whole.split(byteBudget: 200)
        #expect(parts.count > 2 && parts.last?.rowCount == 0)
        #expect(parts.allSatisfy { $0.encoded().count <= 200 })
        let merged = ReplicatedList<String>(replicaID: ReplicaID(3))
        for part in parts.reversed() { try merged.merge(part) }
        #expect(Array(merged) == Array(list) && merged.versionVector == list.versionVector)
    }
}
