import ListSyncCrypto
import Testing

/// RFC 8439 Poly1305 key generation (2.6.2, A.4), AEAD seal (2.8.2) and decryption (A.5), and argument checking.
struct ChaChaPolyTests {
    /// One Poly1305 key generation vector.
    struct KeyGenerationVector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String
        let nonce: String
        let oneTimeKey: String
        var testDescription: String { name }
    }

    /// One AEAD vector: inputs, ciphertext and tag.
    struct AEADVector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: String
        let nonce: String
        let associatedData: String
        let plaintext: [UInt8]
        let ciphertext: String
        let tag: String
        var testDescription: String { name }
    }

    static let senderKey = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    static let appendixKey = "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"

    static let keyGenerationVectors = [
        KeyGenerationVector(
            name: "RFC 8439 2.6.2", key: senderKey, nonce: "000000000001020304050607",
            oneTimeKey: "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646"
        ),
        KeyGenerationVector(
            name: "RFC 8439 A.4 #1", key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
            oneTimeKey: "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        ),
        KeyGenerationVector(
            name: "RFC 8439 A.4 #2", key: String(repeating: "00", count: 31) + "01", nonce: "000000000000000000000002",
            oneTimeKey: "ecfa254f845f647473d3cb140da9e87606cb33066c447b87bc2666dde3fbb739"
        ),
        KeyGenerationVector(
            name: "RFC 8439 A.4 #3", key: appendixKey, nonce: "000000000000000000000002",
            oneTimeKey: "965e3bc6f9ec7ed9560808f4d229f94b137ff275ca9b3fcbdd59deaad23310ae"
        ),
    ]

    static let aeadVectors = [
        AEADVector(
            name: "RFC 8439 2.8.2", key: senderKey, nonce: "07000000 4041424344454647",
            associatedData: "50515253c0c1c2c3c4c5c6c7", plaintext: RFC8439Texts.sunscreen,
            ciphertext: """
                d3 1a 8d 34 64 8e 60 db 7b 86 af bc 53 ef 7e c2 a4 ad ed 51 29 6e 08 fe a9 e2 b5 a7 36 ee 62 d6
                3d be a4 5e 8c a9 67 12 82 fa fb 69 da 92 72 8b 1a 71 de 0a 9e 06 0b 29 05 d6 a5 b6 7e cd 3b 36
                92 dd bd 7f 2d 77 8b 8c 98 03 ae e3 28 09 1b 58 fa b3 24 e4 fa d6 75 94 55 85 80 8b 48 31 d7 bc
                3f f4 de f0 8e 4b 7a 9d e5 76 d2 65 86 ce c6 4b 61 16
                """,
            tag: "1ae10b594f09e26a7e902ecbd0600691"
        ),
        AEADVector(
            name: "RFC 8439 A.5", key: appendixKey, nonce: "000000000102030405060708",
            associatedData: "f33388860000000000004e91", plaintext: RFC8439Texts.internetDrafts,
            ciphertext: """
                64 a0 86 15 75 86 1a f4 60 f0 62 c7 9b e6 43 bd 5e 80 5c fd 34 5c f3 89 f1 08 67 0a c7 6c 8c b2
                4c 6c fc 18 75 5d 43 ee a0 9e e9 4e 38 2d 26 b0 bd b7 b7 3c 32 1b 01 00 d4 f0 3b 7f 35 58 94 cf
                33 2f 83 0e 71 0b 97 ce 98 c8 a8 4a bd 0b 94 81 14 ad 17 6e 00 8d 33 bd 60 f9 82 b1 ff 37 c8 55
                97 97 a0 6e f4 f0 ef 61 c1 86 32 4e 2b 35 06 38 36 06 90 7b 6a 7c 02 b0 f9 f6 15 7b 53 c8 67 e4
                b9 16 6c 76 7b 80 4d 46 a5 9b 52 16 cd e7 a4 e9 90 40 c5 a4 04 33 22 5e e2 82 a1 b0 a0 6c 52 3e
                af 45 34 d7 f8 3f a1 15 5b 00 47 71 8c bc 54 6a 0d 07 2b 04 b3 56 4e ea 1b 42 22 73 f5 48 27 1a
                0b b2 31 60 53 fa 76 99 19 55 eb d6 31 59 43 4e ce bb 4e 46 6d ae 5a 10 73 a6 72 76 27 09 7a 10
                49 e6 17 d9 1d 36 10 94 fa 68 f0 ff 77 98 71 30 30 5b ea ba 2e da 04 df 99 7b 71 4d 6c 6f 2c 29
                a6 ad 5c b4 02 2b 02 70 9b
                """,
            tag: "eead9d67890cbb22392336fea1851f38"
        ),
    ]

    @Test(arguments: keyGenerationVectors)
    func oneTimeKeyMatchesRFC8439(_ vector: KeyGenerationVector) throws {
        let oneTimeKey = try ChaChaPoly.oneTimeKey(key: [UInt8](hex: vector.key), nonce: [UInt8](hex: vector.nonce))
        #expect(oneTimeKey == [UInt8](hex: vector.oneTimeKey))
    }

    @Test(arguments: aeadVectors)
    func sealMatchesRFC8439(_ vector: AEADVector) throws {
        let sealed = try ChaChaPoly.seal(
            vector.plaintext, key: [UInt8](hex: vector.key), nonce: [UInt8](hex: vector.nonce),
            authenticating: [UInt8](hex: vector.associatedData)
        )
        #expect(sealed.ciphertext == [UInt8](hex: vector.ciphertext))
        #expect(sealed.tag == [UInt8](hex: vector.tag))
    }

    @Test(arguments: aeadVectors)
    func openMatchesRFC8439(_ vector: AEADVector) throws {
        let plaintext = try ChaChaPoly.open(
            [UInt8](hex: vector.ciphertext), tag: [UInt8](hex: vector.tag), key: [UInt8](hex: vector.key),
            nonce: [UInt8](hex: vector.nonce), authenticating: [UInt8](hex: vector.associatedData)
        )
        #expect(plaintext == vector.plaintext)
    }

    @Test
    func rejectsWrongKeyNonceAndTagLengths() {
        let key = [UInt8](repeating: 1, count: 32)
        let nonce = [UInt8](repeating: 2, count: 12)
        let tag = [UInt8](repeating: 3, count: 16)
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, actual: 33)) {
            try ChaChaPoly.seal([1, 2, 3], key: key + [0], nonce: nonce)
        }
        #expect(throws: CryptoError.invalidNonceLength(expected: 12, actual: 11)) {
            try ChaChaPoly.seal([1, 2, 3], key: key, nonce: Array(nonce.dropLast()))
        }
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, actual: 0)) {
            try ChaChaPoly.open([1, 2, 3], tag: tag, key: [], nonce: nonce)
        }
        #expect(throws: CryptoError.invalidNonceLength(expected: 12, actual: 24)) {
            try ChaChaPoly.open([1, 2, 3], tag: tag, key: key, nonce: nonce + nonce)
        }
        #expect(throws: CryptoError.invalidTagLength(expected: 16, actual: 15)) {
            try ChaChaPoly.open([1, 2, 3], tag: Array(tag.dropLast()), key: key, nonce: nonce)
        }
    }
}
