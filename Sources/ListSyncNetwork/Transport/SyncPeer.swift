import Dispatch
import Foundation
import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A replica synced over TCP: listens, dials with reconnect, and runs the sync core on one event-loop thread.
///
/// ```swift
/// let peer = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(
///     sync: SyncSettings(document: "groceries", secret: secret)))
/// let endpoint = try peer.listen(on: Endpoint(host: "0.0.0.0", port: 7000))
/// peer.connect(to: try Endpoint(parsing: "laptop.local:7000"))
/// peer.edit { list in list.append("milk") }   // streamed to every connected peer
/// peer.stop()
/// ```
/// All methods are thread-safe. The replica is only touched under the peer's lock: read and change it
/// with ``read(_:)`` and ``edit(_:)``, and do not keep a reference to it past their closures. Observe
/// every change, local or remote, with ``changeEvents()`` (an `AsyncSequence`, or a main-actor closure
/// with its `observe(_:)`).
public final class SyncPeer<Replica: SyncReplica>: Sendable {
    /// The loop state, guarded.
    private let loop: Locked<PeerLoop<Replica>>
    /// Signalled when the loop thread has ended.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a peer for `replica`, the document of `configuration.sync` (which must be set); it syncs
    /// nothing until it listens or connects.
    ///
    /// The peer's thread keeps it alive until ``stop()``.
    /// - Throws: ``SocketError`` when the wake-up pipe cannot be created.
    public convenience init(replica: Replica, configuration: PeerConfiguration) throws(SocketError) {
        guard let settings = configuration.sync else {
            preconditionFailure("SyncPeer(replica:configuration:) syncs the replica as configuration.sync's document")
        }
        try self.init(first: SyncNode(replica: replica, settings: settings), configuration: configuration)
    }

    /// Starts a peer without a first document: its documents all come and go (``addDocument(_:settings:)``,
    /// ``removeDocument(_:)``), and the methods that act on the first document must not be called. A
    /// `SyncedLibrary` serves its documents with one and never hands it out.
    package convenience init(configuration: PeerConfiguration) throws(SocketError) {
        try self.init(first: nil, configuration: configuration)
    }

    /// Starts the loop thread of a peer whose first document `node` syncs (none when nil).
    private init(first node: SyncNode<Replica>?, configuration: PeerConfiguration) throws(SocketError) {
        loop = Locked(PeerLoop(first: node, configuration: configuration, wakePipe: try WakePipe()))
        Thread.detachNewThread { [self] in run() }
    }

    /// Listens on `endpoint` (port 0 picks a free port) and returns the bound endpoint. A host name is
    /// looked up first (which may block), and the first of its addresses that binds is listened on.
    ///
    /// With ``PeerConfiguration/discovery`` set, the first listener's port is advertised on the LAN and
    /// discovered peers of the document are dialed (see ``PeerDiscovery``).
    ///
    /// When the system tears the listener down (iOS does when the app is suspended), the peer listens on
    /// the same address and port again, with backoff (``listeners`` shows it meanwhile), or at once on
    /// ``reconnectNow()``.
    /// - Throws: ``SocketError`` naming the failed call (`bind` on a port in use, `getaddrinfo` for an
    ///   unknown host name).
    @discardableResult
    public func listen(on endpoint: Endpoint) throws(SocketError) -> Endpoint {
        let addresses = try endpoint.addresses()
        return try loop.withLock { loop throws(SocketError) in
            guard !loop.isStopping else { throw SocketError(errno: ECANCELED, function: "listen (peer stopped)") }
            var lastError: SocketError?
            for address in addresses {
                do throws(SocketError) {
                    let socket = try Socket(family: address.family)
                    let bound: SocketAddress
                    do throws(SocketError) {
                        bound = try socket.bindAndListen(on: address)
                    } catch {
                        socket.close()
                        throw error
                    }
                    loop.addListener(socket, address: bound, now: .now)
                    loop.startDiscovery(port: bound.endpoint.port) { [loop = self.loop] event in
                        loop.withLock { loop in loop.discovered(event, now: .now) }
                    }
                    loop.wake()
                    return bound.endpoint
                } catch {
                    lastError = error
                }
            }
            throw lastError ?? SocketError(errno: EADDRNOTAVAIL, function: "listen(\(endpoint))")
        }
    }

    /// Keeps a connection to `endpoint` open: dials now, and redials with backoff whenever it closes.
    ///
    /// Each attempt looks a host name up again (off the peer's thread; a lookup counts against
    /// ``PeerConfiguration/connectTimeout``) and tries its addresses, IPv6 and IPv4, in the order the
    /// resolver gives them, each with the connect timeout, until one connects.
    public func connect(to endpoint: Endpoint) {
        loop.withLock { loop in
            loop.addDial(DialTarget(endpoint: endpoint, document: 0), discoveredAs: nil, now: .now)
        }
    }

