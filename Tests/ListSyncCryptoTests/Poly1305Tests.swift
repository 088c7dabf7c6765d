import ListSync
import ListSyncCrypto
import Testing

/// RFC 8439 Poly1305 vectors (2.5.2 and all of A.3, including the reduction edge cases) and incremental use.
struct Poly1305Tests {
    /// One vector: the 32-byte one-time key (r then s), the message and the tag.
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String
        let message: [UInt8]
        let tag: String
        var testDescription: String { name }
    }

    static let zeros16 = String(repeating: "00", count: 16)
    static let ones16 = String(repeating: "ff", count: 16)

    static let vectors = [
        Vector(
            name: "RFC 8439 2.5.2",
            key: "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
            message: Array("Cryptographic Forum Research Group".utf8),
            tag: "a8061dc1305136c6c22b8baf0c0127a9"
        ),
        Vector(
            name: "RFC 8439 A.3 #1", key: zeros16 + zeros16, message: [UInt8](repeating: 0, count: 64), tag: zeros16
        ),
        Vector(
            name: "RFC 8439 A.3 #2 (r = 0)", key: zeros16 + "36e5f6b5c5e06070f0efca96227a863e",
            message: RFC8439Texts.ietfContribution, tag: "36e5f6b5c5e06070f0efca96227a863e"
        ),
        Vector(
            name: "RFC 8439 A.3 #3 (s = 0)", key: "36e5f6b5c5e06070f0efca96227a863e" + zeros16,
            message: RFC8439Texts.ietfContribution, tag: "f3477e7cd95417af89a6b8794c310cf0"
        ),
        Vector(
            name: "RFC 8439 A.3 #4",
            key: "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
            message: RFC8439Texts.jabberwocky, tag: "4541669a7eaaee61e708dc7cbcc5eb62"
        ),
        Vector(
            name: "RFC 8439 A.3 #5 (partially reduced result not fully reduced)",
            key: "02" + String(repeating: "00", count: 15) + zeros16,
            message: [UInt8](hex: ones16), tag: "03" + String(repeating: "00", count: 15)
        ),
        Vector(
            name: "RFC 8439 A.3 #6 (adding s overflows 2^128)",
            key: "02" + String(repeating: "00", count: 15) + ones16,
            message: [UInt8](hex: "02" + String(repeating: "00", count: 15)),
            tag: "03" + String(repeating: "00", count: 15)
        ),
        Vector(
            name: "RFC 8439 A.3 #7 (all-ones limb with carry)",
            key: "01" + String(repeating: "00", count: 15) + zeros16,
            message: [UInt8](
                hex: ones16 + "f0" + String(repeating: "ff", count: 15) + "11" + String(repeating: "00", count: 15)
            ),
            tag: "05" + String(repeating: "00", count: 15)
        ),
        Vector(
            name: "RFC 8439 A.3 #8 (result exactly 2^130-5)",
            key: "01" + String(repeating: "00", count: 15) + zeros16,
            message: [UInt8](
                hex: ones16 + "fb" + String(repeating: "fe", count: 15) + String(repeating: "01", count: 16)
            ),
            tag: zeros16
        ),
        Vector(
            name: "RFC 8439 A.3 #9 (result exactly 2^130-6)",
            key: "02" + String(repeating: "00", count: 15) + zeros16,
            message: [UInt8](hex: "fd" + String(repeating: "ff", count: 15)),
            tag: "fa" + String(repeating: "ff", count: 15)
        ),
        Vector(
            name: "RFC 8439 A.3 #10 (131-bit intermediate result)",
            key: "0100000000000000 0400000000000000" + zeros16,
            message: [UInt8](
                hex: """
                    E3 35 94 D7 50 5E 43 B9 00 00 00 00 00 00 00 00
                    33 94 D7 50 5E 43 79 CD 01 00 00 00 00 00 00 00
                    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                    01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                    """
            ),
            tag: "1400000000000000 5500000000000000"
        ),
        Vector(
            name: "RFC 8439 A.3 #11 (131-bit final result)",
            key: "0100000000000000 0400000000000000" + zeros16,
            message: [UInt8](
                hex: """
                    E3 35 94 D7 50 5E 43 B9 00 00 00 00 00 00 00 00
                    33 94 D7 50 5E 43 79 CD 01 00 00 00 00 00 00 00
                    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                    """
            ),
            tag: "1300000000000000 0000000000000000"
        ),
    ]

    @Test(arguments: vectors)
    func tagMatchesRFC8439(_ vector: Vector) throws {
        let tag = try Poly1305.authenticationCode(for: vector.message, key: [UInt8](hex: vector.key))
        #expect(tag == [UInt8](hex: vector.tag))
    }

    @Test(arguments: vectors)
    func byteAtATimeTagMatchesRFC8439(_ vector: Vector) throws {
        var authenticator = try Poly1305(key: [UInt8](hex: vector.key))
        for byte in vector.message {
            authenticator.update([byte])
        }
        #expect(authenticator.finalize() == [UInt8](hex: vector.tag))
    }

    @Test(arguments: 0..<20)
    func randomChunksEqualOneShot(seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(seed) &+ 2000)
        let key = generator.bytes(count: 32)
        let message = generator.bytes(count: Int.random(in: 0...1000, using: &generator))
        var authenticator = try Poly1305(key: key)
        var offset = 0
        while offset < message.count {
            let end = min(message.count, offset + Int.random(in: 0...40, using: &generator))
            authenticator.update(Array(message[offset..<end]))
            offset = end
        }
        #expect(authenticator.finalize() == (try Poly1305.authenticationCode(for: message, key: key)))
    }

    @Test
    func rejectsWrongKeyLength() {
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, actual: 16)) {
            try Poly1305(key: [UInt8](repeating: 1, count: 16))
        }
    }
}
