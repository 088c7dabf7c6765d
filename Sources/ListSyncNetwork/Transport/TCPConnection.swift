import ListSync

/// One TCP connection of a ``SyncPeer``: its socket, the bytes waiting to be written, and its timers.
///
/// Owned by the peer's event loop, never shared.
final class TCPConnection {
    /// The node's name for it.
    let id: ConnectionID
    /// The socket.
    let socket: Socket
    /// The other end: the dialed endpoint, or the address an accepted connection came from.
    let remote: Endpoint
    /// The address connected to, when dialed (for a host name, the one of its addresses being tried).
    let address: Endpoint?
    /// The endpoint and document this connection was dialed for, to redial on close; nil when accepted.
    let dial: DialTarget?
    /// The mDNS instance name of the dialed endpoint, when discovery found it.
    let discoveredAs: String?
    /// Whether a non-blocking connect is in progress.
    var isConnecting: Bool
    /// When the connect, or once connected the handshake, started.
    var startedAt: ContinuousClock.Instant
    /// When the last complete frame arrived (or the handshake completed).
    var lastFrameAt: ContinuousClock.Instant
    /// The node's frame count at `lastFrameAt`.
    var framesSeen = 0
    /// When bytes were last written.
    var lastSentAt: ContinuousClock.Instant
    /// When pending bytes last made progress (or started waiting).
    var lastWriteProgressAt: ContinuousClock.Instant
    /// The peer's replica, once authenticated.
    var peer: ReplicaID?
    /// The number of its document in the loop's nodes: a dial's at once, an accepted connection's once
    /// its first frame chose one.
    var document: Int?
    /// Reads an accepted connection's first frame, until it chose the document.
    var router: HelloRouter?
    /// Bytes to write, from `pendingStart` on.
    private var pending: [UInt8] = []
    /// Index of the first unwritten byte of `pending`.
    private var pendingStart = 0

    /// A connection over `socket` to `remote` (at `address`, when dialed for `dial`), started at `now`;
    /// an accepted one is for the document its first frame names.
    init(
        id: ConnectionID, socket: Socket, remote: Endpoint, address: Endpoint?, dial: DialTarget?,
        discoveredAs: String? = nil, isConnecting: Bool, now: ContinuousClock.Instant
    ) {
        self.id = id
        self.socket = socket
        self.remote = remote
        self.address = address
        self.dial = dial
        self.discoveredAs = discoveredAs
        document = dial?.document
        router = dial == nil ? HelloRouter() : nil
        self.isConnecting = isConnecting
        startedAt = now
        lastFrameAt = now
        lastSentAt = now
        lastWriteProgressAt = now
    }

    /// Bytes queued and not yet written.
    var pendingByteCount: Int { pending.count - pendingStart }

    /// Queues bytes after the pending ones.
    func queue(_ bytes: [UInt8], now: ContinuousClock.Instant) {
        guard !bytes.isEmpty else { return }
        if pendingByteCount == 0 {
            pending = bytes
            pendingStart = 0
            lastWriteProgressAt = now
        } else {
            pending += bytes
        }
    }

    /// Writes as many pending bytes as the socket takes without blocking.
    func flush(now: ContinuousClock.Instant) throws(SocketError) {
        while pendingByteCount > 0 {
            let written = try socket.writeAvailable(pending[pendingStart...])
            guard written > 0 else { break }
            pendingStart += written
            lastWriteProgressAt = now
            lastSentAt = now
        }
        if pendingByteCount == 0 {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        } else if pendingStart > 1 << 16 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }

    /// `#3 127.0.0.1:5000`, the address when it is not the endpoint's host (`#4 phone.local:5000
    /// (192.168.1.20:5000)`) and, once known, the peer's replica.
    var label: String {
        let via = address.flatMap { $0 == remote ? nil : " (\($0))" } ?? ""
        return "connection \(id) \(remote)\(via)" + (peer.map { " replica \($0)" } ?? "")
    }
}