    /// ``connect(to:)`` for `document`.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when it was removed.
    func connect(to endpoint: Endpoint, document: SyncDocument<Replica>) throws(SyncPeerError) {
        try withNode(of: document) { loop, _ in
            loop.addDial(DialTarget(endpoint: endpoint, document: document.number), discoveredAs: nil, now: .now)
        }
    }

    /// Syncs one more document over this peer's listeners: `replica` with `settings` (its own ID and
    /// secret). An accepted connection goes to the document its HELLO names (Protocol.md section 2.4);
    /// dial peers for it with ``SyncDocument/connect(to:)``.
    ///
    /// With discovery on (``PeerConfiguration/discovery``), the document's tag is advertised at once and
    /// its peers found are dialed (the first 15 documents are advertised).
    /// - Throws: ``SyncPeerError/documentAlreadySynced(_:)`` when this peer already syncs a document
    ///   with that ID (two of them could not be told apart by a peer naming the document in clear).
    public func addDocument(
        _ replica: Replica, settings: SyncSettings
    ) throws(SyncPeerError) -> SyncDocument<Replica> {
        let node = SyncNode(replica: replica, settings: settings)
        let number = try loop.withLock { loop throws(SyncPeerError) in try loop.add(node, now: .now) }
        return SyncDocument(peer: self, number: number, settings: settings)
    }

    /// The handle of every document this peer syncs, the first (the peer's own, which its methods act on)
    /// first, then those added in the order they were added, without those removed.
    public var documents: [SyncDocument<Replica>] {
        loop.withLock { loop in
            loop.nodes.sorted { $0.key < $1.key }.map {
                SyncDocument(peer: self, number: $0.key, settings: $0.value.settings)
            }
        }
    }

    /// Stops syncing `document`, added with ``addDocument(_:settings:)``, and returns its replica with
    /// everything merged into it, for the app to keep (save it; nothing of it is deleted).
    ///
    /// Its dials stop; its connections close with ``SyncError/shuttingDown`` (error 18) after a presence
    /// goodbye, while the other documents' connections, to the same peers and ports, stay open; its
    /// ``SyncDocument/changeEvents()`` subscriptions end after the events already posted; peers that
    /// dial it from now on are refused as for a document this peer does not hold (error 6). Its handle's
    /// methods throw ``SyncPeerError/documentRemoved(_:)`` from now on. The same ID may be added again.
    /// - Returns: The replica; nil when `document` is the peer's first (the first of ``documents``, synced
    ///   until ``stop()``), was removed already, or belongs to another peer.
    @discardableResult
    public func removeDocument(_ document: SyncDocument<Replica>) -> Replica? {
        guard document.peer === self else { return nil }
        let node = loop.withLock { loop in
            defer { loop.wake() }
            return loop.removeDocument(document.number, now: .now)
        }
        return node?.replica
    }

    /// Runs `body` with the lock held on the loop and `document`'s node.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when `document` was removed.
    func withNode<Result>(
        of document: SyncDocument<Replica>, _ body: (PeerLoop<Replica>, SyncNode<Replica>) -> Result
    ) throws(SyncPeerError) -> Result {
        try loop.withLock { loop throws(SyncPeerError) in
            guard let node = loop.nodes[document.number] else {
                throw .documentRemoved(document.settings.documentName)
            }
            return body(loop, node)
        }
    }

    /// Reconnects at once, for an app returning to the foreground: listens again on every listener the
    /// system tore down, dials every endpoint waiting for its next attempt, resets every backoff, and
    /// sends a heartbeat on every connection so that one that died meanwhile is closed and redialed now.
    public func reconnectNow() {
        loop.withLock { loop in
            guard !loop.isStopping else { return }
            let now = ContinuousClock.now
            loop.relistenNow(now: now)
            loop.redialNow(now: now)
            loop.log("reconnecting now")
            loop.wake()
        }
    }

    /// Stops dialing `endpoint` and closes the connection to it.
    public func disconnect(from endpoint: Endpoint) {
        loop.withLock { loop in
            for target in loop.dials.keys where target.endpoint == endpoint {
                let dial = loop.dials.removeValue(forKey: target)
                if let id = dial?.connection, let connection = loop.connections[id] {
                    loop.close(connection, because: .shuttingDown, now: .now)
                }
            }
        }
    }

