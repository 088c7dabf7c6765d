import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Struct rows merge per top-level field (docs/field-registers.md): concurrent edits of different fields
/// both survive, fields another app version does not know are kept and relayed, and values lacking a
/// required field are kept hidden until a later write makes them readable. In memory (over a transport:
/// TwoAppVersionsTests).
struct FieldRegisterTests {
    /// A to-do as the current app version has it.
    struct Todo: Codable, Equatable, Sendable {
        var title: String
        var done: Bool
        var note: String?
    }

    /// Sends every change each of `lists` lacks from each other, twice over, and checks invariants.
    private static func sync<A, B>(_ a: ReplicatedList<A>, _ b: ReplicatedList<B>) throws {
        for _ in 0..<2 {
            try a.merge(b.changes(since: a.versionVector))
            try b.merge(a.changes(since: b.versionVector))
        }
        a._checkInvariants()
        b._checkInvariants()
    }

    private static func pair() throws -> (ReplicatedList<Todo>, ReplicatedList<Todo>) {
        let a = ReplicatedList<Todo>(replicaID: ReplicaID(1))
        let b = ReplicatedList<Todo>(replicaID: ReplicaID(2))
        a.append(contentsOf: [Todo(title: "milk", done: false), Todo(title: "eggs", done: false)])
        try sync(a, b)
        return (a, b)
    }

    @Test func concurrentEditsOfDifferentFieldsBothSurvive() throws {
        let (a, b) = try Self.pair()
        #expect(a.updateValue(Todo(title: "oat milk", done: false), at: 0) == ListChange(updated: [0]))
        b.updateValue(Todo(title: "milk", done: true, note: "2 l"), at: 0)
        var mirror = BatchMirror(Array(a))
        try mirror.apply(try a.merge(b.changes(since: a.versionVector)), from: a)
        try b.merge(a.changes(since: b.versionVector))
        let expected = Todo(title: "oat milk", done: true, note: "2 l")
        #expect(a.map(\.value) == [expected, Todo(title: "eggs", done: false)])
        #expect(b.map(\.value) == a.map(\.value))
        a._checkInvariants()
        b._checkInvariants()
    }

    @Test func valuesModifiedInPlaceRecordOnlyTheFieldsTheyChange() throws {
        let (a, b) = try Self.pair()
        a.modifyValue(at: 0) { $0.done = true }
        b.modifyValue(at: 0) { $0.note = "semi-skimmed" }
        try Self.sync(a, b)
        #expect(a[0].value == Todo(title: "milk", done: true, note: "semi-skimmed") && b[0].value == a[0].value)
        struct Refused: Error {}
        let before = a.versionVector
        #expect(throws: Refused.self) { try a.modifyValue(at: 0) { _ in throw Refused() } }
        #expect(a.versionVector == before && a[0].value.done)
    }

    @Test func concurrentEditsOfOneFieldKeepTheLaterStamp() throws {
        let (a, b) = try Self.pair()
        // One Lamport time: the higher replica wins; then a later edit wins whichever replica makes it.
        a.updateValue(Todo(title: "from a", done: false), at: 1)
        b.updateValue(Todo(title: "from b", done: false), at: 1)
        try Self.sync(a, b)
        #expect(a[1].value.title == "from b" && b[1].value.title == "from b")
        a.updateValue(Todo(title: "a again", done: true), at: 1)
        try Self.sync(a, b)
        #expect(b[1].value == Todo(title: "a again", done: true) && a[1].value == b[1].value)
    }

    @Test func anEditThatChangesNothingIsNoOperation() throws {
        let (a, _) = try Self.pair()
        let counter = a.nextOperationCounter
        #expect(a.updateValue(Todo(title: "milk", done: false), at: 0).isEmpty)
        #expect(a.nextOperationCounter == counter)
        a.updateValue(Todo(title: "milk", done: true, note: "x"), at: 0)
        #expect(a.nextOperationCounter == counter + 1)  // one operation for two fields
    }

    @Test func aDeleteBeatsConcurrentFieldEdits() throws {
        let (a, b) = try Self.pair()
        a.remove(at: 0)
        b.updateValue(Todo(title: "milk", done: true), at: 0)
        try Self.sync(a, b)
        #expect(a.map(\.value.title) == ["eggs"] && b.map(\.value.title) == ["eggs"])
        #expect(b.core.fieldRegisters.isEmpty && a.core.fieldRegisters.isEmpty)
    }

