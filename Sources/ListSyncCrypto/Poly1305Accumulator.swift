/// The Poly1305 accumulator h = (h + block) * r mod 2^130 - 5, in five 26-bit limbs (poly1305-donna style).
struct Poly1305Accumulator: BlockCompressor, Sendable {
    /// Number of bytes in one message block.
    static let blockByteCount = 16
    /// Low 26 bits of a limb.
    private static let limbMask: UInt64 = 0x3ff_ffff

    /// Clamped r in 26-bit limbs.
    private let r: (UInt64, UInt64, UInt64, UInt64, UInt64)
    /// s = the second half of the key, added to the accumulator at the end.
    private let s: (UInt32, UInt32, UInt32, UInt32)
    /// Accumulator limbs; each stays below 2^27 between blocks.
    private var h: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)

    /// Creates an accumulator from a 32-byte one-time key (the caller checks the length); clamps r as RFC 8439 says.
    init(key: UnsafeRawBufferPointer) {
        r = (
            UInt64(key.loadLittleEndianUInt32(at: 0) & 0x3ff_ffff),
            UInt64((key.loadLittleEndianUInt32(at: 3) >> 2) & 0x3ff_ff03),
            UInt64((key.loadLittleEndianUInt32(at: 6) >> 4) & 0x3ff_c0ff),
            UInt64((key.loadLittleEndianUInt32(at: 9) >> 6) & 0x3f0_3fff),
            UInt64((key.loadLittleEndianUInt32(at: 12) >> 8) & 0x00f_ffff)
        )
        s = (
            key.loadLittleEndianUInt32(at: 16), key.loadLittleEndianUInt32(at: 20),
            key.loadLittleEndianUInt32(at: 24), key.loadLittleEndianUInt32(at: 28)
        )
    }

    /// Absorbs the full 16-byte blocks in `blocks`, each with the 2^128 bit set.
    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        absorb(blocks, highBit: 1 << 24)
    }

    /// Absorbs a final block of fewer than 16 bytes, padded with 0x01 and zeros as RFC 8439 section 2.5.1 says.
    mutating func compressFinal(_ partial: [UInt8]) {
        guard !partial.isEmpty else { return }
        let padded = partial + [0x01] + [UInt8](repeating: 0, count: Self.blockByteCount - 1 - partial.count)
        padded.withUnsafeBytes { absorb($0, highBit: 0) }
    }

    /// Absorbs the 16-byte blocks in `blocks`; `highBit` is added to limb 4 (2^128, or 0 for a padded final block).
    private mutating func absorb(_ blocks: UnsafeRawBufferPointer, highBit: UInt64) {
        guard let start = blocks.baseAddress else { return }
        let mask = Self.limbMask
        let (r0, r1, r2, r3, r4) = r
        let (r1Times5, r2Times5, r3Times5, r4Times5) = (r1 &* 5, r2 &* 5, r3 &* 5, r4 &* 5)
        var (h0, h1, h2, h3, h4) = h
        var block = start
        for _ in 0..<blocks.count / Self.blockByteCount {
            h0 &+= UInt64(block.loadLittleEndianUInt32(at: 0)) & mask
            h1 &+= UInt64(block.loadLittleEndianUInt32(at: 3) >> 2) & mask
            h2 &+= UInt64(block.loadLittleEndianUInt32(at: 6) >> 4) & mask
            h3 &+= UInt64(block.loadLittleEndianUInt32(at: 9) >> 6)
            h4 &+= UInt64(block.loadLittleEndianUInt32(at: 12) >> 8) | highBit

            let d0 = h0 &* r0 &+ h1 &* r4Times5 &+ h2 &* r3Times5 &+ h3 &* r2Times5 &+ h4 &* r1Times5
            var d1 = h0 &* r1 &+ h1 &* r0 &+ h2 &* r4Times5 &+ h3 &* r3Times5 &+ h4 &* r2Times5
            var d2 = h0 &* r2 &+ h1 &* r1 &+ h2 &* r0 &+ h3 &* r4Times5 &+ h4 &* r3Times5
            var d3 = h0 &* r3 &+ h1 &* r2 &+ h2 &* r1 &+ h3 &* r0 &+ h4 &* r4Times5
            var d4 = h0 &* r4 &+ h1 &* r3 &+ h2 &* r2 &+ h3 &* r1 &+ h4 &* r0

            h0 = d0 & mask
            d1 &+= d0 >> 26
            h1 = d1 & mask
            d2 &+= d1 >> 26
            h2 = d2 & mask
            d3 &+= d2 >> 26
            h3 = d3 & mask
            d4 &+= d3 >> 26
            h4 = d4 & mask
            h0 &+= (d4 >> 26) &* 5
            h1 &+= h0 >> 26
            h0 &= mask
            block += Self.blockByteCount
        }
        h = (h0, h1, h2, h3, h4)
    }

    /// Returns the 16-byte tag: h fully reduced mod 2^130 - 5, plus s, mod 2^128, little-endian.
    func tag() -> [UInt8] {
        let mask = Self.limbMask
        var (h0, h1, h2, h3, h4) = h
        h2 &+= h1 >> 26
        h1 &= mask
        h3 &+= h2 >> 26
        h2 &= mask
        h4 &+= h3 >> 26
        h3 &= mask
        h0 &+= (h4 >> 26) &* 5
        h4 &= mask
        h1 &+= h0 >> 26
        h0 &= mask

        // g = h + 5 - 2^130; use it instead of h exactly when it does not underflow, without branching.
        var g0 = h0 &+ 5
        var g1 = h1 &+ (g0 >> 26)
        g0 &= mask
        var g2 = h2 &+ (g1 >> 26)
        g1 &= mask
        var g3 = h3 &+ (g2 >> 26)
        g2 &= mask
        var g4 = h4 &+ (g3 >> 26) &- (1 << 26)
        g3 &= mask
        let useG = (g4 >> 63) &- 1
        g4 &= mask
        h0 = (h0 & ~useG) | (g0 & useG)
        h1 = (h1 & ~useG) | (g1 & useG)
        h2 = (h2 & ~useG) | (g2 & useG)
        h3 = (h3 & ~useG) | (g3 & useG)
        h4 = (h4 & ~useG) | (g4 & useG)

        let word0 = (h0 | (h1 << 26)) & 0xffff_ffff
        let word1 = ((h1 >> 6) | (h2 << 20)) & 0xffff_ffff
        let word2 = ((h2 >> 12) | (h3 << 14)) & 0xffff_ffff
        let word3 = ((h3 >> 18) | (h4 << 8)) & 0xffff_ffff

        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.blockByteCount)
        var carry: UInt64 = 0
        for (word, addend) in [(word0, s.0), (word1, s.1), (word2, s.2), (word3, s.3)] {
            carry = word &+ UInt64(addend) &+ (carry >> 32)
            bytes.appendLittleEndian(UInt32(truncatingIfNeeded: carry))
        }
        return bytes
    }
}
