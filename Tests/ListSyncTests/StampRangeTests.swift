import Foundation
import Testing

@testable import ListSync

/// Counters and Lamport times from outside must lie in 1...``Dot/maximumCounter``; within it, no local
/// operation that follows can overflow, and a replica always keeps counters for its own edits.
struct StampRangeTests {
    /// The encoded change set of one insert of row `row` at Lamport time `lamport`, covering exactly it.
    static func insert(row: RowID, lamport: UInt64, value: String = "x") -> [UInt8] {
        var coverage = DotRanges()
        coverage.insert(row.counter...row.counter, of: row.replica)
        let stamp = Stamp(lamport: lamport, dot: row)
        let update = RowUpdate(id: row, position: PositionKey([0x80]), positionStamp: stamp, valueStamp: stamp)
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

    /// The highest Lamport time merges; the replica keeps editing (no overflow), its stamps stay in range
    /// and the peer reads them back.
    @Test func aClockAtTheMaximumKeepsWorking() throws {
        let list = ReplicatedList<String>(replicaID: Self.local)
        let bytes = Self.insert(row: RowID(replica: Self.peer, counter: 1), lamport: Stamp.maximumLamport)
        try list.merge(ChangeSet(decoding: bytes))
        #expect(list.lamportClock == Stamp.maximumLamport)
        list.append("a")
        list.move(from: 1, to: 0)
        list.updateValue("b", at: 1)
        list._checkInvariants()
        #expect(list.lamportClock == Stamp.maximumLamport)
        let peer = ReplicatedList<String>(replicaID: Self.peer)
        try peer.merge(ChangeSet(decoding: list.changes(since: peer.versionVector).encoded()))
        let reloaded = try ReplicatedList<String>(snapshot: list.snapshot(), replicaID: Self.local)
        #expect(peer.map(\.value) == ["a", "b"] && reloaded.map(\.value) == ["a", "b"])
    }

    /// A change set claiming this replica's own operations so high that it could not count on is refused
    /// whole; below that limit it is adopted and the replica's counters continue above it.
    @Test func ownCountersNearTheMaximumAreRefused() throws {
        let list = ReplicatedList<String>(replicaID: Self.local)
        list.append("kept")
        let before = list.snapshot()
        for counter in [Dot.maximumCounter, Dot.maximumAdoptedCounter + 1] {
            let row = RowID(replica: Self.local, counter: counter)
            #expect(throws: MergeError.ownCounterOutOfRange(operation: row)) {
                try list.merge(ChangeSet(decoding: Self.insert(row: row, lamport: 3)))
            }
            #expect(list.snapshot() == before)
        }
        let adopted = RowID(replica: Self.local, counter: Dot.maximumAdoptedCounter)
        try list.merge(ChangeSet(decoding: Self.insert(row: adopted, lamport: 3)))
        list.append("next")
        list._checkInvariants()
        #expect(list.nextOperationCounter == Dot.maximumAdoptedCounter + 2)
        #expect(list.map(\.value) == ["kept", "x", "next"] || list.map(\.value) == ["x", "kept", "next"])
    }

    /// A snapshot that claims this replica's counters above the limit does not load as this replica.
    @Test func aSnapshotWithOwnCountersNearTheMaximumIsRefused() throws {
        let source = ReplicatedList<String>(replicaID: Self.peer)
        let row = RowID(replica: Self.local, counter: Dot.maximumCounter)
        try source.merge(ChangeSet(decoding: Self.insert(row: row, lamport: 3)))
        #expect(throws: MergeError.ownCounterOutOfRange(operation: row)) {
            try ReplicatedList<String>(snapshot: source.snapshot(), replicaID: Self.local)
        }
        #expect(try ReplicatedList<String>(snapshot: source.snapshot()).count == 1)
    }

    /// Operation counts add up without overflow however many replicas are near the maximum.
    @Test func operationCountsSaturate() throws {
        var vector = VersionVector()
        for replica in 1...8 { vector.insert(1...Dot.maximumCounter, of: ReplicaID(UInt64(replica))) }
        #expect(vector.operationCount == UInt64.max)
    }
}
