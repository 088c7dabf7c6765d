import ListSync
import ListSyncCrypto
import Testing

/// ChaCha20-Poly1305 seal/open round trips over seeded random inputs of 0...4096 bytes.
struct ChaChaPolyRoundTripTests {
    /// Lengths that sit on ChaCha20 (64-byte) and Poly1305 (16-byte) block edges, then seeded random lengths.
    static let cases: [(seed: UInt64, length: Int)] = {
        var generator = SplitMix64(seed: 42)
        let edges = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 4095, 4096]
        let random = (0..<100).map { _ in Int.random(in: 0...4096, using: &generator) }
        return (edges + random).enumerated().map { (seed: UInt64($0.offset), length: $0.element) }
    }()

    @Test(arguments: cases)
    func openReturnsSealedPlaintext(seed: UInt64, length: Int) throws {
        var generator = SplitMix64(seed: seed &+ 3000)
        let key = generator.bytes(count: ChaChaPoly.keyByteCount)
        let nonce = generator.bytes(count: ChaChaPoly.nonceByteCount)
        let associatedData = generator.bytes(count: Int.random(in: 0...40, using: &generator))
        let plaintext = generator.bytes(count: length)

        let sealed = try ChaChaPoly.seal(plaintext, key: key, nonce: nonce, authenticating: associatedData)
        #expect(sealed.ciphertext.count == length)
        #expect(sealed.tag.count == ChaChaPoly.tagByteCount)
        let opened = try ChaChaPoly.open(
            sealed.ciphertext, tag: sealed.tag, key: key, nonce: nonce, authenticating: associatedData
        )
        #expect(opened == plaintext)
    }
}
