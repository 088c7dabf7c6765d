import Foundation
import ListSync
import TestSupport
import Testing

/// Placeholders in the core: local, never replicated, kept at their key, committed where they are.
struct PlaceholderTests {
    /// A replica with rows `values` and a peer that has them too.
    func pair(_ values: [String]) throws -> (ReplicatedList<String>, ReplicatedList<String>) {
        let local = ReplicatedList<String>(replicaID: ReplicaID(1))
        let peer = ReplicatedList<String>(replicaID: ReplicaID(2))
        local.append(contentsOf: values)
        try peer.merge(local.changes(since: peer.versionVector))
        return (local, peer)
    }

    @Test func placeholdersShowAsPendingRowsInOneBatch() throws {
        let (list, _) = try pair(["a", "b", "c"])
        var mirror = BatchMirror(Array(list))
        let (ids, change) = list.insertPlaceholders(showing: ["…1", "…2"], at: 1)
        #expect(change == ListChange(inserted: [1, 2]))
        try mirror.apply(change, from: list)
        list._checkInvariants()
        #expect(list.map(\.value) == ["a", "…1", "…2", "b", "c"])
        #expect(list.map(\.isPending) == [false, true, true, false, false])
        #expect(list[1].id == .placeholder(ids[0]) && list[1].rowID == nil)
        #expect(ids.map(list.placeholderIndex) == [1, 2])
        #expect(list.pendingCount == 2)
    }

    @Test func placeholdersLeaveNoReplicatedTrace() throws {
        let (list, peer) = try pair(["a", "b"])
        let snapshot = list.snapshot()
        let vector = list.versionVector
        let counter = list.nextOperationCounter
        let clock = list.lamportClock
        let (ids, _) = list.insertPlaceholders(showing: ["…"], at: 1)
        #expect(list.snapshot() == snapshot)
        #expect(list.changes(since: peer.versionVector).isEmpty)
        let restored = try ReplicatedList<String>(snapshot: snapshot)
        #expect(list.changes(since: VersionVector()) == restored.changes(since: VersionVector()))
        #expect(list.versionVector == vector && list.nextOperationCounter == counter && list.lamportClock == clock)
        try list.removePlaceholder(ids[0])
        #expect(list.snapshot() == snapshot && list.nextOperationCounter == counter && list.lamportClock == clock)
        #expect(list.map(\.value) == ["a", "b"])
        #expect(throws: PlaceholderError.notPending(ids[0])) { try list.removePlaceholder(ids[0]) }
        #expect(throws: PlaceholderError.notPending(ids[0])) { try list.commitPlaceholder(ids[0], value: "x") }
    }

    @Test func commitInsertsOneRowWhereThePlaceholderIsNow() throws {
        let (list, peer) = try pair(["a", "b", "c"])
        var mirror = BatchMirror(Array(list))
        let (ids, change) = list.insertPlaceholders(showing: ["…"], at: 2)
        try mirror.apply(change, from: list)
        peer.insert(contentsOf: ["x", "y"], at: 0)
        peer.remove(at: 3)  // "b", the placeholder's lower neighbour
        try mirror.apply(list.merge(peer.changes(since: list.versionVector)), from: list)
        #expect(list.map(\.value) == ["x", "y", "a", "…", "c"])
        let index = try #require(list.placeholderIndex(ids[0]))
        let counter = list.nextOperationCounter
        let (row, commit) = try list.commitPlaceholder(ids[0], value: "new")
        #expect(commit == ListChange(removed: [index], inserted: [index]))
        try mirror.apply(commit, from: list)
        list._checkInvariants()
        #expect(list.index(forRow: row) == index && row == RowID(replica: ReplicaID(1), counter: counter))
        #expect(list.pendingCount == 0)
        try peer.merge(list.changes(since: peer.versionVector))
        #expect(peer.map(\.value) == list.map(\.value) && peer.snapshot() == list.snapshot())
    }

    @Test func localEditsAroundAPlaceholderKeepIt() throws {
        let (list, _) = try pair(["a", "b", "c", "d"])
        var mirror = BatchMirror(Array(list))
        let (ids, change) = list.insertPlaceholders(showing: ["…"], at: 2)
        try mirror.apply(change, from: list)
        for edit in [
            { list.insert("e", at: 2) }, { list.insert("f", at: 4) }, { list.move(fromOffsets: [0, 5], toOffset: 3) },
            { list.remove(at: 1) }, { list.updateValue("A", at: 0) },
        ] {
            try mirror.apply(edit(), from: list)
            list._checkInvariants()
        }
        let values = list.map(\.value)
        let index = try #require(list.placeholderIndex(ids[0]))
        #expect(values[index] == "…")
        let (_, commit) = try list.commitPlaceholder(ids[0], value: "loaded")
        try mirror.apply(commit, from: list)
        #expect(list.map(\.value) == values.enumerated().map { $0.offset == index ? "loaded" : $0.element })
    }

