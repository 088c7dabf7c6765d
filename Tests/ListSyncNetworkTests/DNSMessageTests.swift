import Testing

@testable import ListSyncNetwork

/// DNS messages: packets from another implementation decode to what they hold, messages round-trip, and
/// the encoder compresses names as pinned.
struct DNSMessageTests {
    static let host = DNSPackets.name("ipad.local")
    static let instance = DNSPackets.name("_listsync._tcp.local").prepending(label: "Kitchen iPad")

    /// One message of each shape the codec has a case for.
    static let messages: [DNSMessage] = [
        DNSMessage(),
        DNSPackets.announcementMessage,
        DNSMessage(
            id: 0x1234, flags: 0x0100,
            questions: [
                DNSQuestion(name: instance, type: .any, unicastResponse: true),
                DNSQuestion(name: .root, type: DNSRecordType(rawValue: 65280), recordClass: 0x7FFF),
            ]),
        DNSMessage(
            flags: DNSMessage.responseFlags,
            answers: [
                DNSResourceRecord(name: host, cacheFlush: false, ttl: 0, data: .txt([])),
                DNSResourceRecord(
                    name: host, cacheFlush: false, ttl: 1, data: .txt([[], Array(repeating: 0xFF, count: 255)])),
                DNSResourceRecord(
                    name: .root, recordClass: 3, cacheFlush: true, ttl: .max,
                    data: .opaque(type: DNSRecordType(rawValue: 99), bytes: [])),
            ],
            authorities: [
                DNSResourceRecord(
                    name: instance, cacheFlush: true, ttl: 120,
                    data: .nsec(
                        next: instance,
                        types: [.txt, .srv, DNSRecordType(rawValue: 0x1234), DNSRecordType(rawValue: 0xFFFF)])),
                DNSResourceRecord(name: instance, cacheFlush: true, ttl: 120, data: .nsec(next: .root, types: [])),
            ],
            additionals: [
                DNSResourceRecord(
                    name: host, cacheFlush: true, ttl: 120,
                    data: .opaque(type: DNSRecordType(rawValue: 5), bytes: [1, 2, 3])),
                DNSResourceRecord(
                    name: DNSPackets.name("IPAD.local"), cacheFlush: true, ttl: 120,
                    data: .ptr(DNSPackets.name("Ipad.Local"))),
            ]),
    ]

    @Test func decodesAPacketPackedByDnslib() throws {
        #expect(try DNSMessage(decoding: DNSPackets.dnslibAnnouncement) == DNSPackets.announcementMessage)
    }

    @Test func decodesPacketsCapturedFromAvahi() throws {
        let pantry = DNSPackets.name("_listsync._tcp.local").prepending(label: "Pantry Mac")
        let probe = try DNSMessage(decoding: DNSPackets.avahiProbe)
        #expect(!probe.isResponse)
        #expect(probe.questions == [DNSQuestion(name: pantry, type: .any)])
        #expect(probe.authorities.map(\.type) == [.srv, .txt])
        let announcement = try DNSMessage(decoding: DNSPackets.avahiAnnouncement)
        #expect(announcement.flags == DNSMessage.responseFlags)
        #expect(announcement.answers.map(\.type) == [.txt, .ptr, .srv, .aaaa, .a, .ptr])
        #expect(announcement.answers.map(\.cacheFlush) == [true, false, true, true, true, false])
        let goodbye = try DNSMessage(decoding: DNSPackets.avahiGoodbye)
        #expect(goodbye.answers.map(\.ttl) == [0, 0, 0, 120, 120, 0])
        for (packet, message) in [
            (DNSPackets.avahiProbe, probe), (DNSPackets.avahiAnnouncement, announcement),
            (DNSPackets.avahiGoodbye, goodbye),
        ] {
            let bytes = try message.encoded()
            #expect(try DNSMessage(decoding: bytes) == message)
            // This encoder compresses as well as avahi does.
            #expect(bytes.count <= packet.count)
        }
    }