    /// Runs `body` on the replica's list as one transaction, then streams what it changed to every
    /// connected peer and delivers it to ``changeEvents()`` subscribers as one local event.
    ///
    /// - Throws: what `body` threw, after the edits it made before are kept, streamed and delivered like
    ///   any others; or the replica's ``SyncReplica/CommitFailure`` when it could not keep the change (a
    ///   store that could not log it), when nothing of it was applied. A peer of a list in memory
    ///   throws only what `body` throws.
    @discardableResult
    public func edit<Result: Sendable>(_ body: (ReplicatedList<Replica.Value>) throws -> Result) throws -> Result {
        try loop.withLock { loop in loop.edit(loop.firstNode, body) }.get()
    }

    /// ``edit(_:)`` on `document`.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when it was removed, or what ``edit(_:)`` throws.
    func edit<Result: Sendable>(
        document: SyncDocument<Replica>, _ body: (ReplicatedList<Replica.Value>) throws -> Result
    ) throws -> Result {
        try withNode(of: document) { loop, node in loop.edit(node, body) }.get()
    }

    /// Runs `body` on the replica's list without changing it.
    public func read<Result: Sendable, Failure: Error>(
        _ body: (ReplicatedList<Replica.Value>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try loop.withLock { loop in loop.firstNode.read(body) }.get()
    }

    /// ``read(_:)`` on `document`.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when it was removed, or what `body` throws.
    func read<Result: Sendable>(
        document: SyncDocument<Replica>, _ body: (ReplicatedList<Replica.Value>) throws -> Result
    ) throws -> Result {
        try withNode(of: document) { _, node in node.read(body) }.get()
    }

    /// A subscription to every change of the rows from now on, local edits and merges from peers, in
    /// order: start from its ``ChangeEvents/initialRows`` and apply each event.
    ///
    /// ```swift
    /// let events = peer.changeEvents()
    /// Task { @MainActor in
    ///     var rows = events.initialRows
    ///     for await event in events { event.apply(to: &rows) }   // ends when the peer stops
    /// }
    /// ```
    /// - Complexity: O(n) for n rows, to copy them.
    public func changeEvents() -> ChangeEvents<Replica.Value> { loop.withLock { $0.firstNode.subscribe() } }

    /// ``changeEvents()`` of `document`.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when it was removed.
    func changeEvents(document: SyncDocument<Replica>) throws(SyncPeerError) -> ChangeEvents<Replica.Value> {
        try withNode(of: document) { _, node in node.subscribe() }
    }

    /// Shows `presence` (a name, a selection, a drag) to every connected peer, and to those that
    /// connect later, until it changes or the peer stops; nil stops showing it. The peers see it within
    /// a round trip; it is never stored or merged into the list.
    ///
    /// Peers forget a presence that was not renewed for 30 s; this peer renews its own every 15 s while
    /// it runs, and says goodbye on ``stop()``. Only peers of protocol version 6 or later take part.
    /// - Throws: ``PresenceError/beyondLimits(_:)`` when `presence` exceeds ``Presence/Limits``;
    ///   nothing changed then.
    public func setPresence(_ presence: Presence?) throws(PresenceError) {
        try loop.withLock { loop in loop.setPresence(presence, on: loop.firstNode) }.get()
    }

    /// ``setPresence(_:)`` on `document`.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when it was removed, or ``PresenceError``.
    func setPresence(_ presence: Presence?, document: SyncDocument<Replica>) throws {
        try withNode(of: document) { loop, node in loop.setPresence(presence, on: node) }.get()
    }

    /// This peer's own presence, as ``setPresence(_:)`` last set it (nil before and after clearing it).
    public var ownPresence: Presence? { loop.withLock { $0.firstNode.ownPresence } }

    /// The presences of the other peers present now, by replica, without rows this replica does not
    /// show (deleted, or not arrived yet).
    public var presences: [ReplicaID: Presence] { loop.withLock { $0.firstNode.presences } }

    /// The other peers' presences now and each time they change, whole (a consumer that falls behind
    /// gets the latest only); ends when the peer stops.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await presences in peer.presenceUpdates() { model.presences = presences }
    /// }
    /// ```
    public func presenceUpdates() -> AsyncStream<[ReplicaID: Presence]> {
        loop.withLock { loop in loop.firstNode.subscribeToPresences() }
    }

    /// ``presenceUpdates()`` of `document`.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when it was removed.
    func presenceUpdates(document: SyncDocument<Replica>) throws(SyncPeerError) -> AsyncStream<[ReplicaID: Presence]> {
        try withNode(of: document) { _, node in node.subscribeToPresences() }
    }

    /// Counters of the first document's sync core, and of connections refused before their first frame
    /// named a document.
    public var statistics: SyncStatistics {
        loop.withLock { loop in
            var statistics = loop.firstNode.statistics
            statistics.closedByCode.merge(loop.closedBeforeRouting, uniquingKeysWith: +)
            return statistics
        }
    }

    /// The first document's connections whose handshake and version-vector exchange completed.
    public var liveConnectionCount: Int { loop.withLock { $0.firstNode.liveConnectionCount } }

    /// Every open connection and every dialed endpoint waiting to redial, with its address and state.
    public var connections: [PeerConnection] { loop.withLock { $0.connectionStates(now: .now) } }

    /// Every listener, listening or waiting to listen again after the system tore it down.
    public var listeners: [PeerListener] { loop.withLock { $0.listenerStates(now: .now) } }

    /// The descriptors of the listening sockets, for tests that tear one down.
    var listenerDescriptors: [Int32] { loop.withLock { $0.listeners.compactMap { $0.socket?.descriptor } } }

    /// Connections open, authenticated or not.
    public var connectionCount: Int { loop.withLock { $0.connections.count } }

    /// Closes every connection and listener, sends CLOSE to authenticated peers, says goodbye on mDNS
    /// when discovery runs, and ends the loop thread.
    ///
    /// Call once when done; later calls return at once.
    public func stop() {
        let (wasStopping, discovery) = loop.withLock { loop in
            defer {
                loop.isStopping = true
                loop.discoveryRunner = nil
            }
            loop.wake()
            return (loop.isStopping, loop.discoveryRunner)
        }
        // Outside the lock: the runner's thread may be waiting for it to deliver an event.
        discovery?.stop()
        if !wasStopping { finished.wait() }
    }

    /// The event loop: poll outside the lock, handle events inside it, until stopped.
    private func run() {
        while true {
            let (descriptors, timeout, stopping) = loop.withLock { loop in
                (loop.pollSet(), loop.pollTimeoutMilliseconds, loop.isStopping)
            }
            if stopping { break }
            var polled = descriptors
            _ = poll(&polled, nfds_t(polled.count), timeout)
            let ready = polled
            loop.withLock { loop in loop.handle(ready, now: .now) }
        }
        loop.withLock { loop in
            loop.shutDown(now: .now)
            loop.wakePipe.close()
            for node in loop.nodes.values {
                node.changeFeed.finish()
                node.presenceFeed.finish()
            }
        }
        finished.signal()
    }
}

extension SyncPeer where Replica.CommitFailure == Never {
    /// Runs `body` on the list in memory as one transaction, then streams what it changed to every
    /// connected peer and delivers it to ``changeEvents()`` subscribers as one local event.
    ///
    /// - Throws: what `body` threw, after the edits it made before are kept, streamed and delivered
    ///   like any others.
    @discardableResult
    public func edit<Result: Sendable, Failure: Error>(
        _ body: (ReplicatedList<Replica.Value>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try loop.withLock { loop in
            defer { loop.wake() }
            return loop.firstNode.edit { list in Swift.Result { () throws(Failure) in try body(list) } }
        }.get()
    }
}

extension PeerLoop {
    /// The first document's node, which the peer's own methods act on.
    fileprivate var firstNode: SyncNode<Replica> {
        guard let node = nodes[0] else {
            preconditionFailure("a SyncPeer without a first document (a SyncedLibrary's) has no document of its own")
        }
        return node
    }