    @Test func aPeerNeverSeesAPlaceholder() throws {
        let (list, peer) = try pair(["a", "b"])
        _ = list.insertPlaceholders(showing: ["…", "…"], at: 1)
        list.append("c")
        try peer.merge(list.changes(since: peer.versionVector))
        try peer.merge(ChangeSet(decoding: list.changes(since: VersionVector()).encoded()))
        let restored = try ReplicatedList<String>(snapshot: list.snapshot())
        #expect(peer.map(\.value) == ["a", "b", "c"] && restored.map(\.value) == ["a", "b", "c"])
        #expect(peer.pendingCount == 0 && !peer.contains(where: \.isPending))
    }

    /// A placeholder `…` shown at 1 in `a b c` on replica 1 and a row `x` of another replica with the
    /// same key (``TiedKeys``), merged.
    func tiedPlaceholder() throws -> (
        local: ReplicatedList<String>, peer: ReplicatedList<String>, mirror: BatchMirror<String>, id: PlaceholderID
    ) {
        let (local, peer) = try pair(["a", "b", "c"])
        var mirror = BatchMirror(Array(local))
        let (ids, shown) = local.insertPlaceholders(showing: ["…"], at: 1)
        try mirror.apply(shown, from: local)
        let tied = try TiedKeys.insert("x", withKeyAt: 1, of: local, writer: ReplicaID(4))
        try peer.merge(tied)
        try mirror.apply(local.merge(tied), from: local)
        return (local, peer, mirror, ids[0])
    }

    @Test func aRowWithThePlaceholdersKeyOrdersBeforeItAndDisplacesItLocally() throws {
        let tie = try tiedPlaceholder()
        let (local, peer, id) = (tie.local, tie.peer, tie.id)
        var mirror = tie.mirror
        #expect(local.map(\.value) == ["a", "x", "…", "b", "c"])
        #expect(local.positionKey(at: 1) == local.positionKey(at: 2))  // the tie: rows before placeholders

        // A local insert between the tied row and the placeholder re-keys the placeholder locally.
        try mirror.apply(local.insert("y", at: 2), from: local)
        local._checkInvariants()
        #expect(local.map(\.value) == ["a", "x", "y", "…", "b", "c"])
        #expect(local.positionKey(at: 2) < local.positionKey(at: 3))

        let (row, commit) = try local.commitPlaceholder(id, value: "z")
        try mirror.apply(commit, from: local)
        local._checkInvariants()
        #expect(local.index(forRow: row) == 3 && local.map(\.value) == ["a", "x", "y", "z", "b", "c"])
        try peer.merge(local.changes(since: peer.versionVector))
        #expect(peer.map(\.value) == local.map(\.value) && peer.snapshot() == local.snapshot())
    }

    @Test func aCommitWhoseKeyTiesWithARowTakesAFreshKeyBetweenItsNeighbours() throws {
        let tie = try tiedPlaceholder()
        let (local, peer, id) = (tie.local, tie.peer, tie.id)
        var mirror = tie.mirror
        #expect(local.positionKey(at: 1) == local.positionKey(at: 2))
        let (row, commit) = try local.commitPlaceholder(id, value: "z")
        #expect(commit == ListChange(removed: [2], inserted: [2]))
        try mirror.apply(commit, from: local)
        local._checkInvariants()
        #expect(local.index(forRow: row) == 2 && local.positionKey(at: 1) < local.positionKey(at: 2))
        try peer.merge(local.changes(since: peer.versionVector))
        #expect(peer.map(\.value) == ["a", "x", "z", "b", "c"] && peer.snapshot() == local.snapshot())
    }

    /// A replica whose only history is a withdrawn placeholder (a failed drop) holds no rows but a free
    /// slot; its first merge must take the ordinary path, not the bulk load into an empty table.
    @Test func aWithdrawnPlaceholderLeavesAReplicaThatMerges() throws {
        let source = ReplicatedList<String>(replicaID: ReplicaID(1))
        source.append(contentsOf: ["a", "b", "c"])
        let list = ReplicatedList<String>(replicaID: ReplicaID(2))
        var mirror = BatchMirror(Array(list))
        let (ids, shown) = list.insertPlaceholders(showing: ["…"], at: 0)
        try mirror.apply(shown, from: list)
        try mirror.apply(list.removePlaceholder(ids[0]), from: list)
        try mirror.apply(list.merge(source.changes(since: list.versionVector)), from: list)
        list._checkInvariants()
        #expect(list.map(\.value) == ["a", "b", "c"] && list.snapshot() == source.snapshot())
        list.append("d")
        try source.merge(list.changes(since: source.versionVector))
        #expect(source.map(\.value) == ["a", "b", "c", "d"])
    }
}
