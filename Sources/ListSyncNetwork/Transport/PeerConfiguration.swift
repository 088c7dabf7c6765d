#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything a ``SyncPeer`` needs besides its replica: the document's settings, timeouts and the log.
public struct PeerConfiguration: Sendable {
    /// Document, secret and limits of the peer's first document, which ``SyncPeer/init(replica:configuration:)``
    /// requires; nil for peers whose documents all come and go (those of a `SyncedLibrary`), which ignore it.
    public var sync: SyncSettings?
    /// Time for a connection to complete its handshake after it is accepted or connected.
    public var handshakeTimeout: Duration = .seconds(5)
    /// Time for a non-blocking connect to succeed.
    public var connectTimeout: Duration = .seconds(5)
    /// Time without a complete frame after which a connection is closed (the peer sends heartbeats).
    public var idleTimeout: Duration = .seconds(30)
    /// A HEARTBEAT is sent after this long without sending anything.
    public var heartbeatInterval: Duration = .seconds(10)
    /// Time queued bytes may make no progress (the peer stopped reading) before the connection is closed.
    public var writeTimeout: Duration = .seconds(30)
    /// The first reconnect delay; doubled per failure with jitter up to ``reconnectMaximumDelay``.
    public var reconnectInitialDelay: Duration = .milliseconds(250)
    /// The largest reconnect delay.
    public var reconnectMaximumDelay: Duration = .seconds(30)
    /// The first reconnect delay after the peer refused this peer's identity (wrong secret or document,
    /// another protocol version): such a refusal does not go away by itself. Doubled per refusal with
    /// jitter up to ``refusalMaximumDelay``.
    public var refusalInitialDelay: Duration = .seconds(60)
    /// The largest reconnect delay after refusals of this peer's identity.
    public var refusalMaximumDelay: Duration = .seconds(600)
    /// Finding and dialing peers of the document on the LAN over multicast DNS; nil (the default) for
    /// none: only the endpoints given to ``SyncPeer/connect(to:)`` are dialed.
    public var discovery: PeerDiscovery?
    /// Connections beyond this many are closed right after accept.
    public var maximumConnections = 256
    /// Receives one line per event (listening, connected, closed with its error code, reconnecting).
    ///
    /// Called on the peer's thread with its lock held: it must not call the peer.
    public var log: @Sendable (String) -> Void = { line in
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// Looks up the addresses of a host name (tests replace it to return several addresses, or to hang).
    var lookUp: @Sendable (Endpoint) throws(SocketError) -> [SocketAddress] = { endpoint throws(SocketError) in
        try endpoint.addresses()
    }

    /// A configuration of the first document `sync`, with the default timeouts.
    public init(sync: SyncSettings) { self.sync = sync }

    /// A configuration without a first document, with the default timeouts, for peers whose documents
    /// all come and go (a `SyncedLibrary`'s).
    public init() {}
}
