import Foundation
import ListSync
import Synchronization

@testable import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#endif

/// Collects a peer's log lines.
final class LogRecorder: Sendable {
    /// The lines so far.
    private let storage = Mutex<[String]>([])

    /// The lines so far.
    var lines: [String] { storage.withLock { $0 } }

    /// Appends a line.
    func record(_ line: String) { storage.withLock { $0.append(line) } }

    /// Whether some line contains `text`.
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }
}

/// A list peer.
typealias ListPeer = SyncPeer<ReplicatedList<String>>

extension PeerConfiguration {
    /// Short timeouts so that fault tests finish in seconds.
    static func test(_ recorder: LogRecorder? = nil, settings: SyncSettings = .test) -> PeerConfiguration {
        var configuration = PeerConfiguration(sync: settings)
        configuration.handshakeTimeout = .seconds(1)
        configuration.connectTimeout = .seconds(1)
        configuration.idleTimeout = .milliseconds(1500)
        configuration.heartbeatInterval = .milliseconds(250)
        configuration.writeTimeout = .seconds(1)
        configuration.reconnectInitialDelay = .milliseconds(50)
        configuration.reconnectMaximumDelay = .milliseconds(400)
        configuration.log = { line in recorder?.record(line) }
        return configuration
    }
}

/// A peer over an empty list with replica `id`.
func makePeer(_ id: UInt64, _ recorder: LogRecorder? = nil, settings: SyncSettings = .test) throws -> ListPeer {
    try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(id)), configuration: .test(recorder, settings: settings))
}

/// The next port handed to ``reservedLoopbackEndpoint()``.
private let nextReservedPort = Mutex<UInt16>(UInt16(20_000 + getpid() % 8_000))

/// A loopback endpoint whose port no socket uses now and that no other test gets, in this process or in
/// another test process running beside it, for a test that frees a port and listens on it again (a
/// listener that goes down and comes back, a dialer that waits for its peer). The port lies below the
/// system's ephemeral range (32768-60999 on Linux, 49152-65535 on Apple platforms), which `bind` to port 0
/// and `connect` draw from; with a port from that range, another test listening on port 0 or dialing out
/// could take it while it is free.
func reservedLoopbackEndpoint() throws -> Endpoint {
    while true {
        let port = nextReservedPort.withLock { port in
            defer { port = port < 31_999 ? port + 1 : 20_000 }
            return port
        }
        guard lockPortForThisProcess(port) else { continue }
        let address = try Endpoint.loopbackIPv4(port: port).addresses()[0]
        let socket = try Socket(family: address.family)
        defer { socket.close() }
        if (try? socket.bindAndListen(on: address)) != nil { return .loopbackIPv4(port: port) }
    }
}

/// The file whose lock holds `port` for one test process.
func portLockPath(_ port: UInt16) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("listsync-tests-port-\(port).lock").path
}

/// Whether this process now holds `port` for good: an exclusive lock on a file named after it in the
/// temporary directory, kept until the process exits (the system releases it then, even after a crash).
/// Another test process that reserves ports the same way skips a port this one holds, instead of taking
/// it while a test here has freed it for a moment.
private func lockPortForThisProcess(_ port: UInt16) -> Bool {
    let descriptor = open(portLockPath(port), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
        close(descriptor)
        return false
    }
    return true  // The descriptor stays open, and the lock held, for the rest of the process.
}

/// A peer's rows.
func rows(_ peer: ListPeer) -> [String] { peer.read { $0.map(\.value) } }

/// A blocking-style TCP client for sending hostile bytes (polls the library's non-blocking socket).
final class RawClient {
    /// The socket.
    let socket: Socket

    /// Connects to `endpoint`, optionally with a small receive buffer (to stop reading sooner).
    init(_ endpoint: Endpoint, receiveBufferBytes: Int32? = nil) throws {
        let address = try endpoint.addresses()[0]
        socket = try Socket(family: address.family)
        if let receiveBufferBytes {
            try socket.setOption(level: SOL_SOCKET, name: SO_RCVBUF, value: receiveBufferBytes, label: "SO_RCVBUF")
        }
        try socket.startConnect(to: address)
        guard wait(for: Int16(POLLOUT), timeout: .seconds(5)), socket.connectionError() == nil else {
            socket.close()
            throw SocketError(errno: ETIMEDOUT, function: "connect")
        }
    }

    deinit { socket.close() }

    /// Waits until the socket is ready for `events`.
    private func wait(for events: Int16, timeout: Duration) -> Bool {
        var descriptor = pollfd(fd: socket.descriptor, events: events, revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Sends every byte (false when the server closed the connection).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            guard wait(for: Int16(POLLOUT), timeout: .seconds(5)),
                let written = try? socket.writeAvailable(bytes[offset...]), written > 0
            else { return false }
            offset += written
        }
        return true
    }

    /// The bytes that arrive within `timeout` (stops early at end of stream); nil when the stream ended.
    func receive(timeout: Duration) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        guard wait(for: Int16(POLLIN), timeout: timeout) else { return [] }
        let count: Int?
        do {
            count = try socket.readAvailable(into: &buffer)
        } catch {
            return nil
        }
        guard let count else { return [] }
        return count > 0 ? Array(buffer[..<count]) : nil
    }

    /// Reads until the server closes (true) or `timeout` passes (false).
    func waitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if receive(timeout: .milliseconds(50)) == nil { return true }
        }
        return false
    }

    /// Half-closes: the server sees the end of the stream.
    func shutdownWrite() { shutdown(socket.descriptor, Int32(SHUT_WR)) }
}

/// A sync node driven over a ``RawClient``: a peer that speaks the protocol but can then misbehave.
final class RawPeer {
    /// The connection.
    let client: RawClient
    /// The node.
    let node: SyncNode<ReplicatedList<String>>
    /// The node's name for the connection.
    static let connection = ConnectionID(1)
    /// Every byte sent so far.
    private(set) var sent: [UInt8] = []

    /// Connects to `endpoint` with `settings`.
    init(
        _ endpoint: Endpoint, settings: SyncSettings = .test, replica: UInt64 = 0xBAD, receiveBufferBytes: Int32? = nil
    ) throws {
        client = try RawClient(endpoint, receiveBufferBytes: receiveBufferBytes)
        node = SyncNode(replica: ReplicatedList(replicaID: ReplicaID(replica)), settings: settings)
        node.open(Self.connection, role: .initiator, nonce: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    /// Exchanges bytes until authenticated; returns the error that ended it, if any.
    func handshake(timeout: Duration = .seconds(5)) -> SyncError? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline && !node.isAuthenticated(Self.connection) {
            send(node.output(for: Self.connection, limit: .max))
            guard let bytes = client.receive(timeout: .milliseconds(50)) else { return .connectionClosed }
            do {
                try node.receive(bytes, on: Self.connection)
            } catch {
                return error
            }
        }
        guard node.isAuthenticated(Self.connection) else { return .handshakeTimeout }
        send(node.output(for: Self.connection, limit: .max))
        return nil
    }

    /// Sends a HEARTBEAT (a peer that writes but never reads); false when the server closed.
    func sendHeartbeat() -> Bool {
        node.queueHeartbeat(on: Self.connection)
        return send(node.output(for: Self.connection, limit: .max))
    }

    /// Sends and records bytes; false when the server closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        sent += bytes
        return client.send(bytes)
    }
}
