/// HKDF with HMAC-SHA256 (RFC 5869): extract a pseudorandom key, then expand it into output keying material.
package enum HKDFSHA256 {
    /// Largest number of bytes `expand` can produce (255 hash lengths).
    package static let maximumOutputByteCount = 255 * SHA256.byteCount

    /// Returns the pseudorandom key HMAC-SHA256(salt, inputKeyMaterial); an empty salt acts as 32 zero bytes.
    package static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(for: inputKeyMaterial, key: salt)
    }

    /// Expands `pseudoRandomKey` (at least 32 bytes) and `info` into `outputByteCount` bytes of keying material.
    package static func expand(
        pseudoRandomKey: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        guard pseudoRandomKey.count >= SHA256.byteCount else {
            throw .keyTooShort(minimum: SHA256.byteCount, actual: pseudoRandomKey.count)
        }
        guard (0...maximumOutputByteCount).contains(outputByteCount) else {
            throw .invalidOutputLength(maximum: maximumOutputByteCount, requested: outputByteCount)
        }
        let keyed = HMACSHA256(key: pseudoRandomKey)
        var output: [UInt8] = []
        output.reserveCapacity(outputByteCount + SHA256.byteCount)
        var previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < outputByteCount {
            var authenticator = keyed
            authenticator.update(previous)
            authenticator.update(info)
            authenticator.update(CollectionOfOne(counter))
            previous = authenticator.finalize()
            output += previous
            counter &+= 1
        }
        return Array(output.prefix(outputByteCount))
    }

    /// Runs `extract` then `expand`, returning `outputByteCount` bytes of keying material.
    package static func deriveKey(
        inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int
    ) throws(CryptoError) -> [UInt8] {
        let pseudoRandomKey = extract(salt: salt, inputKeyMaterial: inputKeyMaterial)
        return try expand(pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: outputByteCount)
    }
}
