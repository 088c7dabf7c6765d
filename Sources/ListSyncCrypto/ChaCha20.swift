/// The ChaCha20 stream cipher of RFC 8439 for one 256-bit key and 96-bit nonce.
package struct ChaCha20: Sendable {
    /// Number of bytes in a key.
    package static let keyByteCount = 32
    /// Number of bytes in a nonce.
    package static let nonceByteCount = 12
    /// Number of bytes of keystream per block counter value.
    package static let blockByteCount = 64

    /// Sixteen state words, as produced by the block function.
    private typealias Words = (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    )

    /// Key words 0...7, read little-endian from the key bytes.
    private let key: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// Nonce words 0...2, read little-endian from the nonce bytes.
    private let nonce: (UInt32, UInt32, UInt32)

    /// Creates a cipher; throws unless `key` has 32 bytes and `nonce` has 12 bytes.
    package init(key: [UInt8], nonce: [UInt8]) throws(CryptoError) {
        try CryptoError.requireKey(key, byteCount: Self.keyByteCount)
        try CryptoError.requireNonce(nonce, byteCount: Self.nonceByteCount)
        self.key = key.withUnsafeBytes { bytes in
            (
                bytes.loadLittleEndianUInt32(at: 0), bytes.loadLittleEndianUInt32(at: 4),
                bytes.loadLittleEndianUInt32(at: 8), bytes.loadLittleEndianUInt32(at: 12),
                bytes.loadLittleEndianUInt32(at: 16), bytes.loadLittleEndianUInt32(at: 20),
                bytes.loadLittleEndianUInt32(at: 24), bytes.loadLittleEndianUInt32(at: 28)
            )
        }
        self.nonce = nonce.withUnsafeBytes { bytes in
            (
                bytes.loadLittleEndianUInt32(at: 0), bytes.loadLittleEndianUInt32(at: 4),
                bytes.loadLittleEndianUInt32(at: 8)
            )
        }
    }

    /// Returns the 64-byte keystream block for `counter` (RFC 8439 section 2.3).
    package func block(counter: UInt32) -> [UInt8] {
        withUnsafeBytes(of: keyStream(counter: counter)) { Array($0) }
    }

    /// Encrypts (or, identically, decrypts) `input` with the keystream starting at block `counter`.
    package func encrypt(_ input: [UInt8], counter: UInt32) throws(CryptoError) -> [UInt8] {
        let blocksAvailable = (UInt64(1) << 32) - UInt64(counter)
        let blocksNeeded = (UInt64(input.count) + UInt64(Self.blockByteCount) - 1) / UInt64(Self.blockByteCount)
        guard blocksNeeded <= blocksAvailable else {
            throw .inputTooLong(
                maximum: Int(clamping: blocksAvailable * UInt64(Self.blockByteCount)), actual: input.count)
        }
        return [UInt8](unsafeUninitializedCapacity: input.count) { output, initializedCount in
            input.withUnsafeBytes { source in
                xor(source, into: UnsafeMutableRawBufferPointer(output), counter: counter)
            }
            initializedCount = input.count
        }
    }

    /// XORs `input` with the keystream starting at block `counter`, writing into `output` (at least as long).
    private func xor(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, counter: UInt32) {
        guard let source = input.baseAddress, let destination = output.baseAddress else { return }
        var offset = 0
        var blockCounter = counter
        while offset < input.count {
            let length = min(Self.blockByteCount, input.count - offset)
            withUnsafeBytes(of: keyStream(counter: blockCounter)) { stream in
                if length == Self.blockByteCount {
                    for index in stride(from: 0, to: Self.blockByteCount, by: 8) {
                        let word =
                            source.loadUnaligned(fromByteOffset: offset + index, as: UInt64.self)
                            ^ stream.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        destination.storeBytes(of: word, toByteOffset: offset + index, as: UInt64.self)
                    }
                } else {
                    for index in 0..<length {
                        destination.storeBytes(
                            of: source.load(fromByteOffset: offset + index, as: UInt8.self) ^ stream[index],
                            toByteOffset: offset + index, as: UInt8.self
                        )
                    }
                }
            }
            offset += Self.blockByteCount
            blockCounter &+= 1
        }
    }

    /// Runs the block function for `counter`; each returned word is stored little-endian, so its bytes are keystream.
    @inline(__always)
    private func keyStream(counter: UInt32) -> Words {
        let initial: Words = (
            0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574,
            key.0, key.1, key.2, key.3, key.4, key.5, key.6, key.7,
            counter, nonce.0, nonce.1, nonce.2
        )
        var (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15) = initial
        for _ in 0..<10 {
            Self.quarterRound(&x0, &x4, &x8, &x12)
            Self.quarterRound(&x1, &x5, &x9, &x13)
            Self.quarterRound(&x2, &x6, &x10, &x14)
            Self.quarterRound(&x3, &x7, &x11, &x15)
            Self.quarterRound(&x0, &x5, &x10, &x15)
            Self.quarterRound(&x1, &x6, &x11, &x12)
            Self.quarterRound(&x2, &x7, &x8, &x13)
            Self.quarterRound(&x3, &x4, &x9, &x14)
        }
        return (
            (x0 &+ initial.0).littleEndian, (x1 &+ initial.1).littleEndian,
            (x2 &+ initial.2).littleEndian, (x3 &+ initial.3).littleEndian,
            (x4 &+ initial.4).littleEndian, (x5 &+ initial.5).littleEndian,
            (x6 &+ initial.6).littleEndian, (x7 &+ initial.7).littleEndian,
            (x8 &+ initial.8).littleEndian, (x9 &+ initial.9).littleEndian,
            (x10 &+ initial.10).littleEndian, (x11 &+ initial.11).littleEndian,
            (x12 &+ initial.12).littleEndian, (x13 &+ initial.13).littleEndian,
            (x14 &+ initial.14).littleEndian, (x15 &+ initial.15).littleEndian
        )
    }

    /// The ChaCha quarter round of RFC 8439 section 2.1.
    @inline(__always)
    private static func quarterRound(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
        a &+= b
        d = (d ^ a).rotatedLeft(by: 16)
        c &+= d
        b = (b ^ c).rotatedLeft(by: 12)
        a &+= b
        d = (d ^ a).rotatedLeft(by: 8)
        c &+= d
        b = (b ^ c).rotatedLeft(by: 7)
    }
}
