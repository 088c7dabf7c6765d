#if os(Linux)
    import Foundation
    import ListSync
    import Testing

    @testable import ListSyncNetwork

    /// SyncPeers with discovery on and no typed address, in a network namespace (traffic stays in it):
    /// peers of one document find and dial each other; one with another secret is not dialed. Skipped,
    /// with the reason, when not root or a tool is missing.
    @Suite(
        .serialized,
        .enabled(if: AvahiNamespace.missingRequirement == nil, "\(AvahiNamespace.missingRequirement ?? "")"))
    struct SyncPeerDiscoveryTests {
        /// A peer of `settings`, advertised as `name` (on a random host name, the default), listening on
        /// the namespace's address, started in the peer namespace (its threads and sockets stay there).
        static func start(
            _ id: UInt64, name: String, settings: SyncSettings, _ recorder: LogRecorder,
            in namespace: AvahiNamespace
        ) throws -> ListPeer {
            var configuration = PeerConfiguration.test(recorder, settings: settings)
            configuration.discovery = PeerDiscovery(instanceName: name)
            return try namespace.inPeerNamespace { [configuration] in
                let peer = try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(id)), configuration: configuration)
                try peer.listen(on: Endpoint(host: "0.0.0.0", port: 0))
                return peer
            }
        }

        @Test func peersOfADocumentFindEachOtherAndConvergeAndAnotherSecretIsNotDialed() throws {
            let namespace = AvahiNamespace()
            defer { namespace.tearDown() }
            try namespace.setUp(avahi: false)
            let logs = (0..<3).map { _ in LogRecorder() }
            let other = SyncSettings(document: "groceries", secret: Array("another secret entirely".utf8))
            let alpha = try Self.start(1, name: "Alpha", settings: .test, logs[0], in: namespace)
            defer { alpha.stop() }
            let beta = try Self.start(2, name: "Beta", settings: .test, logs[1], in: namespace)
            defer { beta.stop() }
            let stranger = try Self.start(
                3, name: "Aardvark", settings: other, logs[2], in: namespace)
            defer { stranger.stop() }

            alpha.edit { $0.append("milk") }
            beta.edit { $0.append("eggs") }
            stranger.edit { $0.append("secret") }
            let converged = waitUntil(.seconds(15)) {
                Set(rows(alpha)) == ["milk", "eggs"] && Set(rows(beta)) == ["milk", "eggs"]
                    && alpha.liveConnectionCount == 1 && beta.liveConnectionCount == 1
            }
            for (name, log) in zip(["alpha", "beta", "stranger"], logs) {
                print("\(name):\n  " + log.lines.joined(separator: "\n  "))
            }
            #expect(converged)
            #expect(rows(alpha) == rows(beta))

            // Alpha (the lower name) dialed Beta, found by mDNS; Beta only accepted.
            let betaPort = try #require(beta.listeners.first).endpoint.port
            let dialed = alpha.connections.filter(\.isDialed)
            #expect(dialed.map(\.discoveredAs) == ["Beta"])
            #expect(dialed.map(\.remote) == [Endpoint(host: "10.77.0.2", port: betaPort)])
            #expect(dialed.first?.state == .live)
            #expect(beta.connections.map(\.isDialed) == [false])

            // The stranger's tag differs: nobody dials it, it dials nobody, nothing was refused.
            #expect(stranger.connections.isEmpty)
            #expect(!logs[2].contains("found by mDNS"))
            #expect(!logs[0].contains("Aardvark") && !logs[1].contains("Aardvark"))
            #expect(rows(stranger) == ["secret"])
            for peer in [alpha, beta] {
                #expect(peer.connections.count == 1)
                #expect(peer.statistics.connectionsAuthenticated == 1)
            }
        }

        /// A peer that starts with no document (a synced library's) advertises no tag, so nobody dials it;
        /// once it adds one, its peers find it.
        @Test func aPeerWithoutDocumentsIsFoundOnceItAddsOne() throws {
            let namespace = AvahiNamespace()
            defer { namespace.tearDown() }
            try namespace.setUp(avahi: false)
            let logs = (0..<2).map { _ in LogRecorder() }
            var configuration = PeerConfiguration.test(logs[0])
            configuration.sync = nil
            configuration.discovery = PeerDiscovery(instanceName: "Beta")
            let library = try namespace.inPeerNamespace { [configuration] in
                let peer = try ListPeer(configuration: configuration)
                try peer.listen(on: Endpoint(host: "0.0.0.0", port: 0))
                return peer
            }
            defer { library.stop() }
            let alpha = try Self.start(1, name: "Alpha", settings: .test, logs[1], in: namespace)
            defer { alpha.stop() }
            Thread.sleep(forTimeInterval: 2)  // probing and announcing are over: Alpha has seen Beta
            #expect(alpha.connections.isEmpty && library.connections.isEmpty)
            let groceries = try library.addDocument(ReplicatedList(replicaID: ReplicaID(2)), settings: .test)
            alpha.edit { $0.append("milk") }
            let synced = waitUntil(.seconds(15)) {
                (try? groceries.read { $0.map(\.value) }) == ["milk"] && groceries.liveConnectionCount == 1
            }
            for (name, log) in zip(["library", "alpha"], logs) {
                print("\(name):\n  " + log.lines.joined(separator: "\n  "))
            }
            #expect(synced)
        }

        /// A document added while discovery runs is advertised at once (the TXT record announced
        /// again) and its peers found: Alpha dials Beta for it as for the first; once Beta removes it,
        /// the first document's connection stays.
        @Test func aDocumentAddedLaterIsFoundTooAndRemovingItKeepsTheOthers() throws {
            let namespace = AvahiNamespace()
            defer { namespace.tearDown() }
            try namespace.setUp(avahi: false)
            let logs = (0..<2).map { _ in LogRecorder() }
            let alpha = try Self.start(1, name: "Alpha", settings: .test, logs[0], in: namespace)
            defer { alpha.stop() }
            let beta = try Self.start(2, name: "Beta", settings: .test, logs[1], in: namespace)
            defer { beta.stop() }
            let first = waitUntil(.seconds(15)) { alpha.liveConnectionCount == 1 && beta.liveConnectionCount == 1 }
            let chores = SyncSettings(document: "chores", secret: Array("the chores list's own secret".utf8))
            let alphaChores = try alpha.addDocument(ReplicatedList(replicaID: ReplicaID(1)), settings: chores)
            try alphaChores.edit { $0.append("sweep") }
            let betaChores = try beta.addDocument(ReplicatedList(replicaID: ReplicaID(2)), settings: chores)
            let synced = waitUntil(.seconds(15)) {
                (try? betaChores.read { $0.map(\.value) }) == ["sweep"] && betaChores.liveConnectionCount == 1
            }
            for (name, log) in zip(["alpha", "beta"], logs) {
                print("\(name):\n  " + log.lines.joined(separator: "\n  "))
            }
            #expect(first && synced)
            #expect(logs[0].contains("found by mDNS: \"Beta\" at 10.77.0.2:"))
            #expect(alpha.connections.filter(\.isDialed).compactMap(\.document).sorted() == ["chores", "groceries"])
            beta.removeDocument(betaChores)
            #expect(waitUntil(.seconds(5)) { alphaChores.liveConnectionCount == 0 })
            #expect(alpha.liveConnectionCount == 1 && beta.liveConnectionCount == 1)
        }
    }
#endif
