import Foundation
import ListSync
import ListSyncNetwork
import ListSyncUI
import Observation
import Synchronization
import TestSupport
import Testing

@testable import ListSyncStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SwiftUI model shows every change, its own at once and remote ones when they reach the main
/// actor, edits rows by identity even when it trails the list, and notifies observers.
@MainActor @Suite(.timeLimit(.minutes(2)))
struct ListModelTests {
    typealias Peer = SyncPeer<ReplicatedList<String>>

    static func peer(_ id: UInt64) throws -> Peer {
        var configuration = PeerConfiguration(
            sync: SyncSettings(document: "model", secret: Array("thirty-two bytes of a test secret".utf8)))
        configuration.reconnectInitialDelay = .milliseconds(50)
        configuration.log = { _ in }
        return try Peer(replica: ReplicatedList(replicaID: ReplicaID(id)), configuration: configuration)
    }

    /// A phone that listens and a laptop that dials it (stop both when done).
    static func connectedPeers() throws -> (phone: Peer, laptop: Peer) {
        let phone = try peer(1)
        let laptop = try peer(2)
        laptop.connect(to: try phone.listen(on: .loopbackIPv4()))
        return (phone, laptop)
    }

    static func listRows(_ peer: Peer) -> [Row<String>] { peer.read { Array($0) } }

    @Test func ownEditsShowAtOnce() throws {
        let peer = try Self.peer(1)
        defer { peer.stop() }
        let model = ListModel(peer: peer)
        model.append("Milk")
        model.append("Eggs")
        model.insert("Tea", at: 0)
        #expect(model.rows.map(\.value) == ["Tea", "Milk", "Eggs"])
        model.move(fromOffsets: [0], toOffset: 3)
        #expect(model.rows.map(\.value) == ["Milk", "Eggs", "Tea"])
        model[value: model.rows[1].id] = "Bread"
        #expect(model.rows.map(\.value) == ["Milk", "Bread", "Tea"])
        model.remove(atOffsets: [0, 2])
        #expect(model.rows == Self.listRows(peer) && model.rows.map(\.value) == ["Bread"])
        #expect(model[value: .placeholder(PlaceholderID(rawValue: 9))] == nil)
        #expect(model.lastError == nil)
    }

    @Test func anEditTheStoreCannotLogChangesNothingAndIsReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let faults = FileFaults()
        var options = StoreOptions()
        options.faults = faults
        let store = try DurableReplica<String>(directory: path, options: options)
        defer { try? store.close() }
        let peer = try SyncPeer(
            replica: store,
            configuration: PeerConfiguration(
                sync: SyncSettings(
                    document: "model", secret: Array("thirty-two bytes of a test secret".utf8))))
        defer { peer.stop() }
        let model = ListModel(peer: peer)
        model.append("Milk")
        faults.fail("write", errno: ENOSPC, times: 1)
        model.append("Eggs")
        #expect(model.rows.map(\.value) == ["Milk"] && store.read { $0.map(\.value) } == ["Milk"])
        guard case .noSpace? = model.lastError else {
            Issue.record("lastError is \(String(describing: model.lastError))")
            return
        }
        model.lastError = nil
        model.append("Eggs")
        #expect(model.rows.map(\.value) == ["Milk", "Eggs"] && model.lastError == nil)
    }

    @Test func remoteChangesReachTheModelAndItsObservers() async throws {
        let (phone, laptop) = try Self.connectedPeers()
        defer {
            phone.stop()
            laptop.stop()
        }
        let model = ListModel(peer: phone)
        let notified = Mutex(false)
        withObservationTracking {
            _ = model.rows
        } onChange: {
            notified.withLock { $0 = true }
        }
        laptop.edit { $0.append(contentsOf: ["Paris", "Rome"]) }
        #expect(await eventually { model.rows.map(\.value) == ["Paris", "Rome"] })
        #expect(notified.withLock { $0 })
    }

    /// The model shows who else is here, and which rows they select, as it changes.
    @Test func theOtherPeersPresenceReachesTheModel() async throws {
        let (phone, laptop) = try Self.connectedPeers()
        defer {
            phone.stop()
            laptop.stop()
        }
        let model = ListModel(peer: phone)
        laptop.edit { $0.append(contentsOf: ["Paris", "Rome"]) }
        #expect(await eventually { model.rows.count == 2 })
        let rome = try #require(model.rows.last?.rowID)
        let notified = Mutex(false)
        withObservationTracking {
            _ = model.presences
        } onChange: {
            notified.withLock { $0 = true }
        }
        try laptop.setPresence(Presence(name: "Laptop", selection: [rome]))
        #expect(await eventually { model.selectedByOthers == [.row(rome): ["Laptop"]] })
        #expect(model.presences == [ReplicaID(2): Presence(name: "Laptop", selection: [rome])])
        #expect(notified.withLock { $0 })
        try laptop.setPresence(nil)
        #expect(await eventually { model.presences.isEmpty })
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomEditsOnBothSidesKeepTheModelExact(seed: UInt64) async throws {
        announceSeed(seed, of: "randomEditsOnBothSidesKeepTheModelExact", replay: "swift test --filter ListModelTests")
        var generator = SplitMix64(seed: seed)
        let (phone, laptop) = try Self.connectedPeers()
        defer {
            phone.stop()
            laptop.stop()
        }
        let model = ListModel(peer: phone)
        for step in 0..<400 {
            let count = model.rows.count
            switch count < 3 ? 0 : Int.random(in: 0..<6, using: &generator) {
            case 0: model.insert("m\(step)", at: Int.random(in: 0...count, using: &generator))
            case 1:
                model.move(
                    fromOffsets: generator.offsets(in: count, maximum: 3),
                    toOffset: Int.random(in: 0...count, using: &generator))
            case 2: model.remove(atOffsets: generator.offsets(in: count, maximum: 2))
            case 3: model[value: model.rows[Int.random(in: 0..<count, using: &generator)].id] = "e\(step)"
            default:
                // The laptop edits; its change reaches the model while the model keeps editing.
                laptop.edit { list in
                    list.insert("r\(step)", at: Int.random(in: 0...list.count, using: &generator))
                    if list.count > 2 { list.move(from: 0, to: list.count - 1) }
                }
            }
            if step % 20 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        let settled = await eventually { Self.listRows(phone) == Self.listRows(laptop) }
        #expect(settled, "the peers converge")
        #expect(await eventually { model.rows == Self.listRows(phone) }, "the model shows the phone's rows")
        if model.rows != Self.listRows(phone) {
            print("model", model.rows.map(\.value))
            print("phone", Self.listRows(phone).map(\.value))
        }
    }
}
