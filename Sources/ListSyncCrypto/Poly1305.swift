/// The Poly1305 one-time authenticator of RFC 8439 section 2.5, usable incrementally or in one shot.
package struct Poly1305: Sendable {
    /// Number of bytes in a one-time key.
    package static let keyByteCount = 32
    /// Number of bytes in a tag.
    package static let tagByteCount = 16

    /// The accumulator over all complete blocks seen so far.
    private var accumulator: Poly1305Accumulator
    /// Input bytes that do not yet fill a block.
    private var buffer = BlockBuffer<Poly1305Accumulator>()

    /// Creates an authenticator; throws unless `key` has 32 bytes. A key must never authenticate two messages.
    package init(key: [UInt8]) throws(CryptoError) {
        try CryptoError.requireKey(key, byteCount: Self.keyByteCount)
        accumulator = key.withUnsafeBytes { Poly1305Accumulator(key: $0) }
    }

    /// Returns the Poly1305 tag of `message` under the one-time `key`.
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        var authenticator = try Poly1305(key: key)
        authenticator.update(message)
        return authenticator.finalize()
    }

    /// Absorbs `bytes` into the message being authenticated.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Absorbs the bytes in `bytes` into the message being authenticated.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        buffer.absorb(bytes, into: &accumulator)
    }

    /// Returns the tag of everything absorbed so far; the authenticator itself is left unchanged.
    package func finalize() -> [UInt8] {
        var finished = accumulator
        finished.compressFinal(buffer.pending)
        return finished.tag()
    }
}