    @Test func decodesTheUnicastResponseBitOfAQuestion() throws {
        let message = try DNSMessage(decoding: DNSPackets.unicastQuery)
        #expect(!message.isResponse)
        #expect(
            message.questions == [
                DNSQuestion(name: DNSPackets.name("_listsync._tcp.local"), type: .ptr, unicastResponse: true)
            ])
        #expect(try message.encoded() == DNSPackets.unicastQuery)
    }

    @Test(arguments: messages.indices)
    func roundTrips(_ index: Int) throws {
        let message = Self.messages[index]
        let bytes = try message.encoded()
        let decoded = try DNSMessage(decoding: bytes)
        #expect(decoded == message)
        // Exact labels too: equality ignores case, compression must not.
        #expect(Self.allNames(decoded).map(\.labels) == Self.allNames(message).map(\.labels))
        #expect(try decoded.encoded() == bytes)
    }

    /// The encoder's bytes for the dnslib announcement, 214 bytes, parsed by dnslib 0.9.26 to the same
    /// records as its own 224: unlike dnslib, the encoder compresses the SRV target (`ipad`, then a
    /// pointer to `local`), and the A, AAAA and NSEC owner names point to that target.
    @Test func compressesNamesAsPinned() throws {
        let bytes = try DNSPackets.announcementMessage.encoded()
        let pinned = DNSPackets.bytes(
            hex: """
                000084000000000300000003095f6c69737473796e63045f746370056c6f63616c00000c000100001194000f0c4b6974
                6368656e2069506164c00cc02c0021800100000078000d000000001b580469706164c01bc02c0010800100001194002c
                09747874766572733d310c76657273696f6e733d352d35147461673d33363231313565303530383865303637c04d0001
                8001000000780004c0a80114c04d001c8001000000780010fe800000000000001c2d3e4f5a6b7c8dc04d002f80010000
                007800120469706164056c6f63616c00000440000008
                """)
        #expect(bytes == pinned)
        #expect(bytes.count < DNSPackets.dnslibAnnouncement.count)
    }

    @Test func compressionKeepsTheCaseOfEachName() throws {
        let message = DNSMessage(questions: [
            DNSQuestion(name: DNSPackets.name("a.Local"), type: .a),
            DNSQuestion(name: DNSPackets.name("b.local"), type: .a),
            DNSQuestion(name: DNSPackets.name("c.Local"), type: .a),
        ])
        let bytes = try message.encoded()
        // "b.local" is written in full (a different case is not the same bytes); "c.Local" points to "Local".
        #expect(bytes.count == 12 + (9 + 4) + (9 + 4) + (4 + 4))
        #expect(Self.allNames(try DNSMessage(decoding: bytes)).map(\.labels) == Self.allNames(message).map(\.labels))
    }

    @Test func encodingRefusesWhatNoReceiverAccepts() {
        let host = Self.host
        func message(_ data: DNSRecordData, recordClass: UInt16 = 1) -> DNSMessage {
            DNSMessage(answers: [
                DNSResourceRecord(name: host, recordClass: recordClass, cacheFlush: false, ttl: 1, data: data)
            ])
        }
        #expect(throws: DNSEncodingError.classOutOfRange(recordClass: 0x8000)) {
            try message(.ptr(host), recordClass: 0x8000).encoded()
        }
        #expect(throws: DNSEncodingError.classOutOfRange(recordClass: 0xFFFF)) {
            try DNSMessage(questions: [DNSQuestion(name: host, type: .a, recordClass: 0xFFFF)]).encoded()
        }
        #expect(throws: DNSEncodingError.textStringTooLong(byteCount: 256)) {
            try message(.txt([Array(repeating: 1, count: 256)])).encoded()
        }
        #expect(throws: DNSEncodingError.recordDataTooLong(byteCount: 65536)) {
            try message(.opaque(type: DNSRecordType(rawValue: 99), bytes: Array(repeating: 0, count: 65536))).encoded()
        }
        #expect(throws: DNSEncodingError.messageTooLarge(limit: 9000)) {
            try message(.opaque(type: DNSRecordType(rawValue: 99), bytes: Array(repeating: 0, count: 8977))).encoded()
        }
        #expect(throws: DNSEncodingError.messageTooLarge(limit: 9000)) {
            try DNSMessage(questions: Array(repeating: DNSQuestion(name: .root, type: .a), count: 70000)).encoded()
        }
        // 12 + 12 (ipad.local) + 10 (type, class, TTL, length) + 8966 = 9000: the largest accepted.
        #expect(
            (try? message(.opaque(type: DNSRecordType(rawValue: 99), bytes: Array(repeating: 0, count: 8966))).encoded()
                .count) == 9000)
    }

    /// Every name in `message`, owners and data, in order.
    static func allNames(_ message: DNSMessage) -> [DNSName] {
        message.questions.map(\.name)
            + (message.answers + message.authorities + message.additionals).flatMap { record -> [DNSName] in
                switch record.data {
                case .ptr(let target), .srv(_, _, _, let target), .nsec(let target, _): [record.name, target]
                default: [record.name]
                }
            }
    }
}
