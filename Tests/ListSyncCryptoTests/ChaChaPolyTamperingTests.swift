import ListSync
import ListSyncCrypto
import Testing

/// Every single-bit change to ciphertext, tag, nonce, associated data or key makes ChaCha20-Poly1305 open fail.
struct ChaChaPolyTamperingTests {
    /// A sealed message and everything needed to open it.
    struct Sealed {
        var ciphertext: [UInt8]
        var tag: [UInt8]
        var key: [UInt8]
        var nonce: [UInt8]
        var associatedData: [UInt8]

        /// Seals `length` seeded random bytes with 13 bytes of associated data.
        init(length: Int) throws {
            var generator = SplitMix64(seed: UInt64(length) &+ 4000)
            key = generator.bytes(count: ChaChaPoly.keyByteCount)
            nonce = generator.bytes(count: ChaChaPoly.nonceByteCount)
            associatedData = generator.bytes(count: 13)
            let sealed = try ChaChaPoly.seal(
                generator.bytes(count: length), key: key, nonce: nonce, authenticating: associatedData
            )
            (ciphertext, tag) = sealed
        }

        /// Opens the message as it now stands.
        func open() throws -> [UInt8] {
            try ChaChaPoly.open(ciphertext, tag: tag, key: key, nonce: nonce, authenticating: associatedData)
        }
    }

    /// Ciphertext lengths; those up to 64 bytes have every bit flipped, longer ones a spread-out sample.
    static let lengths = [0, 1, 17, 64, 300, 4096]

    /// Bit positions to flip in a field of `byteCount` bytes: all of them up to 64 bytes, else about 97 spread out.
    static func bitPositions(byteCount: Int) -> [Int] {
        let bitCount = byteCount * 8
        return bitCount <= 512
            ? Array(0..<bitCount) : Array(stride(from: 0, to: bitCount, by: 8 * 7 + 3)) + [bitCount - 1]
    }

    /// Flips bit `position` of `bytes`, counting from the least significant bit of the first byte.
    static func flip(_ bytes: inout [UInt8], bit position: Int) {
        bytes[position / 8] ^= 1 << UInt8(position % 8)
    }

    /// Expects that flipping each listed bit of the field at `field` makes open throw `authenticationFailure`.
    static func expectEveryFlipFails(_ original: Sealed, field: WritableKeyPath<Sealed, [UInt8]>) {
        #expect((try? original.open()) != nil)
        for position in bitPositions(byteCount: original[keyPath: field].count) {
            var tampered = original
            flip(&tampered[keyPath: field], bit: position)
            #expect(throws: CryptoError.authenticationFailure, "bit \(position)") { try tampered.open() }
        }
    }

    @Test(arguments: lengths)
    func flippedCiphertextBitFails(length: Int) throws {
        Self.expectEveryFlipFails(try Sealed(length: length), field: \.ciphertext)
    }

    @Test(arguments: lengths)
    func flippedTagBitFails(length: Int) throws {
        Self.expectEveryFlipFails(try Sealed(length: length), field: \.tag)
    }

    @Test(arguments: lengths)
    func flippedNonceBitFails(length: Int) throws {
        Self.expectEveryFlipFails(try Sealed(length: length), field: \.nonce)
    }

    @Test(arguments: lengths)
    func flippedAssociatedDataBitFails(length: Int) throws {
        Self.expectEveryFlipFails(try Sealed(length: length), field: \.associatedData)
    }

    @Test(arguments: lengths)
    func flippedKeyBitFails(length: Int) throws {
        Self.expectEveryFlipFails(try Sealed(length: length), field: \.key)
    }

    @Test
    func missingOrExtraAssociatedDataFails() throws {
        var sealed = try Sealed(length: 32)
        let associatedData = sealed.associatedData
        sealed.associatedData = []
        #expect(throws: CryptoError.authenticationFailure) { try sealed.open() }
        sealed.associatedData = associatedData + [0]
        #expect(throws: CryptoError.authenticationFailure) { try sealed.open() }
    }

    @Test
    func truncatedOrExtendedCiphertextFails() throws {
        var sealed = try Sealed(length: 32)
        let ciphertext = sealed.ciphertext
        sealed.ciphertext = Array(ciphertext.dropLast())
        #expect(throws: CryptoError.authenticationFailure) { try sealed.open() }
        sealed.ciphertext = ciphertext + [0]
        #expect(throws: CryptoError.authenticationFailure) { try sealed.open() }
    }
}
