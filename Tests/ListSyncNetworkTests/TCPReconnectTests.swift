import Foundation
import ListSync
import Testing

@testable import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Coming back after the system tore sockets down (an iOS app suspended and resumed): a dead listener
/// listens again on its address, and ``SyncPeer/reconnectNow()`` redials without waiting out a backoff.
/// Over real TCP on the loopback interface.
@Suite(.timeLimit(.minutes(1)))
struct TCPReconnectTests {
    /// A listener whose socket stops listening under it (shut down, as the system does) is closed and
    /// listened on again on the same port, logged once; a new peer then connects and syncs through it.
    @Test func deadListenerListensAgainOnTheSameAddress() throws {
        let recorder = LogRecorder()
        let server = try makePeer(1, recorder)
        defer { server.stop() }
        server.edit { $0.append("milk") }
        let endpoint = try server.listen(on: reservedLoopbackEndpoint())
        let descriptor = try #require(server.listenerDescriptors.first)
        #expect(shutdown(descriptor, Int32(SHUT_RDWR)) == 0)
        #expect(waitUntil { recorder.contains("listening again on \(endpoint)") }, "\(recorder.lines)")
        #expect(recorder.lines.count { $0.contains("listener on \(endpoint) failed") } == 1, "\(recorder.lines)")
        #expect(server.listeners == [PeerListener(endpoint: endpoint, state: .listening)])
        let client = try makePeer(2)
        defer { client.stop() }
        client.connect(to: endpoint)
        #expect(waitUntil { rows(client) == ["milk"] })
    }

    /// While the address cannot be bound again, the listener waits with backoff, shows why in
    /// ``SyncPeer/listeners`` and logs the outage once; ``SyncPeer/reconnectNow()`` retries at once once
    /// the address is free.
    @Test func listenerWaitsWhileItsAddressIsTakenThenReconnectNowListens() throws {
        let recorder = LogRecorder()
        let server = try makePeer(1, recorder) {
            $0.reconnectInitialDelay = .milliseconds(100)
            $0.reconnectMaximumDelay = .seconds(60)
        }
        defer { server.stop() }
        let endpoint = try server.listen(on: reservedLoopbackEndpoint())
        let descriptor = try #require(server.listenerDescriptors.first)
        // Another socket takes the port (SO_REUSEADDR lets it bind while the old one is still open).
        let squatter = try Socket(family: AF_INET)
        defer { squatter.close() }
        try squatter.setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
        shutdown(descriptor, Int32(SHUT_RDWR))
        #expect(waitUntil { recorder.contains("listener on \(endpoint) failed") })
        _ = try squatter.bindAndListen(on: endpoint.addresses()[0])
        #expect(waitUntil(.seconds(5)) { (server.listeners.first?.lastError?.function ?? "").hasPrefix("bind") })
        try #require(
            waitUntil {
                if case .waiting(let delay) = server.listeners.first?.state { return delay > .seconds(1) }
                return false
            }, "\(server.listeners)")
        #expect(recorder.lines.count { $0.contains("listener on \(endpoint)") } == 1, "\(recorder.lines)")
        squatter.close()
        server.reconnectNow()
        // At once: the backoff of more than a second is gone. The attempt itself runs on the peer's
        // thread, which a loaded machine may keep waiting; and if it ran and the port was not free yet
        // (another process's test may hold it a moment), the next attempt comes after the initial delay.
        let prompt =
            switch server.listeners.first?.state {
            case .listening: true
            case .waiting(let delay): delay <= .milliseconds(200)
            case nil: false
            }
        #expect(prompt, "\(server.listeners)")
        #expect(waitUntil { server.listeners.first?.state == .listening }, "\(server.listeners)")
        #expect(recorder.contains("listening again on \(endpoint)"))
    }

    /// A port these tests reserve stays theirs while a test has freed it: another test process that
    /// reserves ports (`swift test` beside `.ci/long-tests`) cannot lock it, so it does not take it.
    @Test func aReservedPortIsHeldAgainstOtherTestProcesses() throws {
        let port = try reservedLoopbackEndpoint().port
        // A lock taken through a second open file behaves as another process's lock would.
        let descriptor = open(portLockPath(port), O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    }

    /// A dial waiting out a long backoff (its peer was down) connects at once on
    /// ``SyncPeer/reconnectNow()``, once the peer is back.
    @Test func reconnectNowRedialsAPeerWhoseBackoffIsLong() throws {
        let endpoint = try reservedLoopbackEndpoint()
        let recorder = LogRecorder()
        let client = try makePeer(2, recorder) {
            $0.reconnectInitialDelay = .seconds(60)
            $0.reconnectMaximumDelay = .seconds(120)
        }
        defer { client.stop() }
        client.connect(to: endpoint)
        try #require(
            waitUntil {
                if case .waiting(let delay) = client.connections.first?.state { return delay > .seconds(20) }
                return false
            }, "\(client.connections)")
        let server = try makePeer(1)
        defer { server.stop() }
        server.edit { $0.append("eggs") }
        try server.listen(on: endpoint)
        client.reconnectNow()
        #expect(waitUntil(.seconds(5)) { rows(client) == ["eggs"] }, "\(recorder.lines)")
    }
}
