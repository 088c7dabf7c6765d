import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// One peer, one port, many documents (``SyncPeer/addDocument(_:settings:)``): each connection syncs the
/// document its HELLO names, and a refused document does not disturb the others.
@Suite(.timeLimit(.minutes(1)))
struct TCPManyDocumentsTests {
    /// Settings of the document `id` with its own secret, or with `secret`.
    static func settings(_ id: String, secret: String? = nil) -> SyncSettings {
        SyncSettings(document: id, secret: Array((secret ?? "the secret of the \(id) list").utf8))
    }

    /// Three peers with two documents each: "family" on all three, "groceries" on A and B, "chores" on B
    /// and C. C also holds "groceries" with another secret: B refuses that one (at version 7 a wrong
    /// secret reads as another document, error 6) while family and chores go on syncing between them.
    @Test func threePeersSyncEachDocumentWithThoseThatHoldIt() async throws {
        let family = Self.settings("family")
        let a = try makePeer(1, settings: family)
        let b = try makePeer(2, settings: family)
        let c = try makePeer(3, settings: family)
        defer { for peer in [a, b, c] { peer.stop() } }
        let groceries = Self.settings("groceries")
        let aGroceries = try a.addDocument(ReplicatedList(replicaID: ReplicaID(1)), settings: groceries)
        let bGroceries = try b.addDocument(ReplicatedList(replicaID: ReplicaID(2)), settings: groceries)
        let bChores = try b.addDocument(ReplicatedList(replicaID: ReplicaID(2)), settings: Self.settings("chores"))
        let cChores = try c.addDocument(ReplicatedList(replicaID: ReplicaID(3)), settings: Self.settings("chores"))
        let otherGroceries = Self.settings("groceries", secret: "someone else's secret")
        let cGroceries = try c.addDocument(ReplicatedList(replicaID: ReplicaID(3)), settings: otherGroceries)
        let endpoints = try [a, b, c].map { try $0.listen(on: .loopbackIPv4()) }
        a.connect(to: endpoints[1])
        try aGroceries.connect(to: endpoints[1])
        c.connect(to: endpoints[1])
        try cChores.connect(to: endpoints[1])
        try cGroceries.connect(to: endpoints[1])
        for (index, peer) in [a, b, c].enumerated() { peer.edit { $0.append("family \(index)") } }
        try aGroceries.edit { $0.append("milk") }
        try bGroceries.edit { $0.append("eggs") }
        try bChores.edit { $0.append("sweep") }
        try cChores.edit { $0.append("dust") }
        try cGroceries.edit { $0.append("not for B") }

        #expect(await eventually { [a, b, c].allSatisfy { rows($0).count == 3 && rows($0) == rows(a) } })
        #expect(await eventually { rows(aGroceries).count == 2 && rows(aGroceries) == rows(bGroceries) })
        #expect(await eventually { rows(bChores).count == 2 && rows(bChores) == rows(cChores) })
        #expect(await eventually { b.statistics.closedByCode[SyncError.wrongDocument.code, default: 0] >= 1 })
        #expect(
            await eventually {
                c.connections.contains { connection in
                    guard case .closedByPeer(let code, _) = connection.lastError else { return false }
                    return code == SyncError.wrongDocument.code && connection.document == "groceries"
                }
            })
        c.edit { $0.append("family after the refusal") }
        #expect(await eventually { rows(a).count == 4 && rows(a) == rows(c) && rows(b) == rows(c) })
        #expect(rows(cGroceries) == ["not for B"])
        #expect(!rows(bGroceries).contains("not for B"))
        #expect(aGroceries.liveConnectionCount == 1 && bChores.liveConnectionCount == 1)
        let live = b.connections.filter { $0.state == .live }.compactMap(\.document).sorted()
        #expect(live == ["chores", "family", "family", "groceries"])
    }

    /// Removing a document closes its connections only (those of the first document, to the same peer and
    /// port, stay live), stops its dials, ends its subscriptions and hands its replica back; the peer then
    /// refuses the document as one it does not hold (error 6), its old handle throws, and the same ID can
    /// be added again and syncs.
    @Test func removingADocumentStopsSyncingItAlone() async throws {
        let peers = try FamilyAndGroceries()
        defer { peers.stop() }
        let (a, b, aGroceries, bGroceries, aEndpoint) = (
            peers.a, peers.b, peers.aGroceries, peers.bGroceries, peers.aEndpoint
        )
        try bGroceries.connect(to: aEndpoint)
        try aGroceries.edit { $0.append("milk") }
        #expect(await eventually { rows(bGroceries) == ["milk"] && bGroceries.liveConnectionCount == 2 })
        #expect(await eventually { b.liveConnectionCount == 1 })
        let events = try bGroceries.changeEvents()

        #expect(b.documents.map(\.settings.documentName) == ["family", "groceries"])
        #expect(b.removeDocument(b.documents[0]) == nil && b.removeDocument(aGroceries) == nil)
        let removed = try #require(b.removeDocument(bGroceries))
        #expect(b.documents.map(\.settings.documentName) == ["family"])
        #expect(removed.map(\.value) == ["milk"])
        #expect(b.removeDocument(bGroceries) == nil)
        #expect(await eventually { aGroceries.liveConnectionCount == 0 })
        #expect(
            await eventually {
                a.connections.contains { connection in
                    guard case .closedByPeer(let code, _) = connection.lastError else { return false }
                    return code == SyncError.wrongDocument.code && connection.document == "groceries"
                }
            })
        #expect(!b.connections.contains { $0.isDialed || $0.document == "groceries" })
        #expect(b.liveConnectionCount == 1 && a.liveConnectionCount == 1)
        while await events.waitForEvents() { _ = events.takeAvailable() }  // ends, or the time limit fails
        let gone = SyncPeerError.documentRemoved("groceries")
        #expect(throws: gone) { try bGroceries.edit { $0.append("lost") } }
        #expect(throws: gone) { try bGroceries.read { $0.count } }
        #expect(throws: gone) { try bGroceries.connect(to: aEndpoint) }
        #expect(throws: gone) { try bGroceries.changeEvents() }
        #expect(bGroceries.statistics == SyncStatistics() && bGroceries.liveConnectionCount == 0)

        try b.documents[0].edit { $0.append("family, through its handle") }
        #expect(await eventually { rows(a) == ["family, through its handle"] })
        let again = try b.addDocument(removed, settings: bGroceries.settings)
        try aGroceries.edit { $0.append("eggs") }
        a.reconnectNow()
        #expect(await eventually { rows(again) == ["milk", "eggs"] && again.liveConnectionCount == 1 })
        #expect(throws: gone) { try bGroceries.read { $0.count } }
    }

    /// A presence belongs to one document: shown to that document's peers only, over connections to the
    /// same peer and port as the others, and withdrawn when the document is removed (its peers are told
    /// goodbye, its subscriptions end).
    @Test func presenceIsPerDocument() async throws {
        let peers = try FamilyAndGroceries()
        defer { peers.stop() }
        let (a, b, aGroceries, bGroceries) = (peers.a, peers.b, peers.aGroceries, peers.bGroceries)
        try a.setPresence(Presence(name: "A at home"))
        try aGroceries.setPresence(Presence(name: "A shopping"))
        try bGroceries.setPresence(Presence(name: "B shopping"))
        #expect(aGroceries.ownPresence == Presence(name: "A shopping") && a.ownPresence == Presence(name: "A at home"))
        #expect(await eventually { b.presences == [ReplicaID(1): Presence(name: "A at home")] })
        #expect(await eventually { bGroceries.presences == [ReplicaID(1): Presence(name: "A shopping")] })
        #expect(await eventually { aGroceries.presences == [ReplicaID(2): Presence(name: "B shopping")] })
        #expect(a.presences.isEmpty)
        let updates = try bGroceries.presenceUpdates()

        b.removeDocument(bGroceries)
        #expect(await eventually { aGroceries.presences.isEmpty })
        for await _ in updates {}  // ends, or the time limit fails
        #expect(bGroceries.presences.isEmpty && bGroceries.ownPresence == nil)
        #expect(throws: SyncPeerError.documentRemoved("groceries")) { try bGroceries.setPresence(nil) }
        #expect(throws: SyncPeerError.documentRemoved("groceries")) { try bGroceries.presenceUpdates() }
        #expect(b.presences == [ReplicaID(1): Presence(name: "A at home")])
    }

    /// A peer syncs a document ID once: a second one could not be told apart from it.
    @Test func aDocumentIDIsSyncedOnce() throws {
        let peer = try makePeer(1, settings: Self.settings("family"))
        defer { peer.stop() }
        #expect(throws: SyncPeerError.documentAlreadySynced("family")) {
            try peer.addDocument(ReplicatedList(), settings: Self.settings("family", secret: "another secret, same ID"))
        }
    }
}

