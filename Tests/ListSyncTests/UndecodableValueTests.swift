import Foundation
import ListSync
import TestSupport
import Testing

/// Values a replica cannot decode as its element type never block a merge and are never lost: the rows
/// are kept with their bytes, relayed as they are, hidden from the visible rows, and shown by a replica
/// that reads them.
struct UndecodableValueTests {
    /// A later app version's row: `done` is required.
    struct Task: Codable, Equatable {
        var title: String
        var done: Bool
    }

    /// An earlier app version's row, without `done`.
    struct TaskV1: Codable, Equatable {
        var title: String
    }

    /// The migration path: the later version makes the new field optional.
    struct TaskMigrated: Codable, Equatable {
        var title: String
        var done: Bool?
    }

    @Test func anotherElementTypeIsKeptHiddenAndRelayed() throws {
        let strings = ReplicatedList<String>(replicaID: ReplicaID(1))
        strings.append(contentsOf: ["a", "b", "c"])
        let numbers = ReplicatedList<Int>(replicaID: ReplicaID(2))
        #expect(try numbers.merge(strings.changes(since: numbers.versionVector)).isEmpty)
        numbers._checkInvariants()
        #expect(numbers.isEmpty && numbers.versionVector == strings.versionVector)
        let hidden = numbers.undecodableRows
        #expect(hidden.map(\.id) == strings.map(\.rowID!))
        #expect(hidden.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "b", "c"])
        #expect(hidden.allSatisfy { $0.typeIdentifier == "public.utf8-plain-text" && $0.reason.contains("expected") })

        // The replica keeps editing what it can show; a third replica gets every row, as written.
        numbers.append(5)
        numbers._checkInvariants()
        let relay = ReplicatedList<String>(replicaID: ReplicaID(3))
        var mirror = BatchMirror<String>()
        try mirror.apply(
            relay.merge(ChangeSet(decoding: numbers.changes(since: VersionVector()).encoded())), from: relay)
        relay._checkInvariants()
        #expect(relay.map(\.value) == ["a", "b", "c"] && relay.undecodableRows.count == 1)

        // Snapshots keep the bytes too: loaded as strings, the rows show.
        let reloaded = try ReplicatedList<String>(snapshot: numbers.snapshot(), replicaID: ReplicaID(2))
        reloaded._checkInvariants()
        #expect(reloaded.map(\.value) == ["a", "b", "c"] && reloaded.undecodableRows.count == 1)
        #expect(try ReplicatedList<Int>(snapshot: numbers.snapshot()).map(\.value) == [5])
    }

    @Test func rowsLackingARequiredFieldWaitForATypeThatReadsThem() throws {
        let older = ReplicatedList<TaskV1>(replicaID: ReplicaID(1))
        older.append(contentsOf: [TaskV1(title: "Milk"), TaskV1(title: "Eggs")])
        let newer = ReplicatedList<Task>(replicaID: ReplicaID(2))
        try newer.merge(older.changes(since: newer.versionVector))
        newer._checkInvariants()
        #expect(newer.isEmpty && newer.undecodableRows.count == 2)
        #expect(newer.undecodableRows[0].typeIdentifier == "public.json")
        let migrated = try ReplicatedList<TaskMigrated>(snapshot: newer.snapshot(), replicaID: ReplicaID(2))
        #expect(migrated.map(\.value) == [TaskMigrated(title: "Milk"), TaskMigrated(title: "Eggs")])
        #expect(migrated.undecodableRows.isEmpty)
    }

    /// A shown row whose value is replaced by one this replica cannot read leaves the visible rows
    /// (a remove in the batch); a later readable value brings it back (an insert). Here a version whose
    /// `done` is optional clears it (an absent field register), which this version requires.
    @Test func aRowHidesAndShowsWithItsValue() throws {
        let writer = ReplicatedList<Task>(replicaID: ReplicaID(1))
        writer.append(contentsOf: [Task(title: "a", done: false), Task(title: "b", done: true)])
        let older = ReplicatedList<TaskMigrated>(replicaID: ReplicaID(2))
        let later = ReplicatedList<Task>(replicaID: ReplicaID(3))
        let reader = ReplicatedList<Task>(replicaID: ReplicaID(4))
        try older.merge(writer.changes(since: older.versionVector))
        try later.merge(writer.changes(since: later.versionVector))
        try reader.merge(writer.changes(since: reader.versionVector))
        var mirror = BatchMirror(Array(reader))
        // Concurrent edits of row 0 at one Lamport time: the later replica's (higher ID) wins.
        older.updateValue(TaskMigrated(title: "a", done: nil), at: 0)
        later.updateValue(Task(title: "A!", done: true), at: 0)

        let hiding = try reader.merge(older.changes(since: reader.versionVector))
        #expect(hiding == ListChange(removed: [0]))
        try mirror.apply(hiding, from: reader)
        reader._checkInvariants()
        #expect(reader.map(\.value.title) == ["b"] && reader.undecodableRows.count == 1)

        let showing = try reader.merge(later.changes(since: reader.versionVector))
        #expect(showing == ListChange(inserted: [0]))
        try mirror.apply(showing, from: reader)
        reader._checkInvariants()
        #expect(reader.map(\.value.title) == ["A!", "b"] && reader.undecodableRows.isEmpty)
    }

    /// A value that does not decode is deleted like any row, and its bytes go with it.
    @Test func aHiddenRowCanBeDeletedElsewhere() throws {
        let strings = ReplicatedList<String>(replicaID: ReplicaID(1))
        strings.append(contentsOf: ["a", "b"])
        let numbers = ReplicatedList<Int>(replicaID: ReplicaID(2))
        try numbers.merge(strings.changes(since: numbers.versionVector))
        strings.remove(at: 0)
        try numbers.merge(strings.changes(since: numbers.versionVector))
        numbers._checkInvariants()
        #expect(numbers.undecodableRows.map(\.id) == strings.map(\.rowID!))
    }
}
