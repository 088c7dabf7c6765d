import ListSync
import ListSyncCrypto
import Testing

/// RFC 4231 HMAC-SHA256 test cases and incremental authentication.
struct HMACSHA256Tests {
    /// One RFC 4231 test case; `code` may be truncated (test case 5 keeps 128 bits).
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let code: String
        var testDescription: String { name }
    }

    static let vectors = [
        Vector(
            name: "RFC 4231 test case 1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
            code: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        Vector(
            name: "RFC 4231 test case 2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
            code: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        Vector(
            name: "RFC 4231 test case 3", key: [UInt8](repeating: 0xaa, count: 20),
            data: [UInt8](repeating: 0xdd, count: 50),
            code: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        Vector(
            name: "RFC 4231 test case 4", key: [UInt8](hex: "0102030405060708090a0b0c0d0e0f10111213141516171819"),
            data: [UInt8](repeating: 0xcd, count: 50),
            code: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        Vector(
            name: "RFC 4231 test case 5 (truncated to 128 bits)", key: [UInt8](repeating: 0x0c, count: 20),
            data: Array("Test With Truncation".utf8), code: "a3b6167473100ee06e0c796c2955552b"
        ),
        Vector(
            name: "RFC 4231 test case 6", key: [UInt8](repeating: 0xaa, count: 131),
            data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            code: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        Vector(
            name: "RFC 4231 test case 7", key: [UInt8](repeating: 0xaa, count: 131),
            data: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8
            ),
            code: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test(arguments: vectors)
    func authenticationCodeMatchesRFC4231(_ vector: Vector) {
        let expected = [UInt8](hex: vector.code)
        let code = HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
        #expect(code.count == HMACSHA256.byteCount)
        #expect(Array(code.prefix(expected.count)) == expected)
    }

    @Test(arguments: 0..<20)
    func randomChunksEqualOneShot(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed) &+ 1000)
        let key = generator.bytes(count: Int.random(in: 0...200, using: &generator))
        let message = generator.bytes(count: Int.random(in: 0...3000, using: &generator))
        var authenticator = HMACSHA256(key: key)
        var offset = 0
        while offset < message.count {
            let end = min(message.count, offset + Int.random(in: 0...150, using: &generator))
            authenticator.update(message[offset..<end])
            offset = end
        }
        #expect(authenticator.finalize() == HMACSHA256.authenticationCode(for: message, key: key))
    }
}