/// Peers A and B of "family" (their first document) and "groceries", both listening, A dialing B for
/// both documents.
private struct FamilyAndGroceries {
    let a: ListPeer
    let b: ListPeer
    let aGroceries: SyncDocument<ReplicatedList<String>>
    let bGroceries: SyncDocument<ReplicatedList<String>>
    let aEndpoint: Endpoint

    init() throws {
        a = try makePeer(1, settings: TCPManyDocumentsTests.settings("family"))
        b = try makePeer(2, settings: TCPManyDocumentsTests.settings("family"))
        let groceries = TCPManyDocumentsTests.settings("groceries")
        aGroceries = try a.addDocument(ReplicatedList(replicaID: ReplicaID(1)), settings: groceries)
        bGroceries = try b.addDocument(ReplicatedList(replicaID: ReplicaID(2)), settings: groceries)
        aEndpoint = try a.listen(on: .loopbackIPv4())
        let bEndpoint = try b.listen(on: .loopbackIPv4())
        a.connect(to: bEndpoint)
        try aGroceries.connect(to: bEndpoint)
    }

    /// Stops both peers.
    func stop() { for peer in [a, b] { peer.stop() } }
}

/// The rows of a further document of a peer; none once it was removed.
private func rows(_ document: SyncDocument<ReplicatedList<String>>) -> [String] {
    (try? document.read { $0.map(\.value) }) ?? []
}
