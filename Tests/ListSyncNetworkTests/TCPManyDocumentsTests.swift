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
        aGroceries.connect(to: endpoints[1])
        c.connect(to: endpoints[1])
        cChores.connect(to: endpoints[1])
        cGroceries.connect(to: endpoints[1])
        for (index, peer) in [a, b, c].enumerated() { peer.edit { $0.append("family \(index)") } }
        aGroceries.edit { $0.append("milk") }
        bGroceries.edit { $0.append("eggs") }
        bChores.edit { $0.append("sweep") }
        cChores.edit { $0.append("dust") }
        cGroceries.edit { $0.append("not for B") }

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

    /// A peer syncs a document ID once: a second one could not be told apart from it.
    @Test func aDocumentIDIsSyncedOnce() throws {
        let peer = try makePeer(1, settings: Self.settings("family"))
        defer { peer.stop() }
        #expect(throws: SyncPeerError.documentAlreadySynced("family")) {
            try peer.addDocument(ReplicatedList(), settings: Self.settings("family", secret: "another secret, same ID"))
        }
    }
}

/// The rows of a further document of a peer.
private func rows(_ document: SyncDocument<ReplicatedList<String>>) -> [String] { document.read { $0.map(\.value) } }
