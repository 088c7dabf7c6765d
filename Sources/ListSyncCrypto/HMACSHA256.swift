/// HMAC-SHA256 (RFC 2104), usable incrementally (`update` then `finalize`) or in one shot.
package struct HMACSHA256: Sendable {
    /// Number of bytes in an authentication code.
    package static let byteCount = SHA256.byteCount

    /// Hash of (key XOR ipad) followed by the message so far.
    private var inner = SHA256()
    /// Hash of (key XOR opad), waiting for the inner digest.
    private var outer = SHA256()

    /// Creates an authenticator keyed with `key`; keys longer than one block are hashed first, as RFC 2104 says.
    package init(key: some Sequence<UInt8>) {
        var block = Array(key)
        if block.count > SHA256.blockByteCount {
            block = SHA256.hash(block)
        }
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        inner.update(block.map { $0 ^ 0x36 })
        outer.update(block.map { $0 ^ 0x5c })
    }

    /// Returns the HMAC-SHA256 of `message` under `key`.
    package static func authenticationCode(for message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        var authenticator = HMACSHA256(key: key)
        authenticator.update(message)
        return authenticator.finalize()
    }

    /// Absorbs `bytes` into the message being authenticated.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        inner.update(bytes)
    }

    /// Returns the authentication code of everything absorbed so far; the authenticator itself is left unchanged.
    package func finalize() -> [UInt8] {
        var finished = outer
        finished.update(inner.finalize())
        return finished.finalize()
    }
}
