import ListSync
import ListSyncCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state of a ``SyncPeer``'s event loop: the sync node of each document, listeners, connections and
/// dials.
///
/// Lives inside the peer's mutex; every method runs with the lock held and never blocks (sockets are
/// non-blocking; `poll` is called outside the lock).
final class PeerLoop<Replica: SyncReplica> {
    /// Where a polled descriptor belongs.
    enum PollTarget {
        case wake
        case listener(Int)
        case connection(ConnectionID)
    }

    /// A remote endpoint this peer keeps connected to.
    struct Dial {
        /// Delays between attempts after link failures and refused data.
        var backoff: Backoff
        /// Delays between attempts after the peer refused this peer's identity (secret, document, version).
        var refusalBackoff: Backoff
        /// The next attempt, when not connected; nil once dialing stopped (the endpoint is this peer).
        var nextAttempt: ContinuousClock.Instant?
        /// The connection, while one is open.
        var connection: ConnectionID?
        /// Why the last connection closed, until one is live again.
        var lastError: SyncError?
        /// The addresses of this attempt not tried yet, in order (for a host name, those of its lookup).
        var untriedAddresses: [SocketAddress] = []
        /// When the lookup of this attempt's host name started, while it runs.
        var lookupStartedAt: ContinuousClock.Instant?
        /// The mDNS instance name this endpoint was found as; nil when typed (``SyncPeer/connect(to:)``).
        var discoveredAs: String?
    }

    /// A socket this peer listens on, or one to listen on again after the system tore it down.
    struct Listener {
        /// The socket; nil while down.
        var socket: Socket?
        /// The bound address (its port chosen when 0 was asked for), listened on again after a failure.
        let address: SocketAddress
        /// `address`, for log lines and status.
        let endpoint: Endpoint
        /// Delays between attempts to listen again.
        var backoff: Backoff
        /// While down: the next attempt to listen again.
        var nextAttempt: ContinuousClock.Instant?
        /// While down: why it went down, or why the last attempt to listen again failed.
        var lastError: SocketError?
        /// When the socket was last checked for being torn down.
        var checkedAt: ContinuousClock.Instant
    }

    /// Bytes pulled from the node per connection before writing, and read per `read` call.
    static var chunkByteCount: Int { 1 << 16 }

    /// The sync core of each document, by its number (0 for a ``SyncPeer``'s first document, never removed;
    /// a removed document's number is never reused); an accepted connection is routed to one by its first
    /// frame.
    var nodes: [Int: SyncNode<Replica>] = [:]
    /// The number of the next document added.
    var nextDocumentNumber = 1
    /// Timeouts, limits and the log.
    let configuration: PeerConfiguration
    /// Interrupts `poll`.
    let wakePipe: WakePipe
    /// Listening sockets, and those waiting to listen again.
    var listeners: [Listener] = []
    /// Looks up the host names of dials.
    let resolver: NameResolver
    /// Open connections.
    var connections: [ConnectionID: TCPConnection] = [:]
    /// Accepted connections closed before their first frame chose a document, by ``SyncError/code``
    /// (no node counted them).
    var closedBeforeRouting: [UInt8: Int] = [:]
    /// Endpoints to keep connected to, each for one document.
    var dials: [DialTarget: Dial] = [:]
    /// The last refusal of an accepted connection from each host (at most 64 hosts) since a connection
    /// from it last authenticated, so that a peer refused again the same way is not logged again.
    var refusedHosts: [String: SyncError] = [:]
    /// The next connection number.
    var nextConnectionNumber = 1
    /// Jitter for reconnect delays.
    var random = SystemRandomNumberGenerator()
    /// Set by ``SyncPeer/stop()``.
    var isStopping = false
    /// Advertises and browses once the peer listens, when ``PeerConfiguration/discovery`` is set.
    var discoveryRunner: MDNSRunner?
    /// Decides which discovered services to dial, while ``discoveryRunner`` runs.
    var discoveryDialer: DiscoveryDialer?
    /// What each descriptor of the last poll set belongs to.
    private var pollTargets: [PollTarget] = []
    /// Reused read buffer.
    private var readBuffer = [UInt8](repeating: 0, count: chunkByteCount)

