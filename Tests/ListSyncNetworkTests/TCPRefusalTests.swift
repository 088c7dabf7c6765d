import Foundation
import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// A refused peer backs off instead of redialing in a loop, logs the refusal once and shows it in its
/// status; a peer that dials itself stops. Over real TCP on the loopback interface.
struct TCPRefusalTests {
    /// The most attempts a dial can make in `elapsed` when its delays start at `initial`, double per
    /// failure up to `maximum` and are jittered down to half at most (``Backoff``), plus one for a
    /// connection accepted as the window closes. Holds however long the test task waited for a thread
    /// (under load it resumed minutes late, when the cap, not the doubling, set the delays).
    static func maximumAttempts(in elapsed: Duration, initial: Duration, maximum: Duration) -> Int {
        var backoff = Backoff(initial: initial, maximum: maximum)
        var attempts = 1
        var waited = backoff.nextDelay(random: 0)
        while waited <= elapsed {
            attempts += 1
            waited += backoff.nextDelay(random: 0)
        }
        return attempts + 1
    }

    /// Connections `recorder`'s peer accepted so far.
    static func accepted(_ recorder: LogRecorder) -> Int { recorder.lines.count { $0.hasSuffix(" accepted") } }

    /// A peer that holds the wrong secret: its redials follow the long refusal backoff, and it logs the
    /// refusal once (the server refuses HELLO's tag: error 6 at version 7).
    @Test func wrongSecretBacksOffHardAndIsLoggedOnce() async throws {
        let serverLog = LogRecorder()
        let server = try makePeer(1, serverLog)
        defer { server.stop() }
        let endpoint = try server.listen(on: .loopbackIPv4())
        let clientLog = LogRecorder()
        var configuration = PeerConfiguration.test(
            clientLog, settings: SyncSettings(document: "groceries", secret: Array("another secret, 16+ bytes".utf8)))
        configuration.refusalInitialDelay = .milliseconds(800)
        configuration.refusalMaximumDelay = .seconds(60)
        let client = try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(2)), configuration: configuration)
        defer { client.stop() }
        let start = ContinuousClock.now
        client.connect(to: endpoint)
        try await Task.sleep(for: .seconds(4))
        // Delays of at least 0.4 s, 0.8 s, 1.6 s...: 4 attempts in 4 s on an idle machine (the
        // reconnect delay of 25-400 ms would make more than 10).
        let attempts = Self.accepted(serverLog)
        let bound = Self.maximumAttempts(
            in: .now - start, initial: configuration.refusalInitialDelay, maximum: configuration.refusalMaximumDelay)
        #expect((1...bound).contains(attempts), "\(attempts) attempts, at most \(bound)")
        #expect(clientLog.lines.count { $0.contains("closed: error 16") } == 1, "\(clientLog.lines)")
        #expect(attempts < 2 || serverLog.lines.count { $0.contains("closed: error 6") } == 1, "\(serverLog.lines)")
        let status = try #require(client.connections.first { $0.remote == endpoint })
        #expect(status.lastError?.code == 16)
        #expect(status.lastError.map { RetryPolicy($0) } == .refusedIdentity)
    }

    /// A peer whose change set the other side refuses: its redials back off more and more, although
    /// each attempt gets through the handshake.
    @Test func refusedDataBacksOffAfterSuccessfulHandshakes() async throws {
        let serverLog = LogRecorder()
        var settings = SyncSettings.test
        settings.maximumChangeSetByteCount = 4096
        let server = try makePeer(1, serverLog, settings: settings)
        defer { server.stop() }
        let endpoint = try server.listen(on: .loopbackIPv4())
        let clientLog = LogRecorder()
        var configuration = PeerConfiguration.test(clientLog)
        configuration.reconnectMaximumDelay = .seconds(60)
        let client = try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(2)), configuration: configuration)
        defer { client.stop() }
        client.edit { $0.append(String(repeating: "z", count: 10_000)) }
        let start = ContinuousClock.now
        client.connect(to: endpoint)
        try await Task.sleep(for: .seconds(4))
        // Delays of at least 25 ms, 50 ms, ... doubling: 9 attempts in 4 s on an idle machine, where a
        // backoff reset by every handshake would redial 40 or more times.
        let attempts = Self.accepted(serverLog)
        let bound = Self.maximumAttempts(
            in: .now - start, initial: configuration.reconnectInitialDelay, maximum: configuration.reconnectMaximumDelay
        )
        #expect((2...bound).contains(attempts), "\(attempts) attempts, at most \(bound)")
        #expect(serverLog.contains("error 19 changeSetTooLarge"))
        #expect(server.read { $0.isEmpty })
        #expect(clientLog.lines.count { $0.contains("closed: error 16") } == 1, "\(clientLog.lines)")
        #expect(client.connections.contains { $0.lastError?.code == 16 })
    }

    /// A peer told to dial its own listener stops after the first selfConnection and says so once.
    @Test func selfDialStops() async throws {
        let log = LogRecorder()
        let peer = try makePeer(1, log)
        defer { peer.stop() }
        let endpoint = try peer.listen(on: .loopbackIPv4())
        peer.connect(to: endpoint)
        let stopped = await eventually(.seconds(20)) { peer.connections.contains { $0.state == .stopped } }
        #expect(stopped)
        try await Task.sleep(for: .seconds(1))
        #expect(Self.accepted(log) == 1)
        #expect(log.lines.count { $0.contains("stopped dialing \(endpoint)") } == 1)
        #expect(peer.connections.first { $0.state == .stopped }?.lastError.map { RetryPolicy($0) } == .stop)
    }
}
