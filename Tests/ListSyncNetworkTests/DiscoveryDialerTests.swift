import ListSync
import Testing

@testable import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which discovered services a peer dials, fed browser events by hand.
struct DiscoveryDialerTests {
    /// The tag of the document `groceries` with the tests' secret.
    static let tag = DiscoveryTag(document: Array("groceries".utf8), secret: DNSPackets.groceriesSecret)

    /// A service `name` at 10.0.0.`host`:`port` (and an IPv6 address) advertising `tag` (then `more`)
    /// and `versions`.
    static func service(
        _ name: String, host: UInt8 = 2, port: UInt16 = 7000, tag: DiscoveryTag = tag, more: [DiscoveryTag] = [],
        versions: ClosedRange<UInt64> = SyncProtocol.versions, ipv4: Bool = true, ipv6: [String] = ["2001:db8::2"]
    ) throws -> DiscoveredService {
        let ipv6Addresses = try ipv6.map { text in
            var bytes = [UInt8](repeating: 0, count: 16)
            try #require(inet_pton(AF_INET6, text, &bytes) == 1)
            return try #require(IPv6Address(bytes: bytes))
        }
        return DiscoveredService(
            instance: try ServiceInstance(
                name: name, host: DNSName("host\(host).local"), port: port,
                ipv4Addresses: ipv4 ? [IPv4Address(10, 0, 0, host)] : [], ipv6Addresses: ipv6Addresses,
                txtRecord: PeerAdvertisement(versions: versions, tags: [tag] + more).txtRecord))
    }

