/// A listener of a ``SyncPeer``, as ``SyncPeer/listeners`` reports it.
public struct PeerListener: Hashable, Sendable {
    /// Whether it accepts connections.
    public enum State: Hashable, Sendable {
        /// Listening.
        case listening
        /// The system tore the socket down (as iOS does when the app is suspended): it listens on the
        /// same address again after this delay, or at once after ``SyncPeer/reconnectNow()``.
        case waiting(retryIn: Duration)
    }

    /// The bound address (with the port the system chose when 0 was asked for).
    public var endpoint: Endpoint
    /// Whether it listens.
    public var state: State
    /// While waiting: why the socket went down, or why the last attempt to listen again failed.
    public var lastError: SocketError?

    /// A listener on `endpoint` in `state`.
    public init(endpoint: Endpoint, state: State, lastError: SocketError? = nil) {
        self.endpoint = endpoint
        self.state = state
        self.lastError = lastError
    }
}
