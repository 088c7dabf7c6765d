import Foundation
import ListSync
import TestSupport
import Testing

/// A transaction's batch is exact for the rows before it, whatever mix of edits, merges and
/// placeholders it holds, and nested transactions add to the outer one.
struct TransactionTests {
    /// One random edit of `list` (or a merge from `other`, which edits too).
    static func randomEdit(
        of list: ReplicatedList<String>, other: ReplicatedList<String>, pending: inout [PlaceholderID],
        using generator: inout SplitMix64
    ) throws {
        let count = list.count
        // Placeholders are not moved or deleted as rows: pick rows among the confirmed ones.
        let confirmed = list.indices.filter { !list[$0].isPending }
        func rows(maximum: Int) -> IndexSet {
            IndexSet(generator.offsets(in: confirmed.count, maximum: maximum).map { confirmed[$0] })
        }
        switch Int.random(in: 0..<9, using: &generator) {
        case 0, 1:
            list.insert(
                contentsOf: ["a", "b", "c"].prefix(Int.random(in: 1...3, using: &generator)),
                at: Int.random(in: 0...count, using: &generator))
        case 2 where !confirmed.isEmpty:
            list.remove(atOffsets: rows(maximum: 3))
        case 3 where !confirmed.isEmpty:
            list.move(fromOffsets: rows(maximum: 3), toOffset: Int.random(in: 0...count, using: &generator))
        case 4 where !confirmed.isEmpty:
            list.move(from: rows(maximum: 1).first!, to: Int.random(in: 0..<count, using: &generator))
        case 5 where !confirmed.isEmpty:
            list.updateValue("u\(Int.random(in: 0..<99, using: &generator))", at: rows(maximum: 1).first!)
        case 6:
            pending += list.insertPlaceholders(showing: ["…"], at: Int.random(in: 0...count, using: &generator)).ids
        case 7 where !pending.isEmpty:
            let id = pending.remove(at: Int.random(in: 0..<pending.count, using: &generator))
            if Bool.random(using: &generator) {
                _ = try list.commitPlaceholder(id, value: "p")
            } else {
                try list.removePlaceholder(id)
            }
        default:
            if other.count > 0 {
                other.move(from: 0, to: other.count - 1)
                other.updateValue("o\(Int.random(in: 0..<99, using: &generator))", at: 0)
            }
            other.append("o")
            try list.merge(other.changes(since: list.versionVector))
            try other.merge(list.changes(since: other.versionVector))
        }
    }

    @Test(arguments: 0..<40)
    func aTransactionsBatchIsExact(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        let other = ReplicatedList<String>(replicaID: ReplicaID(2))
        var mirror = BatchMirror(Array(list))
        var pending: [PlaceholderID] = []
        for _ in 0..<30 {
            var failure: (any Error)?
            let (_, change) = list.transaction { list in
                for _ in 0..<Int.random(in: 0...6, using: &generator) {
                    do {
                        try Self.randomEdit(of: list, other: other, pending: &pending, using: &generator)
                    } catch {
                        failure = failure ?? error
                    }
                }
            }
            if let failure { throw failure }
            list._checkInvariants()
            try mirror.apply(change, from: list)
        }
    }

    @Test func nestedTransactionsAddToTheOuterOne() throws {
        let list = ReplicatedList<String>()
        list.append(contentsOf: ["a", "b", "c"])
        var mirror = BatchMirror(Array(list))
        let (inner, outer) = list.transaction { list in
            list.append("d")
            let (_, inner) = list.transaction { list in
                list.move(from: 3, to: 0)
                list.remove(at: 1)
            }
            return inner
        }
        #expect(inner == ListChange(removed: [0], moved: [.init(from: 3, to: 0)]))
        #expect(outer == ListChange(removed: [0], inserted: [0]))
        try mirror.apply(outer, from: list)
        #expect(list.map(\.value) == ["d", "b", "c"])
        #expect(list.append("e") == ListChange(inserted: [3]), "the transaction closed")
    }
}
