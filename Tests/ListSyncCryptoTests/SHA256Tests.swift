import ListSync
import ListSyncCrypto
import Testing

/// FIPS 180-4 SHA-256 examples and incremental hashing.
struct SHA256Tests {
    /// One FIPS 180-4 example: a message and its expected digest.
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: [UInt8]
        let digest: String
        var testDescription: String { name }
    }

    static let vectors = [
        Vector(
            name: "empty string", message: [],
            digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        ),
        Vector(
            name: "abc", message: Array("abc".utf8),
            digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        ),
        Vector(
            name: "448-bit message",
            message: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        Vector(
            name: "896-bit message",
            message: Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8
            ),
            digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        Vector(
            name: "one million 'a'", message: [UInt8](repeating: 0x61, count: 1_000_000),
            digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        ),
    ]

    @Test(arguments: vectors)
    func oneShotDigestMatchesFIPS180Example(_ vector: Vector) {
        #expect(SHA256.hash(vector.message) == [UInt8](hex: vector.digest))
    }

    @Test(arguments: vectors)
    func byteAtATimeDigestMatchesFIPS180Example(_ vector: Vector) {
        var hasher = SHA256()
        for byte in vector.message.prefix(4096) {
            hasher.update(CollectionOfOne(byte))
        }
        hasher.update(vector.message.dropFirst(4096))
        #expect(hasher.finalize() == [UInt8](hex: vector.digest))
    }

    @Test(arguments: 0..<20)
    func randomChunksEqualOneShot(seed: Int) {
        var generator = SplitMix64(seed: UInt64(seed))
        let message = generator.bytes(count: Int.random(in: 0...3000, using: &generator))
        var hasher = SHA256()
        var offset = 0
        while offset < message.count {
            let end = min(message.count, offset + Int.random(in: 0...150, using: &generator))
            hasher.update(message[offset..<end])
            offset = end
        }
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    @Test
    func finalizeLeavesHasherUsable() {
        var hasher = SHA256()
        hasher.update(Array("ab".utf8))
        _ = hasher.finalize()
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize() == SHA256.hash(Array("abc".utf8)))
    }

    @Test
    func nonContiguousSequenceHashesLikeArray() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hash(message.lazy.map { $0 }) == SHA256.hash(message))
    }
}
