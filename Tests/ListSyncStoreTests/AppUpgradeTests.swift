import ListSync
import ListSyncNetwork
import TestSupport
import Testing

@testable import ListSyncStore

/// A store written by an earlier app version (``TodoV1``) that syncs with a later one (``TodoV2``),
/// then is opened by the later version after an upgrade: the field the earlier version did not know
/// was logged, kept through its own edits and a compaction, and is there after the upgrade.
@Suite(.timeLimit(.minutes(1)))
struct AppUpgradeTests {
    @Test func aFieldTheEarlierVersionDidNotKnowSurvivesItsStoreAndTheUpgrade() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("phone")
        let store = try DurableReplica<TodoV1>(directory: path)
        let phone = try SyncPeer(replica: store, configuration: DurableSyncTests.configuration())
        let laptop = try SyncPeer(replica: ReplicatedList<TodoV2>(), configuration: DurableSyncTests.configuration())
        defer { laptop.stop() }
        laptop.edit { $0.append(contentsOf: [TodoV2(title: "call", done: nil), TodoV2(title: "write", done: false)]) }
        let endpoint = try laptop.listen(on: .loopbackIPv4())
        phone.connect(to: endpoint)
        #expect(await eventually { phone.read { $0.count } == 2 })
        phone.disconnect(from: endpoint)
        #expect(await eventually { phone.connectionCount == 0 && laptop.connectionCount == 0 })
        try phone.edit { $0.updateValue(TodoV1(title: "call Ann"), at: 0) }
        laptop.edit { $0.updateValue(TodoV2(title: "call", done: true), at: 0) }
        phone.connect(to: endpoint)
        let expected = [TodoV2(title: "call Ann", done: true), TodoV2(title: "write", done: false)]
        #expect(await eventually { laptop.read { $0.map(\.value) } == expected })
        #expect(await eventually { phone.read { $0.map(\.value.title) } == ["call Ann", "write"] })
        phone.stop()
        try store.close()

        // The upgraded app reads the log: `done` arrived while the earlier version ran.
        let upgraded = try DurableReplica<TodoV2>(directory: path)
        #expect(upgraded.read { $0.map(\.value) } == expected)
        try upgraded.close()

        // The earlier version, opened again, edits the row and compacts: the snapshot keeps `done`.
        let again = try DurableReplica<TodoV1>(directory: path)
        _ = try again.update { $0.updateValue(TodoV1(title: "call Ann at 5"), at: 0) }
        try again.compact()
        try again.close()
        let fromSnapshot = try DurableReplica<TodoV2>(directory: path)
        defer { try? fromSnapshot.close() }
        #expect(fromSnapshot.read { $0.map(\.value) } == [TodoV2(title: "call Ann at 5", done: true), expected[1]])
    }
}
