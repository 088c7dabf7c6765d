import Testing

@testable import ListSyncNetwork

/// Hostile packets: each is refused with the error and byte offset it deserves, without trapping,
/// looping or reserving space for what the header claims.
struct DNSMalformedPacketTests {
    typealias Packets = DNSPackets

    /// A header with one question, then `name` and type A, class IN.
    static func question(_ name: [UInt8]) -> [UInt8] { Packets.header(questions: 1) + name + [0, 1, 0, 1] }

    /// A record of `name`, `type` and class IN, TTL 0, with `data` (its length written before it).
    static func record(_ name: [UInt8], type: UInt16, data: [UInt8], length: Int? = nil) -> [UInt8] {
        let length = length ?? data.count
        return name + [
            UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 0, UInt8(length >> 8), UInt8(length & 0xFF),
        ]
            + data
    }

    /// A packet with one answer at offset 12: the root name, an unknown type, and `data`, which starts at
    /// offset 23; then a second answer of the name `pointer` and type A, with `aData`.
    static func pointerPacket(data: [UInt8], pointer: [UInt8], aData: [UInt8] = [1, 2, 3, 4]) -> [UInt8] {
        Packets.header(answers: 2) + record([0], type: 0xFF00, data: data) + record(pointer, type: 1, data: aData)
    }

