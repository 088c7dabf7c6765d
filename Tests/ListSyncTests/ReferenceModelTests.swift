import Foundation
import ListSync
import TestSupport
import Testing

/// A single replica behaves exactly like a plain array driven by the same operations, and every
/// change batch turns the old rows into the new ones.
struct ReferenceModelTests {
    /// 6 seeds in `swift test`, 600 in the long run (``RunSize``); `LISTSYNC_MODEL_SEEDS=N` runs N.
    @Test(arguments: RunSize.seeds("LISTSYNC_MODEL_SEEDS", quick: 6, long: 600, from: 1))
    func replicaMatchesArray(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let list = ReplicatedList<String>(replicaID: ReplicaID(seed))
        var model: [String] = []
        var mirror = BatchMirror<String>()
        var typing = 0
        for step in 0..<400 {
            let change = Self.randomStep(list, &model, step: step, typing: &typing, using: &generator)
            list._checkInvariants()
            #expect(list.map(\.value) == model)
            try mirror.apply(change, from: list)
            for (index, row) in list.enumerated() { #expect(list.index(forRow: row.rowID!) == index) }
        }
    }

    /// The same on a list deep enough for several levels of the order index (20,000 rows), checked
    /// every 200 steps: 1 seed in `swift test`, 36 in the long run; `LISTSYNC_LARGE_MODEL_SEEDS=N` runs N.
    @Test(arguments: RunSize.seeds("LISTSYNC_LARGE_MODEL_SEEDS", quick: 1, long: 36, from: 1))
    func largeReplicaMatchesArray(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let list = ReplicatedList<String>(replicaID: ReplicaID(seed))
        var model = (0..<20_000).map { "base \($0)" }
        list.append(contentsOf: model)
        var typing = 0
        for step in 0..<3_000 {
            _ = Self.randomStep(list, &model, step: step, typing: &typing, using: &generator)
            if step % 200 == 199 {
                list._checkInvariants()
                #expect(list.map(\.value) == model, "seed \(seed), step \(step)")
            }
        }
    }

    /// One random operation on `list` and the same on `model`: a move of scattered rows, of a
    /// contiguous block (up to 150 rows, so it spans leaves of the order index) or of one row to an
    /// index of the new rows, a delete, an edit, a block insert, an insert right after the previous
    /// insert (typing, at `typing`), a delete right before it (backspace) or an insert anywhere.
    static func randomStep(
        _ list: ReplicatedList<String>, _ model: inout [String], step: Int, typing: inout Int,
        using generator: inout SplitMix64
    ) -> ListChange {
        let value = "s\(step)"
        switch Int.random(in: 0..<10, using: &generator) {
        case 0 where !model.isEmpty, 7 where !model.isEmpty:
            let source =
                Bool.random(using: &generator)
                ? generator.offsets(in: model.count, maximum: 5)
                : generator.contiguousOffsets(in: model.count, count: Int.random(in: 1...150, using: &generator))
            let destination = Int.random(in: 0...model.count, using: &generator)
            referenceMove(&model, fromOffsets: source, toOffset: destination)
            return list.move(fromOffsets: source, toOffset: destination)
        case 1 where !model.isEmpty:
            let offsets = generator.offsets(in: model.count, maximum: 3)
            for offset in offsets.reversed() { model.remove(at: offset) }
            return list.remove(atOffsets: offsets)
        case 2 where !model.isEmpty:
            let index = Int.random(in: 0..<model.count, using: &generator)
            model[index] = value
            return list.updateValue(value, at: index)
        case 3:
            let values = (0..<Int.random(in: 1...4, using: &generator)).map { "\(value).\($0)" }
            let index = Int.random(in: 0...model.count, using: &generator)
            model.insert(contentsOf: values, at: index)
            return list.insert(contentsOf: values, at: index)
        case 4:
            typing = min(typing + 1, model.count)
            model.insert(value, at: typing)
            return list.insert(value, at: typing)
        case 6 where !model.isEmpty:
            // A table view's reorder of one row: it ends up at `destination` of the new rows.
            let source = Int.random(in: 0..<model.count, using: &generator)
            let destination = Int.random(in: 0..<model.count, using: &generator)
            model.insert(model.remove(at: source), at: destination)
            return list.move(from: source, to: destination)
        case 5 where typing > 0 && typing <= model.count:
            // Backspace: deletes the row before the typing position, next to the previous edit.
            typing -= 1
            model.remove(at: typing)
            return list.remove(at: typing)
        default:
            let index = Int.random(in: 0...model.count, using: &generator)
            typing = index
            model.insert(value, at: index)
            return list.insert(value, at: index)
        }
    }

    @Test func moveWithinOwnPlaceIsNoChange() {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: ["a", "b", "c"])
        let before = list.versionVector
        #expect(list.move(fromOffsets: [1], toOffset: 1).isEmpty)
        #expect(list.move(fromOffsets: [1], toOffset: 2).isEmpty)
        #expect(list.move(fromOffsets: [0, 1], toOffset: 0).isEmpty)
        #expect(list.versionVector == before)
        #expect(list.map(\.value) == ["a", "b", "c"])
    }

