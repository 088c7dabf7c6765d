/// SHA-256 (FIPS 180-4), usable incrementally (`update` then `finalize`) or in one shot (`hash`).
package struct SHA256: Sendable {
    /// Number of bytes in a digest.
    package static let byteCount = 32
    /// Number of bytes in one input block.
    package static let blockByteCount = SHA256Compression.blockByteCount

    /// Chaining value after all complete blocks seen so far.
    private var compression = SHA256Compression()
    /// Input bytes that do not yet fill a block.
    private var buffer = BlockBuffer<SHA256Compression>()
    /// Total number of input bytes absorbed so far.
    private var messageByteCount: UInt64 = 0

    /// Creates a hasher with the FIPS 180-4 initial hash value.
    package init() {}

    /// Returns the SHA-256 digest of `message`.
    package static func hash(_ message: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalize()
    }

    /// Absorbs `bytes` into the running hash.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Absorbs the bytes in `bytes` into the running hash.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        messageByteCount &+= UInt64(bytes.count)
        buffer.absorb(bytes, into: &compression)
    }

    /// Returns the digest of everything absorbed so far; the hasher itself is left unchanged.
    package func finalize() -> [UInt8] {
        var finished = self
        let zeroCount = (Self.blockByteCount + 55 - buffer.pending.count) % Self.blockByteCount
        var padding: [UInt8] = [0x80] + [UInt8](repeating: 0, count: zeroCount)
        padding.appendBigEndian(messageByteCount &* 8)
        padding.withUnsafeBytes { finished.update($0) }
        return finished.compression.bigEndianBytes
    }
}
