@testable import ListSyncNetwork

/// Packets and messages the DNS and DNS-SD tests share.
enum DNSPackets {
    /// The bytes spelled by `hex` (pairs of hexadecimal digits; whitespace ignored).
    static func bytes(hex: String) -> [UInt8] {
        let digits = hex.filter { !$0.isWhitespace }.map { UInt8(String($0), radix: 16)! }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// `dotted` as a name.
    static func name(_ dotted: String) -> DNSName { try! DNSName(dotted) }

    /// An announcement of `Kitchen iPad._listsync._tcp.local` at `ipad.local:7000`, as Python's dnslib
    /// 0.9.26 packs it (its own name compression: the SRV target and NSEC next name written in full).
    /// Made with `DNSRecord(DNSHeader(id=0, qr=1, aa=1))`, three answers (PTR, SRV and TXT with rclass
    /// 0x8001 but the PTR) and three additionals (A, AAAA, NSEC of `ipad.local` for A and AAAA).
    static let dnslibAnnouncement = bytes(
        hex: """
            000084000000000300000003095f6c69737473796e63045f746370056c6f63616c00000c000100001194000f0c4b6974
            6368656e2069506164c00cc02c00218001000000780012000000001b580469706164056c6f63616c00c02c0010800100
            001194002c09747874766572733d310c76657273696f6e733d352d35147461673d333632313135653035303838653036
            370469706164c01b00018001000000780004c0a80114c091001c8001000000780010fe800000000000001c2d3e4f5a6b
            7c8dc091002f80010000007800120469706164056c6f63616c00000440000008
            """)

    /// Captured from avahi-daemon 0.8 (Debian 12), its probe (a query for ANY of the instance, with the proposed SRV and TXT in the authority section), after `avahi-publish -s "Pantry Mac" _listsync._tcp
    /// 7001 txtvers=1 versions=5-5 tag=362115e05088e067` on host `avahins1` (10.77.0.1, fe80::3000:83ff:fea4:465d)
    /// in a network namespace; the bytes of one UDP datagram from port 5353.
    static let avahiProbe = bytes(
        hex: """
            0000000000010000000200000a50616e747279204d6163095f6c69737473796e63045f746370056c6f63616c0000ff00
            01c00c00210001000000780011000000001b590861766168696e7331c026c00c0010000100001194002c097478747665
            72733d310c76657273696f6e733d352d35147461673d33363231313565303530383865303637
            """)

    /// Captured from avahi-daemon 0.8 (Debian 12), one of its announcements (TXT, PTR, SRV, AAAA, A and the service type enumeration PTR, all answers), after `avahi-publish -s "Pantry Mac" _listsync._tcp
    /// 7001 txtvers=1 versions=5-5 tag=362115e05088e067` on host `avahins1` (10.77.0.1, fe80::3000:83ff:fea4:465d)
    /// in a network namespace; the bytes of one UDP datagram from port 5353.
    static let avahiAnnouncement = bytes(
        hex: """
            0000840000000006000000000a50616e747279204d6163095f6c69737473796e63045f746370056c6f63616c00001080
            0100001194002c09747874766572733d310c76657273696f6e733d352d35147461673d33363231313565303530383865
            303637c017000c0001000011940002c00cc00c00218001000000780011000000001b590861766168696e7331c026c083
            001c8001000000780010fe80000000000000300083fffea4465dc083000180010000007800040a4d0001095f73657276
            69636573075f646e732d7364045f756470c026000c0001000011940002c017
            """)

    /// Captured from avahi-daemon 0.8 (Debian 12), its goodbye when stopped (the service's records with TTL 0; the host's A and AAAA stay), after `avahi-publish -s "Pantry Mac" _listsync._tcp
    /// 7001 txtvers=1 versions=5-5 tag=362115e05088e067` on host `avahins1` (10.77.0.1, fe80::3000:83ff:fea4:465d)
    /// in a network namespace; the bytes of one UDP datagram from port 5353.
    static let avahiGoodbye = bytes(
        hex: """
            000084000000000600000000095f7365727669636573075f646e732d7364045f756470056c6f63616c00000c00010000
            00000011095f6c69737473796e63045f746370c023c034000c000100000000000d0a50616e747279204d6163c034c051
            00218001000000000011000000001b590861766168696e7331c023c070001c8001000000780010fe8000000000000030
            0083fffea4465dc070000180010000007800040a4d0001c0510010800100000000002c09747874766572733d310c7665
            7273696f6e733d352d35147461673d33363231313565303530383865303637
            """)

    /// The tag in ``dnslibAnnouncement``: of the document `groceries` with the secret 0, 1, ..., 31,
    /// computed with Python's `hmac` and `hashlib` (HKDF written out from RFC 5869).
    static let groceriesTag = "362115e05088e067"

    /// The secret of the document `groceries` in the tests: the bytes 0 to 31.
    static let groceriesSecret = Array(0..<32 as Range<UInt8>)

    /// The message ``dnslibAnnouncement`` holds.
    static let announcementMessage: DNSMessage = {
        let instance = name("_listsync._tcp.local").prepending(label: "Kitchen iPad")
        let host = name("ipad.local")
        let address6 = IPv6Address(bytes: bytes(hex: "fe800000000000001c2d3e4f5a6b7c8d"))!
        return DNSMessage(
            flags: 0x8400,
            answers: [
                DNSResourceRecord(
                    name: name("_listsync._tcp.local"), cacheFlush: false, ttl: 4500, data: .ptr(instance)),
                DNSResourceRecord(
                    name: instance, cacheFlush: true, ttl: 120,
                    data: .srv(priority: 0, weight: 0, port: 7000, target: host)),
                DNSResourceRecord(
                    name: instance, cacheFlush: true, ttl: 4500,
                    data: .txt(["txtvers=1", "versions=5-5", "tag=\(groceriesTag)"].map { Array($0.utf8) })),
            ],
            additionals: [
                DNSResourceRecord(name: host, cacheFlush: true, ttl: 120, data: .a(IPv4Address(192, 168, 1, 20))),
                DNSResourceRecord(name: host, cacheFlush: true, ttl: 120, data: .aaaa(address6)),
                DNSResourceRecord(name: host, cacheFlush: true, ttl: 120, data: .nsec(next: host, types: [.a, .aaaa])),
            ])
    }()

    /// A one-shot query with the QU bit for `_listsync._tcp.local` PTR, written by hand from RFC 6762
    /// sections 5.4 and 18: ID 0, flags 0, one question, class 0x8001.
    static let unicastQuery: [UInt8] =
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0] + [9] + Array("_listsync".utf8) + [4] + Array("_tcp".utf8) + [5]
        + Array("local".utf8) + [0, 0x00, 0x0C, 0x80, 0x01]

    /// A compression pointer to `offset`.
    static func pointer(to offset: Int) -> [UInt8] { [0xC0 | UInt8(offset >> 8), UInt8(offset & 0xFF)] }

    /// A header with these counts, ID 0 and flags 0.
    static func header(questions: UInt16 = 0, answers: UInt16 = 0, authorities: UInt16 = 0, additionals: UInt16 = 0)
        -> [UInt8]
    {
        [0, 0, 0, 0] + [questions, answers, authorities, additionals].flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}

extension DNSName {
    /// `label` followed by this name.
    func prepending(label: String) -> DNSName { try! DNSName(labels: [Array(label.utf8)]).appending(self) }
}
