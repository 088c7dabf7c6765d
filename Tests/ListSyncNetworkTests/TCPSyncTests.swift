import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// Peers over real sockets on 127.0.0.1 and ::1: convergence, relay, partitions, restart.
@Suite(.timeLimit(.minutes(1)))
struct TCPSyncTests {
    @Test(arguments: [Endpoint.loopbackIPv4(), Endpoint.loopbackIPv6()])
    func twoPeersConverge(on address: Endpoint) async throws {
        let recorder = LogRecorder()
        let a = try makePeer(1, recorder)
        let b = try makePeer(2)
        defer {
            a.stop()
            b.stop()
        }
        a.edit { $0.append(contentsOf: ["milk", "eggs"]) }
        b.edit { $0.append("tea") }
        let endpoint = try a.listen(on: address)
        b.connect(to: endpoint)
        #expect(await eventually { rows(a).count == 3 && rows(a) == rows(b) })
        b.edit { list in
            list.move(fromOffsets: [0], toOffset: 3)
            list.remove(at: 0)
        }
        a.edit { list in list.updateValue("MILK", at: list.firstIndex { $0.value == "milk" } ?? 0) }
        #expect(await eventually { rows(a) == rows(b) && rows(a).count == 2 })
        #expect(recorder.contains("listening on \(endpoint)"))
        #expect(recorder.contains("authenticated"))
    }