    @Test func aMoveAndAFieldEditBothApply() throws {
        let (a, b) = try Self.pair()
        a.move(fromOffsets: [0], toOffset: 2)
        b.updateValue(Todo(title: "milk", done: true), at: 0)
        try Self.sync(a, b)
        let expected = [Todo(title: "eggs", done: false), Todo(title: "milk", done: true)]
        #expect(a.map(\.value) == expected && b.map(\.value) == expected)
    }

    /// The two app versions: each keeps the other's fields, both ways, also through a relay.
    @Test func twoAppVersionsKeepEachOthersFields() throws {
        let v2 = ReplicatedList<TodoV2>(replicaID: ReplicaID(1))
        let v1 = ReplicatedList<TodoV1>(replicaID: ReplicaID(2))
        let relayed = ReplicatedList<TodoV2>(replicaID: ReplicaID(3))
        v2.append(contentsOf: [TodoV2(title: "call", done: true), TodoV2(title: "write", done: nil)])
        try Self.sync(v2, v1)
        #expect(v1.map(\.value.title) == ["call", "write"])
        // The older version renames a row while the newer one checks another off.
        v1.updateValue(TodoV1(title: "call Ann"), at: 0)
        v2.updateValue(TodoV2(title: "write", done: false), at: 1)
        try Self.sync(v2, v1)
        #expect(v2.map(\.value) == [TodoV2(title: "call Ann", done: true), TodoV2(title: "write", done: false)])
        #expect(v1.map(\.value.title) == ["call Ann", "write"])
        // A replica that hears only from the older version still gets `done`.
        try relayed.merge(v1.changes(since: relayed.versionVector))
        relayed._checkInvariants()
        #expect(relayed.map(\.value) == v2.map(\.value))
    }

    /// A value with a field the older version does not know, kept through its snapshot: it goes on
    /// unchanged to a newer replica.
    @Test func unknownFieldsOfWholeValuesSurviveASnapshot() throws {
        let v2 = ReplicatedList<TodoV2>(replicaID: ReplicaID(1))
        v2.append(TodoV2(title: "call", done: true))
        let v1 = ReplicatedList<TodoV1>(replicaID: ReplicaID(2))
        try v1.merge(v2.changes(since: v1.versionVector))
        let reopened = try ReplicatedList<TodoV1>(snapshot: v1.snapshot(), replicaID: ReplicaID(2))
        let fresh = ReplicatedList<TodoV2>(replicaID: ReplicaID(3))
        try fresh.merge(reopened.changes(since: fresh.versionVector))
        #expect(fresh.map(\.value) == [TodoV2(title: "call", done: true)])
    }

    /// Values that lack a field this version requires are kept hidden, and shown once a write adds it.
    @Test func aMissingRequiredFieldHidesTheRowUntilAWriteAddsIt() throws {
        let v1 = ReplicatedList<TodoV1>(replicaID: ReplicaID(1))
        let v2 = ReplicatedList<TodoV2>(replicaID: ReplicaID(2))
        let strict = ReplicatedList<Todo>(replicaID: ReplicaID(3))
        v1.append(contentsOf: [TodoV1(title: "old")])
        try Self.sync(v1, v2)
        try Self.sync(v1, strict)
        #expect(strict.isEmpty && strict.undecodableRows.map(\.id) == [v1[0].rowID!])
        v2.updateValue(TodoV2(title: "old", done: true), at: 0)
        #expect(try strict.merge(v2.changes(since: strict.versionVector)) == ListChange(inserted: [0]))
        strict._checkInvariants()
        #expect(strict.map(\.value) == [Todo(title: "old", done: true)] && strict.undecodableRows.isEmpty)
        // Clearing the field (an absent register) hides it again; its registers still travel.
        v2.updateValue(TodoV2(title: "old", done: nil), at: 0)
        #expect(try strict.merge(v2.changes(since: strict.versionVector)) == ListChange(removed: [0]))
        strict._checkInvariants()
        #expect(strict.undecodableRows.count == 1)
        let peer = ReplicatedList<TodoV2>(replicaID: ReplicaID(4))
        try peer.merge(strict.changes(since: peer.versionVector))
        #expect(peer.map(\.value) == [TodoV2(title: "old", done: nil)])
    }

