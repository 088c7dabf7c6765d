import Foundation
import ListSync
import Testing

@testable import ListSyncNetwork

/// Hostile and broken peers: each is cut off within a bounded time, with a log line naming the error code,
/// and the server's replica and its other connections are untouched.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TCPFaultTests {
    /// A server holding two rows, its endpoint and its log, with an honest peer connected throughout.
    struct Server {
        let peer: ListPeer
        let endpoint: Endpoint
        let recorder: LogRecorder
        let honest: ListPeer

        init(settings: SyncSettings = .test) throws {
            recorder = LogRecorder()
            peer = try makePeer(1, recorder, settings: settings)
            peer.edit { $0.append(contentsOf: ["milk", "eggs"]) }
            endpoint = try peer.listen(on: .loopbackIPv4())
            honest = try makePeer(2, settings: settings)
            honest.connect(to: endpoint)
            let first = honest
            guard waitUntil(.seconds(10), { rows(first) == ["milk", "eggs"] }) else {
                throw SocketError(errno: ETIMEDOUT, function: "connect (honest peer)")
            }
        }

        /// Stops both peers.
        func stop() {
            honest.stop()
            peer.stop()
        }

        /// Waits for a log line `closed: error <code>`.
        func closed(withCode code: UInt8) -> Bool {
            waitUntil { recorder.contains("closed: error \(code) ") }
        }

        /// Whether the rows are as they were and the honest peer's first connection still syncs.
        func isHealthy() -> Bool {
            let before = peer.read { $0.count }
            peer.edit { $0.append("after the attack") }
            let synced = waitUntil { rows(honest).count == before + 1 && rows(honest) == rows(peer) }
            return synced && rows(peer).prefix(2) == ["milk", "eggs"]
                && honest.statistics.connectionsAuthenticated == 1
        }
    }

    /// Raw bytes and the error code they must cause.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let endsStream: Bool
        let code: UInt8
        var testDescription: String { name }
    }

    static let rawCases: [Case] = {
        let futureHello = SyncMessage.hello(
            Hello(
                versions: 8...8, replica: ReplicaID(7), nonce: Array(repeating: 1, count: 32),
                document: Array("groceries".utf8))
        ).encoded()
        return [
            Case(name: "garbage", bytes: Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), endsStream: false, code: 2),
            Case(name: "garbage frame", bytes: [0, 0, 0, 9, 1] + Array("XXXXXXXX".utf8), endsStream: false, code: 4),
            Case(name: "oversized length", bytes: [0x01, 0, 0, 1, 1], endsStream: false, code: 2),
            Case(name: "truncated frame", bytes: [0, 0, 0, 60, 1, 0x4C, 0x53], endsStream: true, code: 14),
            Case(name: "unknown message type", bytes: [0, 0, 0, 1, 0x7F], endsStream: false, code: 3),
            Case(
                name: "auth before hello", bytes: [0, 0, 0, 33, 2] + Array(repeating: 0, count: 32), endsStream: false,
                code: 3),
            Case(
                name: "unknown version", bytes: Framing.lengthPrefix(futureHello.count) + futureHello,
                endsStream: false, code: 5),
        ]
    }()

    @Test(arguments: rawCases)
    func badBytesCloseTheConnection(_ testCase: Case) throws {
        let server = try Server()
        defer { server.stop() }
        let client = try RawClient(server.endpoint)
        let start = ContinuousClock.now
        client.send(testCase.bytes)
        if testCase.endsStream { client.shutdownWrite() }
        #expect(client.waitForClose(timeout: .seconds(3)))
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(server.closed(withCode: testCase.code), "\(server.recorder.lines)")
        #expect(server.isHealthy())
    }

    /// A wrong secret fails the proofs (error 7) where HELLO names the document in clear, and already
    /// HELLO's tag (error 6) from version 7.
    @Test(arguments: [(5...6, SyncError.authenticationFailed), (5...7, .wrongDocument)])
    func wrongSecretIsRejected(versions: ClosedRange<UInt64>, refusal: SyncError) throws {
        let server = try Server()
        defer { server.stop() }
        let intruder = try RawPeer(
            server.endpoint,
            settings: SyncSettings(document: "groceries", secret: Array(repeating: 1, count: 32), versions: versions))
        #expect(intruder.handshake() == .closedByPeer(code: refusal.code, reason: refusal.description))
        #expect(server.closed(withCode: refusal.code))
        #expect(intruder.node.replica.isEmpty)
        #expect(server.isHealthy())
    }

    /// Bytes recorded from an honest peer's session, replayed on a new connection, fail authentication.
    @Test func replayedSessionIsRejected() throws {
        let server = try Server()
        defer { server.stop() }
        let recorded = try RawPeer(server.endpoint, replica: 0xFEED)
        #expect(recorded.handshake() == nil)
        let replay = try RawClient(server.endpoint)
        replay.send(recorded.sent)
        #expect(replay.waitForClose(timeout: .seconds(3)))
        #expect(server.closed(withCode: 7))
        #expect(server.isHealthy())
    }

    @Test func wrongDocumentIsRejected() throws {
        let server = try Server()
        defer { server.stop() }
        let stranger = try RawPeer(
            server.endpoint, settings: SyncSettings(document: "other", secret: SyncSettings.test.secret))
        #expect(stranger.handshake() == .closedByPeer(code: 6, reason: SyncError.wrongDocument.description))
        #expect(server.closed(withCode: 6))
        #expect(server.isHealthy())
    }

    @Test func flippedBitFailsTheTagCheck() throws {
        let server = try Server()
        defer { server.stop() }
        let peer = try RawPeer(server.endpoint)
        #expect(peer.handshake() == nil)
        peer.node.edit { $0.append("tampered") }
        var frame = peer.node.output(for: RawPeer.connection, limit: .max)
        frame[frame.count - 20] ^= 1
        peer.client.send(frame)
        #expect(peer.client.waitForClose(timeout: .seconds(3)))
        #expect(server.closed(withCode: 8))
        #expect(server.isHealthy())
    }

    /// A peer that stops reading: the server's queue stays bounded (it falls back to a resync) and the
    /// connection is closed when writes make no progress.
    @Test func peerThatStopsReadingIsClosed() throws {
        var settings = SyncSettings.test
        settings.outboxByteLimit = 64 << 10
        let server = try Server(settings: settings)
        defer { server.stop() }
        let peer = try RawPeer(server.endpoint, receiveBufferBytes: 4096)
        #expect(peer.handshake() == nil)
        let padding = String(repeating: "x", count: 20_000)
        var lastHeartbeat = ContinuousClock.now - .seconds(1)
        for index in 0..<300 {
            server.peer.edit { $0.append("\(index) \(padding)") }
            // The peer stops reading but stays alive: a heartbeat at least every 200 ms keeps the idle
            // timeout (1.5 s) away, however slowly this loop runs on a loaded machine (every 20 edits
            // was not enough there: the server closed it idle), so only the write timeout can close it.
            if ContinuousClock.now - lastHeartbeat >= .milliseconds(200) {
                _ = peer.sendHeartbeat()
                lastHeartbeat = .now
            }
            usleep(1_000)
        }
        let start = ContinuousClock.now
        #expect(waitUntil { !peer.sendHeartbeat() || server.recorder.contains("closed: error 13 ") })
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(server.closed(withCode: 13))
        #expect(server.peer.statistics.resyncs >= 1)
        #expect(server.peer.read { $0.count } == 302)
        #expect(server.isHealthy())
    }

    /// One byte at a time (slowloris) before authentication: the handshake deadline closes it.
    @Test func slowlorisBeforeTheHandshakeIsClosed() throws {
        let server = try Server()
        defer { server.stop() }
        let client = try RawClient(server.endpoint)
        let hello = SyncMessage.hello(
            Hello(
                versions: SyncProtocol.versions, replica: ReplicaID(7), nonce: Array(repeating: 1, count: 32),
                document: Array("groceries".utf8))
        ).encoded()
        let start = ContinuousClock.now
        for byte in Framing.lengthPrefix(hello.count) + hello {
            guard client.send([byte]), client.receive(timeout: .milliseconds(300)) != nil else { break }
        }
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(server.closed(withCode: 11))
        #expect(server.isHealthy())
    }

    /// One byte at a time after authentication: no complete frame arrives, so the idle deadline closes it.
    @Test func slowlorisAfterTheHandshakeIsClosed() throws {
        let server = try Server()
        defer { server.stop() }
        let peer = try RawPeer(server.endpoint)
        #expect(peer.handshake() == nil)
        peer.node.queueHeartbeat(on: RawPeer.connection)
        let frame = peer.node.output(for: RawPeer.connection, limit: .max)
        let start = ContinuousClock.now
        var closed = false
        for byte in frame.prefix(frame.count - 1) + Array(repeating: 0, count: 20) where !closed {
            closed = !peer.client.send([byte]) || peer.client.waitForClose(timeout: .milliseconds(300))
        }
        #expect(closed)
        #expect(ContinuousClock.now - start < .seconds(4))
        #expect(server.closed(withCode: 12))
        #expect(server.isHealthy())
    }

    /// Fifty concurrent connections, forty-five of them hostile: the five honest peers converge.
    @Test func honestPeersConvergeAmongManyMaliciousConnections() throws {
        let server = try Server()
        defer { server.stop() }
        var hostile: [RawClient] = []
        var intruders: [RawPeer] = []
        for index in 0..<15 {
            let garbage = try RawClient(server.endpoint)
            garbage.send(Array("garbage \(index) garbage garbage".utf8))
            let silent = try RawClient(server.endpoint)
            silent.send([0, 0])
            hostile += [garbage, silent]
            intruders.append(
                try RawPeer(
                    server.endpoint,
                    settings: SyncSettings(document: "groceries", secret: Array(repeating: UInt8(index), count: 16))))
        }
        let honest = try (2...6).map { try makePeer(UInt64($0)) }
        defer { for peer in honest { peer.stop() } }
        for peer in honest { peer.connect(to: server.endpoint) }
        for intruder in intruders { _ = intruder.handshake(timeout: .milliseconds(500)) }
        for (index, peer) in honest.enumerated() { peer.edit { $0.append("honest \(index)") } }
        #expect(waitUntil { honest.allSatisfy { rows($0).count == 7 && rows($0) == rows(server.peer) } })
        #expect(server.isHealthy())
        // Counted by the statistics: a refusal repeated from one host is logged once.
        #expect(waitUntil { server.peer.statistics.closedByCode.values.reduce(0, +) >= 45 })
        #expect(hostile.count + intruders.count + honest.count == 50)
    }
}

/// Polls `condition` every 20 ms, blocking, until it holds or `timeout` passes.
func waitUntil(_ timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
