import Foundation
import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `Endpoint(parsing:)`: addresses, IPv6 scopes and host names parse; bad text gives a typed error and
/// never traps; numeric endpoints resolve to the `sockaddr` they name.
struct EndpointParsingTests {
    @Test(arguments: [
        ("127.0.0.1:7000", "127.0.0.1", 7000),
        ("0.0.0.0:0", "0.0.0.0", 0),
        ("[::1]:7000", "::1", 7000),
        ("[::]:65535", "::", 65535),
        ("[fe80::1%lo]:7000", "fe80::1%lo", 7000),
        ("[fe80::1%en0]:7000", "fe80::1%en0", 7000),
        ("[fe80::1%4]:7000", "fe80::1%4", 7000),
        ("[::ffff:192.0.2.1]:80", "::ffff:192.0.2.1", 80),
        ("localhost:7000", "localhost", 7000),
        ("phone.local:7000", "phone.local", 7000),
        ("my-laptop_2.example.com.:1", "my-laptop_2.example.com.", 1),
    ])
    func validEndpointsParse(text: String, host: String, port: UInt16) throws {
        let endpoint = try Endpoint(parsing: text)
        #expect(endpoint == Endpoint(host: host, port: port))
        #expect(try Endpoint(parsing: endpoint.description) == endpoint)
    }

    @Test(arguments: [
        ("", EndpointError.missingPort),
        ("127.0.0.1", .missingPort),
        ("127.0.0.1:", .invalidPort("")),
        ("127.0.0.1:65536", .invalidPort("65536")),
        ("127.0.0.1:+80", .invalidPort("+80")),
        ("127.0.0.1:0x50", .invalidPort("0x50")),
        (":7000", .emptyHost),
        ("[]:7000", .invalidAddress("")),
        ("::1:7000", .unbracketedIPv6("::1")),
        ("[::1:7000", .unbalancedBrackets),
        ("[::1]7000", .unbalancedBrackets),
        ("[::1]", .missingPort),
        ("a]:7000", .unbalancedBrackets),
        ("[127.0.0.1]:7000", .invalidAddress("127.0.0.1")),
        ("[::g]:7000", .invalidAddress("::g")),
        ("256.0.0.1:7000", .invalidAddress("256.0.0.1")),
        ("1.2.3:7000", .invalidAddress("1.2.3")),
        ("[fe80::1%]:7000", .invalidScope("")),
        ("[fe80::1%a/b]:7000", .invalidScope("a/b")),
        ("[fe80::1%abcdefghijklmnop]:7000", .invalidScope("abcdefghijklmnop")),
        ("10.0.0.1%en0:7000", .invalidScope("10.0.0.1%en0")),
        ("-phone.local:7000", .invalidHostName("-phone.local")),
        ("phone..local:7000", .invalidHostName("phone..local")),
        ("caf\u{e9}.local:7000", .invalidHostName("caf\u{e9}.local")),
        ("a\u{0}b:7000", .invalidHostName("a\u{0}b")),
        ("[::1\u{0}]:7000", .invalidAddress("::1\u{0}")),
        (
            String(repeating: "a", count: 64) + ".local:1",
            .invalidHostName(String(repeating: "a", count: 64) + ".local")
        ),
        (String(repeating: "a", count: 301), .tooLong(byteCount: 301)),
    ])
    func badEndpointsThrowTypedErrors(text: String, expected: EndpointError) {
        #expect(throws: expected) { try Endpoint(parsing: text) }
    }

    /// Random strings over the characters endpoints are made of, and random bytes: each parses or throws
    /// an ``EndpointError``, never traps; whatever parses prints back to itself. Seeded
    /// (`LISTSYNC_ENDPOINT_SEED` replays one).
    @Test func randomTextNeverTraps() throws {
        let seed = ProcessInfo.processInfo.environment["LISTSYNC_ENDPOINT_SEED"].flatMap { UInt64($0) } ?? 22
        announceSeed(
            seed, of: "endpoint parsing",
            replay: "LISTSYNC_ENDPOINT_SEED=\(seed) swift test --filter randomTextNeverTraps")
        var random = SplitMix64(seed: seed)
        let alphabet = Array("0123456789abcdefABCDEF:.[]%-_ lo\u{0}\u{e9}/+")
        var parsed = 0
        for round in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            let text =
                round % 4 == 0
                ? String(decoding: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }, as: UTF8.self)
                : String((0..<count).map { _ in alphabet.randomElement(using: &random)! })
            guard let endpoint = try? Endpoint(parsing: text) else { continue }
            parsed += 1
            #expect(try Endpoint(parsing: endpoint.description) == endpoint, "\(text.debugDescription)")
        }
        #expect(parsed > 0)
    }

    /// A scoped link-local address resolves without a lookup to the `sockaddr_in6` it names: the
    /// address, the port and the interface index of its scope (by name or by number).
    @Test func scopedLinkLocalResolvesToItsInterface() throws {
        let loopbackIndex = if_nametoindex("lo") != 0 ? if_nametoindex("lo") : if_nametoindex("lo0")
        try #require(loopbackIndex != 0, "no loopback interface named lo or lo0")
        let name = if_nametoindex("lo") != 0 ? "lo" : "lo0"
        for text in ["[fe80::1%\(name)]:7000", "[fe80::1%\(loopbackIndex)]:7000"] {
            let addresses = try Endpoint(parsing: text).addresses()
            #expect(addresses.count == 1)
            let address = try #require(addresses.first)
            #expect(address.family == AF_INET6)
            #expect(address.port == 7000)
            #expect(address.scopeID == loopbackIndex)
            #expect(address.endpoint.host.hasPrefix("fe80::1%"))
            #expect(address.endpoint.port == 7000)
        }
    }

    /// A scope naming no interface fails when resolved, with the resolver's error, not a trap.
    @Test func unknownScopeFailsToResolve() throws {
        let endpoint = try Endpoint(parsing: "[fe80::1%nosuchif9]:7000")
        #expect(throws: SocketError.self) { try endpoint.addresses() }
    }

    /// An endpoint made with `Endpoint(host:port:)` and a host that is not one fails to resolve with
    /// `EINVAL`, naming the reason.
    @Test func invalidHostFailsToResolve() {
        #expect {
            try Endpoint(host: "bad host", port: 1).addresses()
        } throws: { error in
            (error as? SocketError)?.errno == EINVAL && "\(error)".contains("invalid host name")
        }
    }
}