    /// A whole value newer than field registers (as every value of formats 1 and 2 is) replaces them;
    /// an older one does not.
    @Test func aLaterWholeValueDropsOlderFieldRegisters() throws {
        let (a, b) = try Self.pair()
        b.updateValue(Todo(title: "milk", done: true), at: 0)
        let row = b[0].rowID!
        let fieldStamp = try #require(b.core.fieldRegisters[row]?["done"]?.stamp)
        func wholeWrite(lamport: UInt64, counter: UInt64, title: String) -> ChangeSet {
            let stamp = Stamp(lamport: lamport, dot: Dot(replica: ReplicaID(9), counter: counter))
            var coverage = DotRanges()
            coverage.insert(counter...counter, of: ReplicaID(9))
            let bytes = ValueCoding.encode(Todo(title: title, done: false))
            return ChangeSet(
                coverage: coverage, updates: [RowUpdate(id: row, valueStamp: stamp)],
                payloads: [ChangeSet.Payload(typeIdentifier: ValueCoding.json, bytes: bytes[...])])
        }
        try b.merge(wholeWrite(lamport: fieldStamp.lamport - 1, counter: 1, title: "older"))
        #expect(b[0].value == Todo(title: "older", done: true))
        try b.merge(wholeWrite(lamport: fieldStamp.lamport + 1, counter: 2, title: "newer"))
        #expect(b[0].value == Todo(title: "newer", done: false) && b.core.fieldRegisters.isEmpty)
        b._checkInvariants()
        _ = a
    }

    /// Merging is commutative, associative and idempotent for field edits too: replicas that edit random
    /// fields and exchange whole states and deltas in random orders, duplicated, and combined, end equal.
    @Test(arguments: RunSize.seeds("LISTSYNC_FIELD_SEEDS", quick: 10, long: 200))
    func randomFieldEditsConverge(seed: UInt64) throws {
        announceSeed(seed, of: "randomFieldEditsConverge", replay: "LISTSYNC_FIELD_SEEDS")
        var random = SplitMix64(seed: seed)
        let replicas = (1...3).map { ReplicatedList<Todo>(replicaID: ReplicaID($0)) }
        replicas[0].append(contentsOf: (0..<4).map { Todo(title: "t\($0)", done: false) })
        for replica in replicas.dropFirst() { try replica.merge(replicas[0].changes(since: VersionVector())) }
        var sent: [ChangeSet] = []
        for step in 0..<40 {
            let replica = replicas[Int(random.next() % 3)]
            if replica.isEmpty { continue }
            let index = Int(random.next() % UInt64(replica.count))
            var value = replica[index].value
            var edits = true
            switch random.next() % 5 {
            case 0: value.title = "s\(step)"
            case 1: value.done.toggle()
            case 2: value.note = random.next() % 2 == 0 ? nil : "n\(step)"
            case 3:
                replica.move(fromOffsets: [index], toOffset: Int(random.next() % UInt64(replica.count + 1)))
                edits = false
            default:
                if random.next() % 4 == 0 { replica.remove(at: index) }
                edits = false
            }
            if edits { replica.updateValue(value, at: index) }
            let from = replicas[Int(random.next() % 3)]
            let base = random.next() % 2 == 0 ? VersionVector() : replicas[Int(random.next() % 3)].versionVector
            sent.append(from.changes(since: base))
            let to = replicas[Int(random.next() % 3)]
            try to.merge(sent[Int(random.next() % UInt64(sent.count))])
            to._checkInvariants()
        }
        for replica in replicas {
            try replica.merge(ChangeSet(combining: sent.shuffled(using: &random)))
            for other in replicas { try replica.merge(other.changes(since: replica.versionVector)) }
        }
        for replica in replicas {
            replica._checkInvariants()
            #expect(replica.map(\.value) == replicas[0].map(\.value), "seed \(seed)")
            #expect(replica.map(\.id) == replicas[0].map(\.id), "seed \(seed)")
        }
    }
}
