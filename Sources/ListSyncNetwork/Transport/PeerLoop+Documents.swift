/// Adding and removing documents.
extension PeerLoop {
    /// Adds `node`'s document and returns its number.
    /// - Throws: ``SyncPeerError/documentAlreadySynced(_:)`` when a document with its ID is synced already.
    func add(_ node: SyncNode<Replica>, now: ContinuousClock.Instant) throws(SyncPeerError) -> Int {
        guard !nodes.values.contains(where: { $0.settings.document == node.settings.document }) else {
            throw .documentAlreadySynced(node.settings.documentName)
        }
        defer { nextDocumentNumber += 1 }
        node.tickPresence(now: now)
        nodes[nextDocumentNumber] = node
        discoveryDocumentsChanged(now: now)
        return nextDocumentNumber
    }

    /// Stops syncing the document numbered `number` (not the first): drops its dials, says goodbye to
    /// its peers, closes its connections, ends its subscriptions, and returns its node; nil when it was
    /// removed already.
    func removeDocument(_ number: Int, now: ContinuousClock.Instant) -> SyncNode<Replica>? {
        guard number != 0, let node = nodes[number] else { return nil }
        dials = dials.filter { $0.key.document != number }
        leave(documents: [number], now: now)
        nodes[number] = nil
        node.changeFeed.finish()
        node.presenceFeed.finish()
        discoveryDocumentsChanged(now: now)
        log("stopped syncing \"\(node.settings.documentName)\"")
        return node
    }

    /// Tells the peers of `documents` that speak presence that this peer left, as far as their sockets
    /// take it at once, then closes the documents' connections with ``SyncError/shuttingDown``.
    ///
    /// Their dials must be gone already, so that nothing redials.
    func leave(documents: Set<Int>, now: ContinuousClock.Instant) {
        let present = documents.compactMap { nodes[$0] }.filter { $0.ownPresence != nil }
        for node in present { try? node.setPresence(nil, wallClockMilliseconds: 0, now: now) }
        let leaving = connections.values.filter { $0.document.map(documents.contains) == true }
            .sorted { $0.id < $1.id }
        if !present.isEmpty {
            for connection in leaving { pump(connection.id, now: now) }
        }
        for connection in leaving { close(connection, because: .shuttingDown, now: now) }
    }
}
