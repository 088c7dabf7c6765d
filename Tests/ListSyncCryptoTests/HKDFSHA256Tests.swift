import ListSyncCrypto
import Testing

/// RFC 5869 HKDF-SHA256 test cases 1-3 and argument checking.
struct HKDFSHA256Tests {
    /// One RFC 5869 test case with its expected pseudorandom key and output keying material.
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let inputKeyMaterial: [UInt8]
        let salt: [UInt8]
        let info: [UInt8]
        let pseudoRandomKey: String
        let outputKeyMaterial: String
        var testDescription: String { name }
    }

    /// The bytes `first`, `first + 1`, ..., `last`.
    private static func run(_ first: UInt8, through last: UInt8) -> [UInt8] {
        Array(first...last)
    }

    static let vectors = [
        Vector(
            name: "RFC 5869 test case 1", inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22),
            salt: run(0x00, through: 0x0c), info: run(0xf0, through: 0xf9),
            pseudoRandomKey: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
            outputKeyMaterial: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        ),
        Vector(
            name: "RFC 5869 test case 2", inputKeyMaterial: run(0x00, through: 0x4f),
            salt: run(0x60, through: 0xaf), info: run(0xb0, through: 0xff),
            pseudoRandomKey: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
            outputKeyMaterial: """
                b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c
                59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71
                cc30c58179ec3e87c14c01d5c1f3434f1d87
                """
        ),
        Vector(
            name: "RFC 5869 test case 3 (empty salt and info)", inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22),
            salt: [], info: [],
            pseudoRandomKey: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
            outputKeyMaterial: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        ),
    ]

    @Test(arguments: vectors)
    func extractMatchesRFC5869(_ vector: Vector) {
        let key = HKDFSHA256.extract(salt: vector.salt, inputKeyMaterial: vector.inputKeyMaterial)
        #expect(key == [UInt8](hex: vector.pseudoRandomKey))
    }

    @Test(arguments: vectors)
    func expandMatchesRFC5869(_ vector: Vector) throws {
        let expected = [UInt8](hex: vector.outputKeyMaterial)
        let output = try HKDFSHA256.expand(
            pseudoRandomKey: [UInt8](hex: vector.pseudoRandomKey), info: vector.info, outputByteCount: expected.count
        )
        #expect(output == expected)
    }

    @Test(arguments: vectors)
    func deriveKeyMatchesRFC5869(_ vector: Vector) throws {
        let expected = [UInt8](hex: vector.outputKeyMaterial)
        let output = try HKDFSHA256.deriveKey(
            inputKeyMaterial: vector.inputKeyMaterial, salt: vector.salt, info: vector.info,
            outputByteCount: expected.count
        )
        #expect(output == expected)
    }

    @Test
    func expandProducesPrefixesOfTheSameStream() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let long = try HKDFSHA256.expand(pseudoRandomKey: key, info: [1], outputByteCount: 100)
        let short = try HKDFSHA256.expand(pseudoRandomKey: key, info: [1], outputByteCount: 33)
        #expect(Array(long.prefix(33)) == short)
        #expect(try HKDFSHA256.expand(pseudoRandomKey: key, info: [1], outputByteCount: 0).isEmpty)
    }

    @Test
    func expandAcceptsMaximumLengthAndRejectsMore() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let maximum = HKDFSHA256.maximumOutputByteCount
        #expect(try HKDFSHA256.expand(pseudoRandomKey: key, info: [], outputByteCount: maximum).count == maximum)
        #expect(throws: CryptoError.invalidOutputLength(maximum: maximum, requested: maximum + 1)) {
            try HKDFSHA256.expand(pseudoRandomKey: key, info: [], outputByteCount: maximum + 1)
        }
        #expect(throws: CryptoError.invalidOutputLength(maximum: maximum, requested: -1)) {
            try HKDFSHA256.expand(pseudoRandomKey: key, info: [], outputByteCount: -1)
        }
    }

    @Test
    func expandRejectsShortPseudoRandomKey() {
        #expect(throws: CryptoError.keyTooShort(minimum: 32, actual: 31)) {
            try HKDFSHA256.expand(pseudoRandomKey: [UInt8](repeating: 1, count: 31), info: [], outputByteCount: 16)
        }
    }
}