    /// Edges of a line, a ring and a star of five peers.
    static let topologies: [(String, [(Int, Int)])] = [
        ("line", [(0, 1), (1, 2), (2, 3), (3, 4)]),
        ("ring", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]),
        ("star", [(0, 1), (0, 2), (0, 3), (0, 4)]),
    ]

    @Test(arguments: topologies.map(\.0))
    func fivePeersConvergeWithRelay(topology: String) async throws {
        let edges = try #require(Self.topologies.first { $0.0 == topology }).1
        let peers = try (1...5).map { try makePeer(UInt64($0)) }
        defer { for peer in peers { peer.stop() } }
        let endpoints = try peers.map { try $0.listen(on: .loopbackIPv4()) }
        for (from, to) in edges { peers[from].connect(to: endpoints[to]) }
        let degrees = (0..<5).map { node in edges.count { $0.0 == node || $0.1 == node } }
        #expect(await eventually { zip(peers, degrees).allSatisfy { $0.liveConnectionCount == $1 } })
        for round in 0..<4 {
            for (index, peer) in peers.enumerated() { peer.edit { $0.append("\(index).\(round)") } }
        }
        #expect(await eventually { peers.allSatisfy { rows($0).count == 20 && rows($0) == rows(peers[0]) } })
        for peer in peers {
            let statistics = peer.statistics
            #expect(statistics.operationsApplied == 16, "\(topology): each of the 16 remote operations applied once")
            if topology != "ring" { #expect(statistics.duplicateChangeSets == 0) }
        }
    }

    /// Every connection drops while each peer keeps editing (including moving the same rows); after the
    /// partition heals, all converge with no row lost or duplicated.
    @Test func partitionAndHeal() async throws {
        let peers = try (1...4).map { try makePeer(UInt64($0)) }
        defer { for peer in peers { peer.stop() } }
        let endpoints = try peers.map { try $0.listen(on: .loopbackIPv4()) }
        let edges = [(0, 1), (1, 2), (2, 3), (3, 0)]
        for (from, to) in edges { peers[from].connect(to: endpoints[to]) }
        peers[0].edit { $0.append(contentsOf: (0..<10).map { "seed \($0)" }) }
        #expect(await eventually { peers.allSatisfy { rows($0).count == 10 } })
        for (from, to) in edges { peers[from].disconnect(from: endpoints[to]) }
        #expect(await eventually { peers.allSatisfy { $0.connectionCount == 0 } })
        var generator = SplitMix64(seed: 7)
        for step in 0..<40 {
            for (index, peer) in peers.enumerated() {
                peer.edit { list in
                    list.move(fromOffsets: [0], toOffset: list.count)
                    RandomEdits.apply(to: list, label: "\(index).\(step)", using: &generator)
                }
            }
        }
        for (from, to) in edges { peers[from].connect(to: endpoints[to]) }
        #expect(
            await eventually { Set(peers.map(rows)).count == 1 && peers.allSatisfy { $0.liveConnectionCount == 2 } })
        let expected = ReplicatedList<String>(replicaID: ReplicaID(99))
        for peer in peers { _ = try peer.read { try expected.merge($0.changes(since: VersionVector())) } }
        #expect(rows(peers[0]) == expected.map(\.value))
        for peer in peers {
            peer.read { list in
                list._checkInvariants()
                #expect(Set(list.map(\.id)).count == list.count)
            }
        }
    }

    /// A peer rebuilt from a snapshot of itself reconnects by itself and receives only what it missed.
    @Test func restartResumesWithOnlyTheMissedChanges() async throws {
        let recorder = LogRecorder()
        let server = try makePeer(1)
        defer { server.stop() }
        let client = try makePeer(2, recorder)
        let endpoint = try server.listen(on: .loopbackIPv4())
        client.connect(to: endpoint)
        server.edit { $0.append(contentsOf: (0..<3000).map { "row \($0) of a list that is long enough" }) }
        #expect(await eventually { rows(client).count == 3000 })
        let fullResend = server.read { $0.snapshot().count }
        let snapshot = client.read { $0.snapshot() }
        client.stop()
        for index in 0..<10 { server.edit { $0.updateValue("edited \(index)", at: index * 100) } }
        let restored = try ReplicatedList<String>(snapshot: snapshot, replicaID: ReplicaID(2))
        let resumed = try ListPeer(replica: restored, configuration: .test())
        defer { resumed.stop() }
        resumed.connect(to: endpoint)
        #expect(await eventually { rows(resumed) == rows(server) })
        let statistics = resumed.statistics
        let exchanged = statistics.bytesSent + statistics.bytesReceived
        #expect(exchanged * 20 < fullResend, "resume exchanged \(exchanged) bytes; a full resend is \(fullResend)")
        #expect(recorder.contains("closed: error 18 shuttingDown"))
    }

    /// The dialer keeps retrying with backoff until the listener appears, then syncs.
    @Test func dialerRetriesUntilTheListenerAppears() async throws {
        let recorder = LogRecorder()
        let endpoint = try reservedLoopbackEndpoint()
        let dialer = try makePeer(1, recorder)
        defer { dialer.stop() }
        dialer.edit { $0.append("queued while offline") }
        dialer.connect(to: endpoint)
        #expect(await eventually { recorder.lines.count { $0.contains("reconnecting to \(endpoint)") } >= 2 })
        let listener = try makePeer(2)
        defer { listener.stop() }
        try listener.listen(on: endpoint)
        #expect(await eventually { rows(listener) == ["queued while offline"] })
    }

    /// `connections` names each connection's address, direction, state and replica, and the dials waiting.
    @Test func connectionsReportAddressesAndStates() async throws {
        let listener = try makePeer(1)
        let dialer = try makePeer(2)
        defer {
            listener.stop()
            dialer.stop()
        }
        let endpoint = try listener.listen(on: .loopbackIPv4())
        dialer.connect(to: endpoint)
        #expect(
            await eventually { dialer.connections.first?.state == .live && listener.connections.first?.state == .live })
        #expect(
            dialer.connections == [
                PeerConnection(
                    remote: endpoint, isDialed: true, replica: ReplicaID(1), state: .live, document: "groceries")
            ])
        let accepted = try #require(listener.connections.first)
        #expect(!accepted.isDialed && accepted.replica == ReplicaID(2) && accepted.remote.host == "127.0.0.1")
        #expect(accepted.document == "groceries")
        listener.stop()
        #expect(
            await eventually {
                guard case .waiting = dialer.connections.first?.state else { return false }
                return dialer.connections.count == 1 && dialer.connections[0].remote == endpoint
            })
        dialer.disconnect(from: endpoint)
        #expect(dialer.connections.isEmpty)
    }
}
