import Testing

@testable import ListSyncNetwork

/// The addresses of A and AAAA records, and their text (RFC 5952 for IPv6), as logs and dialing use it.
struct IPAddressTests {
    @Test(arguments: [
        ("20010db8000000000000000000000001", "2001:db8::1"),
        ("fe800000000000001c2d3e4f5a6b7c8d", "fe80::1c2d:3e4f:5a6b:7c8d"),
        ("00000000000000000000000000000000", "::"),
        ("00000000000000000000000000000001", "::1"),
        ("20010db8000000010000000000000000", "2001:db8:0:1::"),
        // One zero group is not shortened; of two equal runs, the first is.
        ("20010db8000100000001000100010001", "2001:db8:1:0:1:1:1:1"),
        ("20010000000000010000000000000001", "2001:0:0:1::1"),
        ("20010000000000010000000000010001", "2001::1:0:0:1:1"),
        ("20010db8000000000001000000000001", "2001:db8::1:0:0:1"),
    ])
    func ipv6TextIsCanonical(hex: String, text: String) throws {
        #expect(try #require(IPv6Address(bytes: DNSPackets.bytes(hex: hex))).description == text)
    }

    @Test func addressesHaveExactlyTheirLength() {
        #expect(IPv4Address(bytes: [10, 0, 0, 1])?.description == "10.0.0.1")
        #expect(IPv4Address(bytes: [10, 0, 0]) == nil)
        #expect(IPv6Address(bytes: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(IPv4Address(192, 168, 1, 20).bytes == [192, 168, 1, 20])
    }

    @Test func recordTypesHaveTheirMnemonics() {
        #expect(
            [DNSRecordType.a, .ptr, .txt, .aaaa, .srv, .nsec, .any].map(\.description) == [
                "A", "PTR", "TXT", "AAAA", "SRV", "NSEC", "ANY",
            ])
        #expect(DNSRecordType(rawValue: 65280).description == "TYPE65280")
    }
}
