import Foundation
import Testing

@testable import ListSync

/// Counters and Lamport times from outside must lie in 1...``Dot/maximumCounter``; within it nothing
/// overflows, and a replica pushed to the maximum stops editing but keeps merging.
struct StampRangeTests {
    /// The encoded change set of one insert of row `row` at Lamport time `lamport`, covering exactly it.
    static func insert(row: RowID, lamport: UInt64, value: String = "x") -> [UInt8] {
        var coverage = DotRanges()
        coverage.insert(row.counter...row.counter, of: row.replica)
        let stamp = Stamp(lamport: lamport, dot: row)
        let update = RowUpdate(id: row, position: PositionKey([0x00, 0x40]), positionStamp: stamp, valueStamp: stamp)
        let payload = ChangeSet.Payload(typeIdentifier: ValueCoding.plainText, bytes: Array(value.utf8)[...])
        return ChangeSet(coverage: coverage, updates: [update], payloads: [payload]).encoded()
    }

    static let peer = ReplicaID(7)
    static let local = ReplicaID(9)

    @Test(arguments: [Dot.maximumCounter + 1, 1 << 63, UInt64.max])
    func lamportTimesAboveTheMaximumAreRejectedAtDecoding(lamport: UInt64) {
        let bytes = Self.insert(row: RowID(replica: Self.peer, counter: 1), lamport: lamport)
        #expect {
            try ChangeSet(decoding: bytes)
        } throws: { error in
            guard case .invalidStamp = error as? BinaryDecodingError else { return false }
            return true
        }
    }

    @Test(arguments: [Dot.maximumCounter + 1, 1 << 63, UInt64.max])
    func countersAboveTheMaximumAreRejectedAtDecoding(counter: UInt64) {
        for replica in [Self.peer, Self.local] {
            let bytes = Self.insert(row: RowID(replica: replica, counter: counter), lamport: 5)
            #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: bytes) }
        }
    }

    /// Just below the highest Lamport time a replica edits, and its peer reads what it wrote.
    @Test func aClockJustBelowTheMaximumStillEdits() throws {
        let list = ReplicatedList<String>(replicaID: Self.local)
        let bytes = Self.insert(row: RowID(replica: Self.peer, counter: 1), lamport: Stamp.maximumLamport - 1)
        try list.merge(ChangeSet(decoding: bytes))
        #expect(list.canEdit)
        #expect(list.append("a") == ListChange(inserted: [1]))
        list._checkInvariants()
        #expect(list.lamportClock == Stamp.maximumLamport && !list.canEdit)
        let peer = ReplicatedList<String>(replicaID: Self.peer)
        try peer.merge(ChangeSet(decoding: list.changes(since: peer.versionVector).encoded()))
        let reloaded = try ReplicatedList<String>(snapshot: list.snapshot(), replicaID: Self.local)
        #expect(peer.map(\.value) == ["x", "a"] && reloaded.map(\.value) == ["x", "a"])
    }

    /// The highest Lamport time merges; the replica then refuses edits (an edit could not win over
    /// what it has seen) but keeps merging, and nothing traps.
    @Test func aClockAtTheMaximumRefusesEditsButMerges() throws {
        let list = ReplicatedList<String>(replicaID: Self.local)
        list.append("a")
        let peer = ReplicatedList<String>(replicaID: Self.peer)
        try peer.merge(list.changes(since: peer.versionVector))
        let maximum = Self.insert(row: RowID(replica: Self.peer, counter: 5), lamport: Stamp.maximumLamport)
        try list.merge(ChangeSet(decoding: maximum))
        #expect(!list.canEdit)
        let before = list.snapshot()
        #expect(list.append("b").isEmpty && list.move(from: 0, to: 1).isEmpty && list.remove(at: 0).isEmpty)
        #expect(list.snapshot() == before)
        peer.updateValue("A", at: 0)
        try list.merge(peer.changes(since: list.versionVector))
        list._checkInvariants()
        #expect(Set(list.map(\.value)) == ["A", "x"])
    }

    /// A change set claiming this replica's own operations is adopted and counters continue above it;
    /// near the maximum, the replica stops editing instead of running past it.
    @Test func ownCountersFromElsewhereAreAdopted() throws {
        let list = ReplicatedList<String>(replicaID: Self.local)
        list.append("kept")
        let adopted = RowID(replica: Self.local, counter: 1 << 40)
        try list.merge(ChangeSet(decoding: Self.insert(row: adopted, lamport: 3)))
        list.append("next")
        #expect(list.nextOperationCounter == (1 << 40) + 2 && list.last?.value == "next")
        let high = RowID(replica: Self.local, counter: Dot.maximumCounter - 5)
        try list.merge(ChangeSet(decoding: Self.insert(row: high, lamport: 9)))
        #expect(!list.canEdit && list.append("refused").isEmpty && list.count == 4)
        list._checkInvariants()
    }

    /// A replica whose counters a file put at the maximum (it reserved them) cannot edit: edits change
    /// nothing and say so, a commit withdraws its placeholder, merges go on, and nothing traps.
    @Test func aReplicaWithoutCountersRefusesEditsButMerges() throws {
        let list = ReplicatedList<String>(replicaID: Self.local)
        list.append("a")
        let (ids, _) = list.insertPlaceholders(showing: ["…"], at: 1)
        list.reserveOperationCounters(from: Dot.maximumCounter)
        #expect(!list.canEdit)
        let before = list.snapshot()
        #expect(list.append("b").isEmpty && list.move(from: 0, to: 1).isEmpty)
        #expect(list.remove(at: 0).isEmpty && list.updateValue("c", at: 0).isEmpty)
        #expect(throws: PlaceholderError.cannotEdit(ids[0])) { try list.commitPlaceholder(ids[0], value: "x") }
        let (outcome, change) = list.finishLoad(ids[0], with: .success("x"))
        guard case .failed = outcome else { throw BinaryDecodingError.badMagic }
        #expect(change == ListChange(removed: [1]) && list.pendingCount == 0)
        #expect(list.snapshot() == before)
        let peer = ReplicatedList<String>(replicaID: Self.peer)
        peer.append("p")
        try list.merge(peer.changes(since: list.versionVector))
        list._checkInvariants()
        #expect(list.map(\.value) == ["a", "p"] || list.map(\.value) == ["p", "a"])
    }

    /// Operation counts add up without overflow however many replicas are near the maximum.
    @Test func operationCountsSaturate() throws {
        var vector = VersionVector()
        for replica in 1...8 { vector.insert(1...Dot.maximumCounter, of: ReplicaID(UInt64(replica))) }
        #expect(vector.operationCount == UInt64.max)
    }
}
