import Foundation
import ListSync
import TestSupport
import Testing

/// One test per situation of the semantics table (DESIGN.md section 1).
struct SemanticsTests {
    /// Two replicas that start from the same rows.
    func pair(_ values: [String], a: UInt64 = 1, b: UInt64 = 2) throws -> (
        ReplicatedList<String>, ReplicatedList<String>
    ) {
        let first = ReplicatedList<String>(replicaID: ReplicaID(a))
        let second = ReplicatedList<String>(replicaID: ReplicaID(b))
        first.append(contentsOf: values)
        try second.merge(first.changes(since: second.versionVector))
        return (first, second)
    }

    /// Exchanges changes both ways and checks invariants.
    func sync(_ lists: ReplicatedList<String>...) throws {
        for from in lists {
            for to in lists where to !== from { try to.merge(from.changes(since: to.versionVector)) }
        }
        for list in lists { list._checkInvariants() }
    }

    func values(_ list: ReplicatedList<String>) -> [String] { list.map(\.value) }

    @Test func sameChangesInAnyOrderAnyNumberOfTimesConverge() throws {
        let base = ReplicatedList<String>(replicaID: ReplicaID(9))
        base.append(contentsOf: ["a", "b", "c", "d"])
        let seed = base.changes(since: VersionVector())
        var changes: [ChangeSet] = [seed]
        let writers = (1...3).map { ReplicatedList<String>(replicaID: ReplicaID(UInt64($0))) }
        for writer in writers { try writer.merge(seed) }
        writers[0].move(fromOffsets: [0], toOffset: 4)
        writers[1].remove(at: 2)
        writers[2].insert("x", at: 1)
        writers[2].updateValue("B", at: 2)
        for writer in writers { changes.append(writer.changes(since: base.versionVector)) }
        var generator = SplitMix64(seed: 7)
        var results: [[Row<String>]] = []
        for _ in 0..<20 {
            let receiver = ReplicatedList<String>(replicaID: ReplicaID(100))
            var deliveries = changes + changes.prefix(Int.random(in: 0...changes.count, using: &generator))
            deliveries.shuffle(using: &generator)
            for change in deliveries { try receiver.merge(change) }
            receiver._checkInvariants()
            results.append(Array(receiver))
        }
        #expect(Set(results.map { $0.map(\.value) }).count == 1)
        #expect(results[0].map(\.value) == ["x", "B", "d", "a"])
    }

    @Test(arguments: [(UInt64(1), UInt64(2)), (UInt64(2), UInt64(1))])
    func concurrentMoveOfTheSameRowEndsAtExactlyOneDestination(ids: (UInt64, UInt64)) throws {
        let (a, b) = try pair(["r0", "r1", "r2", "r3", "r4"], a: ids.0, b: ids.1)
        a.move(fromOffsets: [0], toOffset: 5)  // r0 to the end on a
        b.move(fromOffsets: [0], toOffset: 3)  // r0 between r2 and r3 on b
        try sync(a, b)
        #expect(values(a) == values(b))
        #expect(values(a).filter { $0 == "r0" }.count == 1)
        // Same Lamport time: the higher replica wins.
        let expected = ids.0 > ids.1 ? ["r1", "r2", "r3", "r4", "r0"] : ["r1", "r2", "r0", "r3", "r4"]
        #expect(values(a) == expected)
    }

    @Test func laterMoveWinsOverEarlierConcurrentMove() throws {
        let (a, b) = try pair(["r0", "r1", "r2"], a: 2, b: 1)
        b.insert("x", at: 0)  // b's clock runs ahead
        b.remove(at: 0)
        b.move(fromOffsets: [2], toOffset: 0)  // r2 to the top on b, Lamport time 4
        a.move(fromOffsets: [2], toOffset: 1)  // r2 after r0 on a, Lamport time 2
        try sync(a, b)
        #expect(values(a) == ["r2", "r0", "r1"])
        #expect(values(b) == values(a))
    }

    @Test(arguments: [false, true])
    func moveAgainstDeleteIsDeleted(deleteFirst: Bool) throws {
        let (a, b) = try pair(["r0", "r1", "r2"])
        let id = try #require(a[1].rowID)
        a.move(fromOffsets: [1], toOffset: 3)
        b.remove(at: 1)
        if deleteFirst { try sync(b, a) } else { try sync(a, b) }
        #expect(values(a) == ["r0", "r2"])
        #expect(values(b) == ["r0", "r2"])
        #expect(a.isDeleted(id) && b.isDeleted(id))
        // A late, duplicated move does not bring it back.
        let late = ReplicatedList<String>(replicaID: ReplicaID(3))
        try late.merge(a.changes(since: VersionVector()))
        try a.merge(late.changes(since: VersionVector()))
        #expect(values(a) == ["r0", "r2"])
    }