    @Test func refusesPacketsOver9000Bytes() throws {
        #expect(throws: DNSDecodingError.packetTooLarge(byteCount: 9001, limit: 9000)) {
            try DNSMessage(decoding: Array(repeating: 0, count: 9001))
        }
        // 9000 bytes: a header and one opaque record of 8977 bytes, accepted.
        let largest =
            Packets.header(answers: 1) + Self.record([0], type: 0xFF00, data: Array(repeating: 7, count: 8977))
        #expect(largest.count == 9000)
        #expect(try DNSMessage(decoding: largest).answers.count == 1)
    }

    @Test func everyTruncationIsRefused() {
        for packet in [Packets.dnslibAnnouncement, Packets.unicastQuery] {
            for length in 0..<packet.count {
                do {
                    let message = try DNSMessage(decoding: Array(packet.prefix(length)))
                    Issue.record("\(length) bytes decoded: \(message)")
                } catch .truncated(let offset) {
                    #expect(offset <= length, "\(length) bytes")
                } catch {
                    Issue.record("\(length) bytes: \(error)")
                }
            }
        }
    }

    @Test func countsAreNotTrusted() {
        let claims = Packets.header(questions: .max, answers: .max, authorities: .max, additionals: .max)
        #expect(throws: DNSDecodingError.truncated(offset: 12)) { try DNSMessage(decoding: claims) }
        #expect(throws: DNSDecodingError.truncated(offset: 12)) {
            try DNSMessage(decoding: Packets.header(additionals: .max))
        }
    }

    @Test func pointersMustGoStrictlyBackwards() {
        // To itself.
        #expect(throws: DNSDecodingError.pointerNotBackward(offset: 12, target: 12)) {
            try DNSMessage(decoding: Self.question([0xC0, 12]))
        }
        // Forward, into the type and class that follow.
        #expect(throws: DNSDecodingError.pointerNotBackward(offset: 12, target: 14)) {
            try DNSMessage(decoding: Self.question([0xC0, 14]))
        }
        // Into the header.
        #expect(throws: DNSDecodingError.pointerNotBackward(offset: 12, target: 4)) {
            try DNSMessage(decoding: Self.question([0xC0, 4]))
        }
        // A label, then a pointer back to that label: a loop although the pointer points backwards.
        #expect(throws: DNSDecodingError.pointerNotBackward(offset: 14, target: 12)) {
            try DNSMessage(decoding: Self.question([1, UInt8(ascii: "a"), 0xC0, 12]))
        }
        // Two pointers to each other (at 23 and 25, in the first answer's data); the second answer's
        // name (at 27) points to 25, which points to 23, which points back to 25.
        #expect(throws: DNSDecodingError.pointerNotBackward(offset: 23, target: 25)) {
            try DNSMessage(decoding: Self.pointerPacket(data: [0xC0, 25, 0xC0, 23], pointer: [0xC0, 25]))
        }
    }

    @Test func pointerChainsAreBounded() throws {
        /// The root at 23, then `count` pointers, each to the one before; the second answer's name (16
        /// bytes from the end) points to the last, so the name follows `count` + 1 pointers.
        func chain(_ count: Int) -> [UInt8] {
            var data: [UInt8] = [0]
            for index in 0..<count { data += Packets.pointer(to: index == 0 ? 23 : 24 + 2 * (index - 1)) }
            return Self.pointerPacket(data: data, pointer: Packets.pointer(to: 24 + 2 * (count - 1)))
        }
        #expect(try DNSMessage(decoding: chain(DNSReader.maximumPointerCount - 1)).answers[1].name == .root)
        let tooMany = chain(DNSReader.maximumPointerCount)
        #expect(throws: DNSDecodingError.tooManyPointers(offset: tooMany.count - 16)) {
            try DNSMessage(decoding: tooMany)
        }
    }

    @Test func labelLengthsAreChecked() {
        // A length byte of 64 or more is a reserved label type (01 or 10), not a longer label.
        for byte: UInt8 in [0x40, 0x7F, 0x80, 0xBF] {
            #expect(throws: DNSDecodingError.reservedLabelType(offset: 12, byte: byte)) {
                try DNSMessage(decoding: Self.question([byte] + Array(repeating: 0x61, count: 70) + [0]))
            }
        }
        // A label of 63 bytes with 62 in the packet.
        #expect(throws: DNSDecodingError.truncated(offset: 12)) {
            try DNSMessage(decoding: Packets.header(questions: 1) + [63] + Array(repeating: 0x61, count: 62))
        }
    }

    @Test func namesOver255BytesAreRefused() throws {
        let label = [63] + Array(repeating: UInt8(ascii: "a"), count: 63)
        // 4 labels of 63 bytes: 257 bytes.
        #expect(throws: DNSDecodingError.nameTooLong(offset: 12)) {
            try DNSMessage(decoding: Self.question(label + label + label + label + [0]))
        }
        // 255 bytes (63, 63, 63 and 61), then a label before a pointer to it: 257 bytes.
        let longest = label + label + label + [61] + Array(repeating: UInt8(ascii: "b"), count: 61) + [0]
        let valid = Packets.header(questions: 1) + longest + [0, 1, 0, 1]
        #expect(try DNSMessage(decoding: valid).questions[0].name.wireByteCount == 255)
        var twice = valid + [1, UInt8(ascii: "x"), 0xC0, 12, 0, 1, 0, 1]
        twice[5] = 2
        #expect(throws: DNSDecodingError.nameTooLong(offset: valid.count)) { try DNSMessage(decoding: twice) }
    }

    @Test func recordDataIsChecked() {
        let host: [UInt8] = [4] + Array("ipad".utf8) + [0]
        func answer(type: UInt16, data: [UInt8], length: Int? = nil) -> [UInt8] {
            Packets.header(answers: 1) + Self.record(host, type: type, data: data, length: length)
        }
        let dataOffset = 12 + host.count + 10
        #expect(throws: DNSDecodingError.addressLength(offset: dataOffset, type: .a, byteCount: 5)) {
            try DNSMessage(decoding: answer(type: 1, data: [1, 2, 3, 4, 5]))
        }
        #expect(throws: DNSDecodingError.addressLength(offset: dataOffset, type: .aaaa, byteCount: 4)) {
            try DNSMessage(decoding: answer(type: 28, data: [1, 2, 3, 4]))
        }
        // A PTR whose name ends a byte before its data does.
        #expect(throws: DNSDecodingError.recordDataLength(offset: dataOffset, declared: 7, used: 6)) {
            try DNSMessage(decoding: answer(type: 12, data: host + [0]))
        }
        // A PTR whose name runs past its data's length (the packet has the bytes).
        #expect(throws: DNSDecodingError.truncated(offset: dataOffset)) {
            try DNSMessage(decoding: answer(type: 12, data: host, length: 3))
        }
        // A length beyond the packet.
        #expect(throws: DNSDecodingError.truncated(offset: dataOffset)) {
            try DNSMessage(decoding: answer(type: 1, data: [1, 2, 3], length: 4))
        }
        // A TXT string longer than what is left of the data.
        #expect(throws: DNSDecodingError.truncated(offset: dataOffset + 1)) {
            try DNSMessage(decoding: answer(type: 16, data: [5, 1, 2], length: 3) + [4, 5, 6])
        }
        // An SRV without its target.
        #expect(throws: DNSDecodingError.truncated(offset: dataOffset + 6)) {
            try DNSMessage(decoding: answer(type: 33, data: [0, 0, 0, 0, 0x1B, 0x58]))
        }
    }

    @Test func nsecBitmapsAreChecked() {
        let host: [UInt8] = [4] + Array("ipad".utf8) + [0]
        let bitmapOffset = 12 + host.count + 10 + host.count
        let cases: [([UInt8], Int)] = [
            ([0, 0], 0), ([0, 33] + Array(repeating: 0, count: 33), 0), ([1, 1, 0x40, 0, 1, 0x40], 3),
            ([0, 1, 0x40, 0, 1, 0x40], 3),
        ]
        for (bitmaps, at) in cases {
            #expect(throws: DNSDecodingError.typeBitmap(offset: bitmapOffset + at), "\(bitmaps)") {
                try DNSMessage(decoding: Packets.header(answers: 1) + Self.record(host, type: 47, data: host + bitmaps))
            }
        }
    }

    @Test func trailingBytesAreRefused() {
        #expect(throws: DNSDecodingError.trailingBytes(offset: 12)) { try DNSMessage(decoding: Packets.header() + [0]) }
        #expect(throws: DNSDecodingError.trailingBytes(offset: Packets.unicastQuery.count)) {
            try DNSMessage(decoding: Packets.unicastQuery + [0, 0])
        }
    }
}