    /// Runs `body` on `node`'s list as one transaction, to be streamed at once: what `body` returned or
    /// threw, or the replica's failure to keep the change.
    fileprivate func edit<Result: Sendable>(
        _ node: SyncNode<Replica>, _ body: (ReplicatedList<Replica.Value>) throws -> Result
    ) -> Swift.Result<Result, any Error> {
        defer { wake() }
        do {
            return try node.edit { list in Swift.Result { try body(list) } }
        } catch {
            return .failure(error)
        }
    }

    /// Shows `presence` as `node`'s document's own, stamped with the wall clock, and wakes the loop to
    /// send it.
    fileprivate func setPresence(_ presence: Presence?, on node: SyncNode<Replica>) -> Result<Void, PresenceError> {
        let milliseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        defer { wake() }
        return Result { () throws(PresenceError) in
            try node.setPresence(presence, wallClockMilliseconds: milliseconds, now: .now)
        }
    }
}

extension SyncNode {
    /// Runs `body` on the list without changing it.
    fileprivate func read<Result: Sendable, Failure: Error>(
        _ body: (ReplicatedList<Replica.Value>) throws(Failure) -> Result
    ) -> Swift.Result<Result, Failure> {
        replica.read { list in Swift.Result { () throws(Failure) in try body(list) } }
    }

    /// A subscription to the list's changes from now on.
    fileprivate func subscribe() -> ChangeEvents<Replica.Value> {
        replica.read { list in changeFeed.subscribe(from: list) }
    }

    /// A subscription to the other peers' presences, now and each time they change.
    fileprivate func subscribeToPresences() -> AsyncStream<[ReplicaID: Presence]> {
        presenceFeed.subscribe(current: presences)
    }
}
