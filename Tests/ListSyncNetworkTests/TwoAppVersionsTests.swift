import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// Two app versions in one group, over the in-memory transport and over TCP: the earlier one
/// (``TodoV1``, a title) and the later one (``TodoV2``, a title and an optional `done`) edit the same
/// rows; each keeps the fields the other wrote, and concurrent edits of different fields both survive.
@Suite(.timeLimit(.minutes(1)))
struct TwoAppVersionsTests {
    /// What every replica ends with: the rename of the earlier version, the check of the later one.
    static let expected = [TodoV2(title: "call Ann", done: true), TodoV2(title: "write", done: false)]

    /// The later version's first rows.
    static let first = [TodoV2(title: "call", done: nil), TodoV2(title: "write", done: false)]

    /// The concurrent edits: the earlier version renames row 0, the later one checks it off.
    static func rename(_ list: ReplicatedList<TodoV1>) { list.updateValue(TodoV1(title: "call Ann"), at: 0) }
    static func check(_ list: ReplicatedList<TodoV2>) { list.updateValue(TodoV2(title: "call", done: true), at: 0) }

    @Test func overTheInMemoryTransport() throws {
        var link = NodeLink(
            initiator: SyncNode(replica: ReplicatedList<TodoV1>(replicaID: ReplicaID(1)), settings: .test),
            responder: SyncNode(replica: ReplicatedList<TodoV2>(replicaID: ReplicaID(2)), settings: .test))
        link.responder.edit { $0.append(contentsOf: Self.first) }
        try link.exchange()
        #expect(link.initiator.replica.map(\.value.title) == ["call", "write"])
        // Both edit row 0 between two exchanges: neither has seen the other's edit.
        link.initiator.edit(Self.rename)
        link.responder.edit(Self.check)
        try link.exchange()
        #expect(link.responder.replica.map(\.value) == Self.expected)
        #expect(link.initiator.replica.map(\.value.title) == ["call Ann", "write"])
        // The earlier version edits again and adds a row: `done` is written back untouched.
        link.initiator.edit { list in
            list.updateValue(TodoV1(title: "write a letter"), at: 1)
            list.append(TodoV1(title: "post it"))
        }
        try link.exchange()
        #expect(
            link.responder.replica.map(\.value) == [
                TodoV2(title: "call Ann", done: true), TodoV2(title: "write a letter", done: false),
                TodoV2(title: "post it", done: nil),
            ])
        link.initiator.replica._checkInvariants()
        link.responder.replica._checkInvariants()
    }

    @Test func overTCPWithAPartition() async throws {
        let earlier = try SyncPeer(replica: ReplicatedList<TodoV1>(replicaID: ReplicaID(1)), configuration: .test())
        let later = try SyncPeer(replica: ReplicatedList<TodoV2>(replicaID: ReplicaID(2)), configuration: .test())
        defer {
            earlier.stop()
            later.stop()
        }
        later.edit { $0.append(contentsOf: Self.first) }
        let endpoint = try later.listen(on: .loopbackIPv4())
        earlier.connect(to: endpoint)
        #expect(await eventually { earlier.read { $0.count } == 2 })
        earlier.disconnect(from: endpoint)
        #expect(await eventually { earlier.connectionCount == 0 && later.connectionCount == 0 })
        earlier.edit(Self.rename)
        later.edit(Self.check)
        earlier.connect(to: endpoint)
        #expect(await eventually { later.read { $0.map(\.value) } == Self.expected })
        #expect(await eventually { earlier.read { $0.map(\.value.title) } == ["call Ann", "write"] })
        // The earlier version's next edit of the row, live, keeps `done`.
        earlier.edit { $0.updateValue(TodoV1(title: "call Ann at 5"), at: 0) }
        #expect(
            await eventually {
                later.read { $0.map(\.value) } == [
                    TodoV2(title: "call Ann at 5", done: true), TodoV2(title: "write", done: false),
                ]
            })
    }
}