    @Test func editAgainstDeleteIsDeleted() throws {
        let (a, b) = try pair(["r0", "r1"])
        a.updateValue("edited", at: 1)
        b.remove(at: 1)
        try sync(a, b)
        #expect(values(a) == ["r0"])
        #expect(values(b) == ["r0"])
    }

    @Test(arguments: [(UInt64(1), UInt64(2)), (UInt64(2), UInt64(1))])
    func concurrentEditsLastWriterWins(ids: (UInt64, UInt64)) throws {
        let (a, b) = try pair(["r0"], a: ids.0, b: ids.1)
        a.updateValue("from a", at: 0)
        b.updateValue("from b", at: 0)
        try sync(a, b)
        let winner = ids.0 > ids.1 ? "from a" : "from b"
        #expect(values(a) == [winner])
        #expect(values(b) == [winner])
        // An edit made after seeing the other wins whatever the replica.
        let loser = ids.0 > ids.1 ? b : a
        loser.updateValue("after", at: 0)
        try sync(a, b)
        #expect(values(a) == ["after"])
    }

    @Test func blockMovesStayContiguousAndOrdered() throws {
        let (a, b) = try pair((0..<10).map { "r\($0)" })
        a.move(fromOffsets: [2, 5, 8], toOffset: 0)
        b.insert(contentsOf: ["x", "y"], at: 1)
        b.move(fromOffsets: [9], toOffset: 4)
        b.remove(at: 6)
        try sync(a, b)
        #expect(values(a) == values(b))
        let rows = values(a)
        let start = try #require(rows.firstIndex(of: "r2"))
        #expect(Array(rows[start..<(start + 3)]) == ["r2", "r5", "r8"])
        #expect(start == 0)
    }

    @Test func concurrentBlockInsertsIntoTheSameGapStayContiguous() throws {
        let (a, b) = try pair(["first", "last"])
        a.insert(contentsOf: (0..<5).map { "a\($0)" }, at: 1)
        b.insert(contentsOf: (0..<5).map { "b\($0)" }, at: 1)
        try sync(a, b)
        let rows = values(a)
        #expect(rows == values(b))
        #expect(isContiguousRun(rows, prefix: "a", count: 5))
        #expect(isContiguousRun(rows, prefix: "b", count: 5))
    }

    /// Forward runs (typing: each insert right after one's previous insert) and backward runs (each
    /// insert right before one's previous insert) of two replicas into the same gap do not interleave.
    ///
    /// Each run's keys share a prefix ending in its replica's tag, so no pair of the 512 random replica
    /// pairs per direction interleaves (with 8 bits of jitter instead of tags, 2 or 3 did);
    /// NonInterleavingTests has more replicas and kinds of run.
    @Test(arguments: [true, false])
    func runsIntoTheSameGapDoNotInterleave(forward: Bool) throws {
        var generator = SplitMix64(seed: forward ? 1 : 2)
        var interleaved = 0
        let trials = 512
        for _ in 0..<trials {
            let (a, b) = try pair(["first", "last"], a: generator.next(), b: generator.next())
            for (list, name) in [(a, "a"), (b, "b")] {
                for step in 0..<12 { list.insert("\(name)\(step)", at: forward ? 1 + step : 1) }
            }
            try sync(a, b)
            let rows = values(a)
            #expect(rows == values(b))
            #expect(rows.first == "first" && rows.last == "last")
            let expectedRun = (0..<12).map { "a\($0)" }
            let run = rows.filter { $0.hasPrefix("a") }
            #expect(run == (forward ? expectedRun : expectedRun.reversed()))
            if !isContiguousRun(rows, prefix: "a", count: 12) || !isContiguousRun(rows, prefix: "b", count: 12) {
                interleaved += 1
            }
        }
        print(
            "runs into the same gap (\(forward ? "forward" : "backward")): \(interleaved) of \(trials) pairs interleaved"
        )
        #expect(interleaved == 0)
    }