    @Test func batchOfBlockMoveReportsOldAndNewIndexes() {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: ["a", "b", "c", "d", "e"])
        let change = list.move(fromOffsets: [1, 3], toOffset: 5)
        #expect(list.map(\.value) == ["a", "c", "e", "b", "d"])
        #expect(change.moved == [ListChange.Move(from: 1, to: 3), ListChange.Move(from: 3, to: 4)])
        #expect(change.inserted.isEmpty && change.removed.isEmpty)
    }

    @Test func rowsHaveStableIdentity() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(5))
        list.append(contentsOf: ["a", "b", "c"])
        let id = try #require(list[0].rowID)
        list.move(fromOffsets: [0], toOffset: 3)
        list.updateValue("A", forRow: id)
        #expect(list.index(forRow: id) == 2)
        #expect(list[row: id]?.value == "A")
        list.remove(at: 2)
        #expect(list.index(forRow: id) == nil)
        #expect(list.updateValue("again", forRow: id) == nil)
    }
}

/// Operation counters after a restart.
struct CounterTests {
    @Test func reservedCountersAreNeverReused() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(8))
        list.append("a")
        #expect(list.nextOperationCounter == 2)
        list.reserveOperationCounters(from: 100)
        list.append("b")
        #expect(list.last?.rowID == RowID(replica: ReplicaID(8), counter: 100))
        list.reserveOperationCounters(from: 50)
        #expect(list.nextOperationCounter == 101)
        list._checkInvariants()
        let copy = ReplicatedList<String>(replicaID: ReplicaID(9))
        try copy.merge(list.changes(since: VersionVector()))
        #expect(copy.map(\.value) == ["a", "b"])
    }

    @Test func replicaThatLostStateContinuesAboveItsOldOperations() throws {
        let original = ReplicatedList<String>(replicaID: ReplicaID(8))
        original.append(contentsOf: ["a", "b", "c"])
        let restored = ReplicatedList<String>(replicaID: ReplicaID(8))
        try restored.merge(original.changes(since: VersionVector()))
        #expect(restored.nextOperationCounter == 4)
    }
}

/// Merges that bring many rows at once rebuild the order in bulk; their batches must be just as exact.
struct BulkMergeTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func largeMergeBatchIsExact(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let local = ReplicatedList<String>(replicaID: ReplicaID(1))
        let remote = ReplicatedList<String>(replicaID: ReplicaID(2))
        local.append(contentsOf: (0..<40).map { "base\($0)" })
        try remote.merge(local.changes(since: VersionVector()))
        var mirror = BatchMirror(Array(local))
        // The remote side inserts many rows and moves, edits and deletes some shared ones.
        for step in 0..<700 {
            remote.insert("r\(step)", at: Int.random(in: 0...remote.count, using: &generator))
        }
        for step in 0..<30 {
            remote.move(
                fromOffsets: generator.offsets(in: remote.count, maximum: 3),
                toOffset: Int.random(in: 0...remote.count, using: &generator))
            remote.updateValue("edit\(step)", at: Int.random(in: 0..<remote.count, using: &generator))
        }
        remote.remove(atOffsets: generator.offsets(in: remote.count, maximum: 20))
        // Meanwhile the local side edits too.
        local.move(fromOffsets: [0, 5], toOffset: 30)
        local.remove(at: 10)
        mirror = BatchMirror(Array(local))
        let change = try local.merge(remote.changes(since: local.versionVector))
        local._checkInvariants()
        try mirror.apply(change, from: local)
        try remote.merge(local.changes(since: remote.versionVector))
        #expect(Array(local) == Array(remote))
    }
}

/// Change sets of recent local operations come from the journal of touched rows; older ones from a
/// walk of every row. Both must carry exactly what the peer lacks.
struct RecentChangesTests {
    @Test(arguments: [1, 7, 300, 5_000])
    func peerCatchesUpAfterLocalOperations(count: Int) throws {
        var generator = SplitMix64(seed: UInt64(count))
        let a = ReplicatedList<String>(replicaID: ReplicaID(1))
        let b = ReplicatedList<String>(replicaID: ReplicaID(2))
        a.append(contentsOf: (0..<50).map { "r\($0)" })
        try b.merge(a.changes(since: VersionVector()))
        for step in 0..<count {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: a.insert("n\(step)", at: Int.random(in: 0...a.count, using: &generator))
            case 1 where a.count > 10: a.remove(atOffsets: generator.offsets(in: a.count, maximum: 2))
            case 2: a.updateValue("u\(step)", at: Int.random(in: 0..<a.count, using: &generator))
            default:
                a.move(
                    fromOffsets: generator.offsets(in: a.count, maximum: 3),
                    toOffset: Int.random(in: 0...a.count, using: &generator))
            }
            if step % 97 == 0 {
                // Live sync of each change, through the binary format.
                try b.merge(ChangeSet(decoding: a.changes(since: b.versionVector).encoded()))
                #expect(Array(b) == Array(a))
            }
        }
        let changes = a.changes(since: b.versionVector)
        try b.merge(ChangeSet(decoding: changes.encoded()))
        b._checkInvariants()
        #expect(Array(b) == Array(a))
        #expect(a.changes(since: a.versionVector).isEmpty)
    }
}
