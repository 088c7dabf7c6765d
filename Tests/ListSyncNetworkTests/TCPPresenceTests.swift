import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// Presence between ``SyncPeer``s over real TCP on the loopback interface: shown, streamed, relayed,
/// and gone from the others as soon as a peer stops.
@Suite(.timeLimit(.minutes(1)))
struct TCPPresenceTests {
    @Test func aPresenceIsShownStreamedRelayedAndGoneWhenItsPeerStops() async throws {
        let hub = try makePeer(1)
        defer { hub.stop() }
        let endpoint = try hub.listen(on: .loopbackIPv4())
        let phone = try makePeer(2)
        let laptop = try makePeer(3)
        defer { laptop.stop() }
        phone.connect(to: endpoint)
        laptop.connect(to: endpoint)
        phone.edit { $0.append(contentsOf: ["milk", "eggs"]) }
        #expect(await eventually { rows(laptop) == ["milk", "eggs"] })
        let updates = laptop.presenceUpdates()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == [:])
        let eggs = try #require(phone.read { $0.last?.id.rowID })
        try phone.setPresence(Presence(name: "Phone", selection: [eggs]))
        let shown = [ReplicaID(2): Presence(name: "Phone", selection: [eggs])]
        // Relayed by the hub: the laptop has no connection to the phone.
        #expect(await iterator.next() == shown)
        #expect(laptop.presences == shown)
        #expect(hub.presences == shown)
        #expect(throws: PresenceError.self) { try phone.setPresence(Presence(name: String(repeating: "x", count: 65))) }
        #expect(laptop.presences == shown)
        phone.stop()
        // The goodbye: gone at once, not after the 30 s a silent peer takes to expire.
        #expect(await eventually(.seconds(10)) { laptop.presences.isEmpty && hub.presences.isEmpty })
        #expect(await iterator.next() == [:])
    }
}