    /// Typing on right after the row typed last continues its run without that row's key being read
    /// (the row holds one of the run's keys while it keeps the key its insert gave it). A peer that moved
    /// that row, or deleted it and inserted rows that may take its slot, must not make the next keys
    /// land out of order: the next rows still go right after the row they are typed after.
    @Test(arguments: [false, true])
    func typingOnAfterARowAPeerMovedOrDeletedLandsWhereItIsTyped(deleted: Bool) throws {
        let (a, b) = try pair(["r0", "r1", "r2", "r3", "r4"])
        for (offset, value) in ["t0", "t1", "t2"].enumerated() { a.insert(value, at: 1 + offset) }
        try sync(a, b)
        if deleted {
            b.remove(at: 3)  // t2, the row typed last: its slot on `a` is freed
            try sync(a, b)
            b.insert(contentsOf: ["u0", "u1", "u2"], at: 7)  // rows that may take the freed slot
        } else {
            b.move(fromOffsets: [3], toOffset: 8)  // t2 to the end, past the keys of its run
        }
        try sync(a, b)
        let after = deleted ? "u0" : "t2"
        let landing = try #require(values(a).firstIndex(of: after)) + 1
        a.insert("t3", at: landing)
        a.insert("t4", at: landing + 1)
        try sync(a, b)
        let rows = values(a)
        #expect(rows == values(b))
        #expect(Array(rows[(landing - 1)...(landing + 1)]) == [after, "t3", "t4"])
    }

    func isContiguousRun(_ rows: [String], prefix: String, count: Int) -> Bool {
        let positions = rows.indices.filter { rows[$0].hasPrefix(prefix) }
        return positions.count == count && positions.last! - positions.first! == count - 1
    }

    @Test func duplicatedAndReorderedDeliveryIsHarmless() throws {
        let (a, b) = try pair(["r0", "r1", "r2"])
        var batches: [ChangeSet] = []
        var vector = b.versionVector
        for step in 0..<6 {
            switch step % 3 {
            case 0: a.insert("n\(step)", at: 1)
            case 1: a.move(fromOffsets: [0], toOffset: a.count)
            default: a.remove(at: 2)
            }
            batches.append(a.changes(since: vector))
            vector = a.versionVector
        }
        for batch in (batches + batches).reversed() { try b.merge(batch) }
        b._checkInvariants()
        #expect(values(b) == values(a))
        #expect(b.versionVector == a.versionVector)
    }

    @Test func deleteIsFinalAgainstLateInsertDelivery() throws {
        let a = ReplicatedList<String>(replicaID: ReplicaID(1))
        let b = ReplicatedList<String>(replicaID: ReplicaID(2))
        a.append("doomed")
        let insert = a.changes(since: VersionVector())
        try b.merge(insert)
        b.remove(at: 0)
        let c = ReplicatedList<String>(replicaID: ReplicaID(3))
        try c.merge(b.changes(since: VersionVector()))  // delete arrives before the insert
        try c.merge(insert)
        c._checkInvariants()
        #expect(c.isEmpty)
    }
}

extension SemanticsTests {
    /// `a y x b c` where `y` (replica 1) and `x` (replica 4) were inserted into the same gap with equal
    /// keys (``TiedKeys``). The row ID orders `y` first.
    func tiedRows() throws -> (ReplicatedList<String>, ReplicatedList<String>) {
        let (local, peer) = try pair(["a", "b", "c"])
        local.insert("y", at: 1)
        let tied = try TiedKeys.insert("x", withKeyAt: 1, of: local, writer: ReplicaID(4))
        try local.merge(tied)
        try peer.merge(tied)
        try sync(local, peer)
        #expect(values(local) == ["a", "y", "x", "b", "c"])
        #expect(local.positionKey(at: 1) == local.positionKey(at: 2))
        return (local, peer)
    }

    /// Moving rows between two rows with equal keys: no key lies between them, so the row after the gap
    /// is displaced (moved after the moved rows); every replica ends with the moved rows in the gap.
    @Test(arguments: [false, true])
    func aMoveIntoATieDisplacesTheRowAfterIt(block: Bool) throws {
        let (local, peer) = try tiedRows()
        var mirror = BatchMirror(Array(local))
        let change =
            block ? local.move(fromOffsets: [3, 4], toOffset: 2) : local.move(from: 4, to: 2)
        try mirror.apply(change, from: local)
        local._checkInvariants()
        let expected = block ? ["a", "y", "b", "c", "x"] : ["a", "y", "c", "x", "b"]
        #expect(values(local) == expected)
        #expect(local.positionKey(at: 1) < local.positionKey(at: 2))
        try sync(local, peer)
        #expect(values(peer) == expected && peer.snapshot() == local.snapshot())
    }
}
