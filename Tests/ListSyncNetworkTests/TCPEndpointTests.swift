import Foundation
import ListSync
import Synchronization
import Testing

@testable import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Dialing host names and IPv6 endpoints over real TCP: a name is looked up off the loop, each of its
/// addresses tried in order until one connects, and a lookup that fails or hangs is retried with backoff.
@Suite(.timeLimit(.minutes(1)))
struct TCPEndpointTests {
    /// A server with one row, listening on `endpoint`, and the port it got.
    static func server(on endpoint: Endpoint) throws -> (peer: ListPeer, port: UInt16) {
        let peer = try makePeer(1)
        peer.edit { $0.append("milk") }
        return (peer, try peer.listen(on: endpoint).port)
    }

    @Test func localhostConnects() throws {
        let (server, port) = try Self.server(on: .loopbackIPv4())
        defer { server.stop() }
        let recorder = LogRecorder()
        let client = try makePeer(2, recorder)
        defer { client.stop() }
        client.connect(to: try Endpoint(parsing: "localhost:\(port)"))
        #expect(waitUntil { rows(client) == ["milk"] }, "\(recorder.lines)")
        #expect(recorder.contains("localhost:\(port) (127.0.0.1:\(port)) connected"), "\(recorder.lines)")
    }

    /// Listening on a host name binds its first address and returns it, numeric, with the port chosen.
    @Test func listeningOnAHostNameReturnsTheBoundAddress() throws {
        let (server, port) = try Self.server(on: try Endpoint(parsing: "localhost:0"))
        defer { server.stop() }
        let bound = try #require(server.listeners.first?.endpoint)
        #expect(["127.0.0.1", "::1"].contains(bound.host) && bound.port == port && port != 0, "\(bound)")
        let client = try makePeer(2)
        defer { client.stop() }
        client.connect(to: bound)
        #expect(waitUntil { rows(client) == ["milk"] })
    }

    @Test func ipv6LoopbackConnects() throws {
        let (server, port) = try Self.server(on: try Endpoint(parsing: "[::1]:0"))
        defer { server.stop() }
        let client = try makePeer(2)
        defer { client.stop() }
        client.connect(to: try Endpoint(parsing: "[::1]:\(port)"))
        #expect(waitUntil { rows(client) == ["milk"] })
    }

    /// A name whose first address refuses: the next one is tried at once, in the same attempt.
    @Test func eachAddressIsTriedInOrderUntilOneConnects() throws {
        let (server, port) = try Self.server(on: .loopbackIPv4())
        defer { server.stop() }
        let addresses =
            try Endpoint.loopbackIPv6(port: port).addresses() + Endpoint.loopbackIPv4(port: port).addresses()
        let recorder = LogRecorder()
        let client = try makePeer(2, recorder) {
            $0.reconnectInitialDelay = .seconds(60)
            $0.lookUp = { _ in addresses }
        }
        defer { client.stop() }
        client.connect(to: Endpoint(host: "dual.test", port: port))
        #expect(waitUntil { rows(client) == ["milk"] }, "\(recorder.lines)")
        let lines = recorder.lines
        let refused = lines.firstIndex { $0.contains("dual.test:\(port) ([::1]:\(port)) closed: error 17") }
        let connected = lines.firstIndex { $0.contains("dual.test:\(port) (127.0.0.1:\(port)) connected") }
        #expect(refused != nil && connected != nil && refused! < connected!, "\(lines)")
        #expect(!recorder.contains("reconnecting to"), "\(lines)")
    }

    /// A lookup that fails is logged with the resolver's error and retried with backoff.
    @Test func failedLookupIsRetriedWithBackoff() throws {
        let recorder = LogRecorder()
        let lookups = Mutex(0)
        let client = try makePeer(2, recorder) {
            $0.lookUp = { endpoint throws(SocketError) in
                lookups.withLock { $0 += 1 }
                throw SocketError(errno: 0, function: "getaddrinfo(\(endpoint.host))", addressInfoError: EAI_NONAME)
            }
        }
        defer { client.stop() }
        client.connect(to: Endpoint(host: "nowhere.test", port: 7000))
        #expect(waitUntil { lookups.withLock { $0 } >= 3 })
        #expect(recorder.contains("connecting to nowhere.test:7000 failed: getaddrinfo(nowhere.test)"))
        #expect(recorder.contains("reconnecting to nowhere.test:7000 in"))
        let status = try #require(client.connections.first)
        #expect(
            status.lastError
                == .socket(SocketError(errno: 0, function: "getaddrinfo(nowhere.test)", addressInfoError: EAI_NONAME)))
    }

    /// A lookup that hangs fails the attempt after the connect timeout, and no second lookup of the
    /// name starts while it still runs.
    @Test func hungLookupTimesOutAndIsNotStartedTwice() throws {
        let recorder = LogRecorder()
        let lookups = Mutex(0)
        let client = try makePeer(2, recorder) {
            $0.connectTimeout = .milliseconds(300)
            $0.lookUp = { endpoint throws(SocketError) in
                lookups.withLock { $0 += 1 }
                usleep(2_000_000)
                throw SocketError(errno: 0, function: "getaddrinfo(\(endpoint.host))", addressInfoError: EAI_AGAIN)
            }
        }
        defer { client.stop() }
        client.connect(to: Endpoint(host: "slow.test", port: 7000))
        #expect(waitUntil { client.connections.first?.state == .connecting })
        #expect(waitUntil(.seconds(1.5)) { recorder.contains("getaddrinfo(slow.test): Connection timed out") })
        usleep(500_000)
        #expect(lookups.withLock { $0 } == 1)
    }

    /// A link-local address with a scope: listened on and dialed when this machine has it on its loopback
    /// interface; else binding it fails with `EADDRNOTAVAIL`, a typed error (its parsing and `sockaddr`
    /// fields are checked in ``EndpointParsingTests``).
    @Test func scopedLinkLocalConnectsWhereTheMachineHasIt() throws {
        let name = if_nametoindex("lo") != 0 ? "lo" : "lo0"
        let server = try makePeer(1)
        defer { server.stop() }
        server.edit { $0.append("milk") }
        let linkLocal = try Endpoint(parsing: "[fe80::1%\(name)]:0")
        let bound: Endpoint
        do {
            bound = try server.listen(on: linkLocal)
        } catch {
            #expect(error.errno == EADDRNOTAVAIL, "\(error)")
            return
        }
        #expect(bound.host.hasPrefix("fe80::1%"))
        let client = try makePeer(2)
        defer { client.stop() }
        client.connect(to: bound)
        #expect(waitUntil { rows(client) == ["milk"] })
    }
}
