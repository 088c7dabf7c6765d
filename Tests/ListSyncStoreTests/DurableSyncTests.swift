import Foundation
import ListSync
import ListSyncNetwork
import Synchronization
import TestSupport
import Testing

@testable import ListSyncStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store synced directly by a peer (`SyncPeer(replica: store, ...)`): what arrives is logged before it
/// is acknowledged and survives a restart, local edits through the peer are logged and sent, and a
/// change set the store cannot log is not applied, closes the connection with error 20, and arrives
/// again once the disk has room.
@Suite(.timeLimit(.minutes(1)))
struct DurableSyncTests {
    static let settings = SyncSettings(document: "durable", secret: Array("a secret of thirty-two bytes!!!!".utf8))

    static func configuration() -> PeerConfiguration {
        var configuration = PeerConfiguration(sync: settings)
        configuration.reconnectInitialDelay = .milliseconds(50)
        configuration.reconnectMaximumDelay = .milliseconds(200)
        configuration.log = { _ in }
        return configuration
    }

    @Test func aStoreSyncsDirectlyAndKeepsWhatArrived() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("phone")
        var store: DurableReplica<String>? = try DurableReplica<String>(directory: path)
        let phone = try SyncPeer(replica: store!, configuration: Self.configuration())
        let laptop = try SyncPeer(replica: ReplicatedList<String>(), configuration: Self.configuration())
        defer { laptop.stop() }
        let events = phone.changeEvents()
        try phone.edit { list in list.append(contentsOf: ["Milk", "Eggs"]) }
        laptop.connect(to: try phone.listen(on: .loopbackIPv4()))
        #expect(await eventually { laptop.read { $0.count } == 2 })
        laptop.edit { list in
            list.append("Tea")
            list.move(from: 2, to: 0)
        }
        #expect(await eventually { phone.read { $0.map(\.value) } == ["Tea", "Milk", "Eggs"] })
        phone.stop()
        var rows = events.initialRows
        var origins: [ChangeOrigin] = []
        for await event in events {
            event.apply(to: &rows)
            origins.append(event.origin)
        }
        #expect(rows.map(\.value) == ["Tea", "Milk", "Eggs"])
        #expect(origins.first == .local && origins.last == .remote(peers: [laptop.read { $0.replicaID }]))
        try store?.close()
        store = nil
        let reopened = try DurableReplica<String>(directory: path)
        defer { try? reopened.close() }
        #expect(reopened.read { $0.map(\.value) } == ["Tea", "Milk", "Eggs"], "what arrived was logged")
    }

    @Test func aChangeSetTheStoreCannotLogIsRefusedAndArrivesLater() async throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        var options = StoreOptions()
        options.faults = faults
        let store = try DurableReplica<String>(directory: directory.file("phone"), options: options)
        defer { try? store.close() }
        let phone = try SyncPeer(replica: store, configuration: Self.configuration())
        let laptop = try SyncPeer(replica: ReplicatedList<String>(), configuration: Self.configuration())
        defer {
            laptop.stop()
            phone.stop()
        }
        laptop.connect(to: try phone.listen(on: .loopbackIPv4()))
        #expect(await eventually { laptop.liveConnectionCount == 1 && phone.liveConnectionCount == 1 })
        faults.fail("write", errno: ENOSPC, times: 1, pathSuffix: "")
        laptop.edit { $0.append("Tea") }
        #expect(await eventually { phone.statistics.closedByCode[20, default: 0] == 1 })
        #expect(await eventually { phone.read { $0.map(\.value) } == ["Tea"] }, "sent again after reconnecting")
        #expect(store.read { $0.map(\.value) } == ["Tea"])
    }
}