    @Test func aPeerOfTheDocumentNamedAfterUsIsDialedAtItsIPv4Address() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        let decisions = dialer.handle(.found(try Self.service("Beta")))
        #expect(decisions == [.dial(name: "Beta", endpoint: Endpoint(host: "10.0.0.2", port: 7000), document: 0)])
        #expect(dialer.targets == ["Beta": .init(endpoint: Endpoint(host: "10.0.0.2", port: 7000), documents: [0])])
    }

    @Test func ourOwnInstanceIsSkipped() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        #expect(dialer.handle(.found(try Self.service("Alpha"))).isEmpty)
        #expect(dialer.targets.isEmpty)
    }

    @Test func aPeerNamedBeforeUsDialsUsAndIsNotDialed() throws {
        var dialer = DiscoveryDialer(ownName: "Beta", documents: [0: .init(tag: Self.tag)])
        #expect(dialer.handle(.found(try Self.service("Alpha"))).isEmpty)
        // Both sides agree: Alpha dials Beta, never the other way.
        var alpha = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        #expect(alpha.handle(.found(try Self.service("Beta"))).count == 1)
    }

    @Test func anotherDocumentsTagIsSkipped() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        let other = DiscoveryTag(document: Array("groceries".utf8), secret: Array(repeating: 7, count: 32))
        #expect(other != Self.tag)
        #expect(dialer.handle(.found(try Self.service("Beta", tag: other))).isEmpty)
    }

    @Test func aServiceWithoutAValidAdvertisementIsSkipped() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        let bare = DiscoveredService(
            instance: try ServiceInstance(
                name: "Beta", host: DNSName("host2.local"), port: 7000, ipv4Addresses: [IPv4Address(10, 0, 0, 2)],
                txtRecord: TXTRecord([])))
        #expect(bare.advertisement == nil)
        #expect(dialer.handle(.found(bare)).isEmpty)
    }

    @Test(arguments: [(1...4, true), (6...9, true), (1...5, false), (5...5, false), (5...9, false)])
    func disjointVersionRangesAreSkipped(theirs: ClosedRange<UInt64>, disjoint: Bool) throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag, versions: 5...5)])
        let decisions = dialer.handle(.found(try Self.service("Beta", versions: theirs)))
        #expect(decisions.isEmpty == disjoint)
    }

    @Test func withoutIPv4TheFirstIPv6AddressThatIsNotLinkLocalIsDialed() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        let service = try Self.service("Beta", ipv4: false, ipv6: ["fe80::1", "2001:db8::7"])
        #expect(
            dialer.handle(.found(service)) == [
                .dial(name: "Beta", endpoint: Endpoint(host: "2001:db8::7", port: 7000), document: 0)
            ]
        )
        var linkLocalOnly = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        #expect(linkLocalOnly.handle(.found(try Self.service("Beta", ipv4: false, ipv6: ["fe80::1"]))).isEmpty)
    }

    @Test func lostForgetsTheTarget() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        let beta = try Self.service("Beta")
        _ = dialer.handle(.found(beta))
        #expect(
            dialer.handle(.lost(beta)) == [
                .forget(name: "Beta", endpoint: Endpoint(host: "10.0.0.2", port: 7000), document: 0)
            ])
        #expect(dialer.targets.isEmpty)
        #expect(dialer.handle(.lost(beta)).isEmpty)
    }

    @Test func anUpdateMovesTheTargetOrDropsIt() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        _ = dialer.handle(.found(try Self.service("Beta")))
        #expect(dialer.handle(.updated(try Self.service("Beta"))).isEmpty)
        let moved = dialer.handle(.updated(try Self.service("Beta", port: 7001)))
        #expect(
            moved == [
                .forget(name: "Beta", endpoint: Endpoint(host: "10.0.0.2", port: 7000), document: 0),
                .dial(name: "Beta", endpoint: Endpoint(host: "10.0.0.2", port: 7001), document: 0),
            ])
        let other = DiscoveryTag(document: Array("other".utf8), secret: DNSPackets.groceriesSecret)
        #expect(
            dialer.handle(.updated(try Self.service("Beta", port: 7001, tag: other))) == [
                .forget(name: "Beta", endpoint: Endpoint(host: "10.0.0.2", port: 7001), document: 0)
            ])
    }

    /// A peer of several documents is dialed once for each document it shares with this one, and every
    /// known service is decided again when this peer adds or removes documents; a lost one is not.
    @Test func aServiceIsDialedForEachSharedDocumentAndAgainWhenTheDocumentsChange() throws {
        let chores = DiscoveryTag(document: Array("chores".utf8), secret: DNSPackets.groceriesSecret)
        let garden = DiscoveryTag(document: Array("garden".utf8), secret: DNSPackets.groceriesSecret)
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag), 3: .init(tag: chores)])
        let beta = try Self.service("Beta", more: [garden, chores])
        let at = Endpoint(host: "10.0.0.2", port: 7000)
        #expect(
            dialer.handle(.found(beta)) == [
                .dial(name: "Beta", endpoint: at, document: 0), .dial(name: "Beta", endpoint: at, document: 3),
            ])
        #expect(dialer.targets == ["Beta": .init(endpoint: at, documents: [0, 3])])
        #expect(
            dialer.setDocuments([0: .init(tag: Self.tag), 5: .init(tag: garden)]) == [
                .forget(name: "Beta", endpoint: at, document: 3), .dial(name: "Beta", endpoint: at, document: 5),
            ])
        // Versions that do not meet: not dialed.
        #expect(
            dialer.setDocuments([5: .init(tag: garden, versions: 1...2)]) == [
                .forget(name: "Beta", endpoint: at, document: 0), .forget(name: "Beta", endpoint: at, document: 5),
            ])
        #expect(dialer.targets.isEmpty)
        #expect(dialer.setDocuments([0: .init(tag: Self.tag)]) == [.dial(name: "Beta", endpoint: at, document: 0)])
        #expect(dialer.handle(.lost(beta)) == [.forget(name: "Beta", endpoint: at, document: 0)])
        #expect(dialer.setDocuments([0: .init(tag: Self.tag), 3: .init(tag: chores)]).isEmpty)
    }

    @Test func aRenamedOwnInstanceIsSkippedUnderItsNewName() throws {
        var dialer = DiscoveryDialer(ownName: "Alpha", documents: [0: .init(tag: Self.tag)])
        dialer.ownName = "Alpha (2)"
        #expect(dialer.handle(.found(try Self.service("Alpha (2)"))).isEmpty)
        #expect(dialer.handle(.found(try Self.service("Alpha"))).isEmpty)  // "Alpha" < "Alpha (2)": it dials us
        #expect(dialer.handle(.found(try Self.service("Beta"))).count == 1)
    }
}
