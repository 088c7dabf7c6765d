import ListSync

/// One connection of a ``SyncPeer``, or an endpoint it dials while no connection to it is open, as
/// ``SyncPeer/connections`` reports it.
public struct PeerConnection: Hashable, Sendable {
    /// How far a connection has come.
    public enum State: Hashable, Sendable {
        /// A dialed endpoint between attempts: the next one starts after this delay.
        case waiting(retryIn: Duration)
        /// A dialed endpoint no longer dialed: it is this peer itself (``SyncError/selfConnection``).
        case stopped
        /// The lookup of a dialed host name, or a non-blocking connect, is in progress.
        case connecting
        /// Connected; the handshake or the version-vector exchange has not completed.
        case handshaking
        /// Authenticated, version vectors exchanged: changes stream live.
        case live
    }

    /// The other end: the dialed endpoint, or the address an accepted connection came from.
    public var remote: Endpoint
    /// Whether this peer dials it (``SyncPeer/connect(to:)``), rather than having accepted it.
    public var isDialed: Bool
    /// The other replica, once authenticated.
    public var replica: ReplicaID?
    /// How far the connection has come.
    public var state: State
    /// For a dialed endpoint: why its last connection closed, until one is live again (a refusal such
    /// as ``SyncError/authenticationFailed``, or the peer's ``SyncError/closedByPeer(code:reason:)``).
    public var lastError: SyncError?
    /// For a dialed endpoint that discovery found (``PeerConfiguration/discovery``): the name of the
    /// mDNS instance it was found as. Nil for an endpoint given to ``SyncPeer/connect(to:)`` and for an
    /// accepted connection.
    public var discoveredAs: String?
    /// The ID of the document it syncs (``SyncSettings/document``, as text); nil for an accepted
    /// connection whose first message has not named one yet.
    public var document: String?

    /// A connection to `remote` in `state`.
    public init(
        remote: Endpoint, isDialed: Bool, replica: ReplicaID?, state: State, lastError: SyncError? = nil,
        discoveredAs: String? = nil, document: String? = nil
    ) {
        self.remote = remote
        self.isDialed = isDialed
        self.replica = replica
        self.state = state
        self.lastError = lastError
        self.discoveredAs = discoveredAs
        self.document = document
    }
}

extension PeerLoop {
    /// Every open connection, then every dialed endpoint waiting for its next attempt, in a stable order.
    /// - Complexity: O(c log c) for c connections and dials.
    func connectionStates(now: ContinuousClock.Instant) -> [PeerConnection] {
        let open = connections.keys.sorted().compactMap { id -> PeerConnection? in
            guard let connection = connections[id] else { return nil }
            let state: PeerConnection.State =
                connection.isConnecting
                ? .connecting : node(of: connection)?.isLive(id) == true ? .live : .handshaking
            let lastError = state == .live ? nil : connection.dial.flatMap { dials[$0]?.lastError }
            return PeerConnection(
                remote: connection.remote, isDialed: connection.dial != nil, replica: connection.peer, state: state,
                lastError: lastError, discoveredAs: connection.discoveredAs,
                document: connection.document.flatMap { nodes[$0]?.settings.documentName })
        }
        let waiting = dials.filter { $0.value.connection == nil }.sorted { $0.key.description < $1.key.description }
            .map { target, dial in
                PeerConnection(
                    remote: target.endpoint, isDialed: true, replica: nil,
                    state: dial.lookupStartedAt != nil
                        ? .connecting : dial.nextAttempt.map { .waiting(retryIn: max(.zero, $0 - now)) } ?? .stopped,
                    lastError: dial.lastError, discoveredAs: dial.discoveredAs,
                    document: nodes[target.document]?.settings.documentName)
            }
        return open + waiting
    }
}