    /// This peer in log lines: the replica of its first document, or a random number for a peer without one.
    private let logName: String

    /// A loop whose first document (number 0) `node` syncs, or with no document yet when nil.
    init(first node: SyncNode<Replica>?, configuration: PeerConfiguration, wakePipe: WakePipe) {
        self.configuration = configuration
        self.wakePipe = wakePipe
        logName = node.map { "\($0.replicaID)" } ?? "peer-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        resolver = NameResolver(wakePipe: wakePipe, lookUp: configuration.lookUp)
        if let node {
            nodes[0] = node
            node.tickPresence(now: .now)
        }
    }

    /// The node of `connection`'s document; nil for an accepted connection not routed yet.
    func node(of connection: TCPConnection) -> SyncNode<Replica>? { connection.document.flatMap { nodes[$0] } }

    /// Whether `connection` completed its handshake.
    func isAuthenticated(_ connection: TCPConnection) -> Bool {
        node(of: connection)?.isAuthenticated(connection.id) ?? false
    }

    /// Interrupts `poll` so that queued work is done now; does nothing once stopping (the pipe may be closed).
    func wake() {
        if !isStopping { wakePipe.wake() }
    }

    /// Writes a log line prefixed with this replica.
    func log(_ message: String) { configuration.log("listsync[\(logName)] \(message)") }

    /// The descriptors to poll and their events.
    func pollSet() -> [pollfd] {
        pollTargets = [.wake]
        var descriptors = [pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
        for (index, listener) in listeners.enumerated() {
            guard let socket = listener.socket else { continue }
            descriptors.append(pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0))
            pollTargets.append(.listener(index))
        }
        for (id, connection) in connections {
            let writable = connection.isConnecting || connection.pendingByteCount > 0
            let events = connection.isConnecting ? Int16(POLLOUT) : Int16(POLLIN) | (writable ? Int16(POLLOUT) : 0)
            descriptors.append(pollfd(fd: connection.socket.descriptor, events: events, revents: 0))
            pollTargets.append(.connection(id))
        }
        return descriptors
    }

    /// Handles what `poll` reported, then writes, checks timers and starts due dials.
    func handle(_ descriptors: [pollfd], now: ContinuousClock.Instant) {
        for (descriptor, target) in zip(descriptors, pollTargets) where descriptor.revents != 0 {
            switch target {
            case .wake:
                wakePipe.drain()
            case .listener(let index):
                if index < listeners.count { acceptAll(fromListener: index, now: now) }
            case .connection(let id):
                guard let connection = connections[id] else { continue }
                if connection.isConnecting { finishConnect(connection, now: now) } else { read(connection, now: now) }
            }
        }
        for node in nodes.values {
            node.publishLocalChanges()
            node.tickPresence(now: now)
        }
        for id in connections.keys.sorted() { pump(id, now: now) }
        checkTimers(now: now)
        checkListeners(now: now)
        finishLookups(now: now)
        startDueDials(now: now)
    }

    /// Reads what is available and feeds it to the connection's node, or to its router until it has one.
    private func read(_ connection: TCPConnection, now: ContinuousClock.Instant) {
        for _ in 0..<8 {
            let count: Int?
            do {
                count = try connection.socket.readAvailable(into: &readBuffer)
            } catch {
                return close(connection, because: .socket(error), now: now)
            }
            guard let count else { return }
            guard count > 0 else {
                let partial = node(of: connection)?.partialFrame(on: connection.id) ?? connection.router?.partialFrame
                let error = partial.map { SyncError.truncatedFrame(received: $0.received, expected: $0.expected) }
                return close(connection, because: error ?? .connectionClosed, now: now)
            }
            let node: SyncNode<Replica>
            do {
                let peer: ReplicaID?
                if let routed = self.node(of: connection) {
                    node = routed
                    peer = try node.receive(readBuffer[..<count], on: connection.id)
                } else if let (chosen, received) = try route(connection, adding: readBuffer[..<count]) {
                    node = chosen
                    peer = try node.receive(received, on: connection.id)
                } else {
                    continue
                }
                if let peer { authenticated(connection, peer: peer, now: now) }
            } catch {
                return close(connection, because: error, now: now)
            }
            let frames = node.framesReceived(on: connection.id)
            if frames != connection.framesSeen {
                connection.framesSeen = frames
                connection.lastFrameAt = now
            }
            if count < readBuffer.count { return }
        }
    }

