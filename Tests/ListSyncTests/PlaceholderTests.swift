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
}
