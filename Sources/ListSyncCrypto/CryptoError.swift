/// Errors thrown by ListSyncCrypto; each case names what was wrong with the input or the environment.
package enum CryptoError: Error, Equatable, Sendable {
    /// A key did not have the required number of bytes.
    case invalidKeyLength(expected: Int, actual: Int)
    /// A key was shorter than the minimum number of bytes the algorithm accepts.
    case keyTooShort(minimum: Int, actual: Int)
    /// A nonce did not have the required number of bytes.
    case invalidNonceLength(expected: Int, actual: Int)
    /// An authentication tag did not have the required number of bytes.
    case invalidTagLength(expected: Int, actual: Int)
    /// A requested output length was negative or above the algorithm's maximum.
    case invalidOutputLength(maximum: Int, requested: Int)
    /// An input was longer than the ChaCha20 block counter can cover from its starting value.
    case inputTooLong(maximum: Int, actual: Int)
    /// The authentication tag did not match the ciphertext, nonce, key and associated data.
    case authenticationFailure
    /// The operating system could not deliver random bytes; `errno` is the last error it reported.
    case randomSourceFailure(errno: Int32)
}

extension CryptoError {
    /// Throws `invalidKeyLength` unless `key` has exactly `byteCount` bytes.
    static func requireKey(_ key: [UInt8], byteCount: Int) throws(CryptoError) {
        guard key.count == byteCount else { throw .invalidKeyLength(expected: byteCount, actual: key.count) }
    }

    /// Throws `invalidNonceLength` unless `nonce` has exactly `byteCount` bytes.
    static func requireNonce(_ nonce: [UInt8], byteCount: Int) throws(CryptoError) {
        guard nonce.count == byteCount else { throw .invalidNonceLength(expected: byteCount, actual: nonce.count) }
    }
}
