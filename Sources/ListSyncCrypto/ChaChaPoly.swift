/// The ChaCha20-Poly1305 AEAD construction of RFC 8439 section 2.8.
package enum ChaChaPoly {
    /// Number of bytes in a key.
    package static let keyByteCount = ChaCha20.keyByteCount
    /// Number of bytes in a nonce.
    package static let nonceByteCount = ChaCha20.nonceByteCount
    /// Number of bytes in an authentication tag.
    package static let tagByteCount = Poly1305.tagByteCount

    /// Encrypts `plaintext` and authenticates it with `associatedData`; a nonce must never repeat under one key.
    package static func seal(
        _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8] = []
    ) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        let cipher = try ChaCha20(key: key, nonce: nonce)
        let ciphertext = try cipher.encrypt(plaintext, counter: 1)
        let tag = try authenticationTag(cipher: cipher, ciphertext: ciphertext, associatedData: associatedData)
        return (ciphertext, tag)
    }

    /// Verifies `tag` in constant time and only then decrypts; throws `authenticationFailure` on any mismatch.
    package static func open(
        _ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], authenticating associatedData: [UInt8] = []
    ) throws(CryptoError) -> [UInt8] {
        let cipher = try ChaCha20(key: key, nonce: nonce)
        guard tag.count == tagByteCount else {
            throw .invalidTagLength(expected: tagByteCount, actual: tag.count)
        }
        let expected = try authenticationTag(cipher: cipher, ciphertext: ciphertext, associatedData: associatedData)
        guard ConstantTime.isEqual(expected, tag) else { throw .authenticationFailure }
        return try cipher.encrypt(ciphertext, counter: 1)
    }

    /// Returns the 32-byte Poly1305 one-time key for `key` and `nonce` (RFC 8439 section 2.6).
    package static func oneTimeKey(key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try oneTimeKey(cipher: ChaCha20(key: key, nonce: nonce))
    }

    /// Returns the first 32 bytes of keystream block 0, the Poly1305 one-time key.
    private static func oneTimeKey(cipher: ChaCha20) -> [UInt8] {
        Array(cipher.block(counter: 0).prefix(Poly1305.keyByteCount))
    }

    /// Computes the tag over associated data, ciphertext, their zero padding and their lengths (section 2.8).
    private static func authenticationTag(
        cipher: ChaCha20, ciphertext: [UInt8], associatedData: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        var authenticator = try Poly1305(key: oneTimeKey(cipher: cipher))
        for part in [associatedData, ciphertext] {
            authenticator.update(part)
            authenticator.update(padding(after: part.count))
        }
        var lengths: [UInt8] = []
        lengths.appendLittleEndian(UInt64(associatedData.count))
        lengths.appendLittleEndian(UInt64(ciphertext.count))
        authenticator.update(lengths)
        return authenticator.finalize()
    }

    /// Returns the zero bytes that pad a field of `byteCount` bytes to a multiple of 16.
    private static func padding(after byteCount: Int) -> [UInt8] {
        [UInt8](repeating: 0, count: (16 - byteCount % 16) % 16)
    }
}