    /// Adds `bytes` to an accepted connection's first frame; once it is whole, opens the connection as
    /// responder on the node of the document it names and returns that node and every byte read so far.
    /// Nil while the frame is incomplete.
    private func route(
        _ connection: TCPConnection, adding bytes: ArraySlice<UInt8>
    ) throws(SyncError) -> (node: SyncNode<Replica>, received: [UInt8])? {
        guard var router = connection.router else { return nil }
        router.receive(bytes)
        connection.router = router
        let documents = nodes.sorted { $0.key < $1.key }
        guard let chosen = try router.route(among: documents.map(\.value.settings)) else { return nil }
        let (number, node) = documents[chosen]
        connection.document = number
        connection.router = nil
        node.open(connection.id, role: .responder, nonce: try freshNonce())
        return (node, router.received)
    }

    /// Records a completed handshake.
    private func authenticated(_ connection: TCPConnection, peer: ReplicaID, now: ContinuousClock.Instant) {
        connection.peer = peer
        connection.lastFrameAt = now
        if connection.dial == nil { refusedHosts[connection.remote.host] = nil }
        if !wasRefused(connection) { log("\(connection.label) authenticated") }
    }

    /// Moves the node's output for connection `id` to its socket, and queues a heartbeat when quiet.
    func pump(_ id: ConnectionID, now: ContinuousClock.Instant) {
        guard let connection = connections[id], !connection.isConnecting, let node = node(of: connection) else {
            return
        }
        if connection.pendingByteCount == 0 && node.isAuthenticated(id)
            && now - connection.lastSentAt >= configuration.heartbeatInterval
        {
            node.queueHeartbeat(on: id)
        }
        while connection.pendingByteCount < Self.chunkByteCount && node.hasOutput(for: id) {
            connection.queue(node.output(for: id, limit: Self.chunkByteCount), now: now)
        }
        do {
            try connection.flush(now: now)
        } catch {
            close(connection, because: .socket(error), now: now)
        }
    }

    /// Closes connections whose connect, handshake, idle or write timer ran out.
    private func checkTimers(now: ContinuousClock.Instant) {
        for connection in connections.values {
            let error: SyncError?
            if connection.isConnecting {
                let expired = now - connection.startedAt > configuration.connectTimeout
                error = expired ? .socket(SocketError(errno: ETIMEDOUT, function: "connect")) : nil
            } else if !isAuthenticated(connection) {
                error = now - connection.startedAt > configuration.handshakeTimeout ? .handshakeTimeout : nil
            } else if now - connection.lastFrameAt > configuration.idleTimeout {
                error = .idleTimeout
            } else if connection.pendingByteCount > 0
                && now - connection.lastWriteProgressAt > configuration.writeTimeout
            {
                error = .writeTimeout
            } else {
                error = nil
            }
            if let error { close(connection, because: error, now: now) }
        }
    }

    /// The longest `poll` may wait, in milliseconds: short, so that timers fire on time.
    var pollTimeoutMilliseconds: Int32 { 50 }

    /// Fresh nonce bytes for a handshake.
    func freshNonce() throws(SyncError) -> [UInt8] {
        do {
            return try SecureRandom.bytes(count: Hello.nonceByteCount)
        } catch {
            if case .randomSourceFailure(let code) = error {
                throw .socket(SocketError(errno: code, function: "getrandom"))
            }
            throw .socket(SocketError(errno: EIO, function: "getrandom"))
        }
    }
}
