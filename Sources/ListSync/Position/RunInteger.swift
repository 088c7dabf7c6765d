/// An order-preserving, prefix-free encoding of signed integers as bytes.
///
/// Byte-wise lexicographic order of encodings equals numeric order, and no encoding is a prefix of
/// another, so `prefix + encode(i) < prefix + encode(j)` exactly when `i < j`. Integers in -64...63 take
/// one byte (0x40...0xBF); larger magnitudes take a head byte giving the length, then a big-endian
/// offset: 0xC0 + (n - 1) followed by n bytes for positive, 0x3F - (n - 1) followed by n bytes for
/// negative, n in 1...8. A run of keys inside one replica's sub-range uses these integers, ascending
/// for forward runs and descending for backward runs, so run keys grow logarithmically.
enum RunInteger {
    /// The smallest and largest integers the encoding supports.
    static let range: ClosedRange<Int64> = (-(1 << 62))...(1 << 62)

    /// Appends the encoding of `value` to `key`.
    static func append(_ value: Int64, to key: inout PositionKey) {
        let (head, payload, length) = parts(value)
        // The head and payload in one append while they fit a word.
        if length < 8 { return key.append(lowBytes: UInt64(head) << (8 * UInt64(length)) | payload, count: length + 1) }
        key.append(head)
        key.append(lowBytes: payload, count: length)
    }

    /// The encoding of `value`: its head byte, then `length` bytes of `payload`, big-endian.
    @inline(__always)
    private static func parts(_ value: Int64) -> (head: UInt8, payload: UInt64, length: Int) {
        precondition(value >= range.lowerBound && value <= range.upperBound, "RunInteger out of range")
        if value >= -64 && value <= 63 { return (UInt8(truncatingIfNeeded: 0x80 + value), 0, 0) }
        var length = 1
        if value > 63 {
            while length < 8 && UInt64(value) >= 64 + bandSum(length + 1) { length += 1 }
            return (UInt8(0xC0 + length - 1), UInt64(value) - 64 - bandSum(length), length)
        }
        // value <= -65. Lengths grow as values fall: the n-byte band ends at -65 - bandSum(n) and starts
        // 256^n - 1 below, at -64 - bandSum(n + 1) (wrapping at 8 bytes, where the payload still fits).
        while length < 8 && value < -64 - Int64(bandSum(length + 1)) { length += 1 }
        let low = -64 &- Int64(bitPattern: bandSum(min(length + 1, 8)))
        return (UInt8(0x3F - (length - 1)), UInt64(bitPattern: value &- low), length)
    }

    /// 256 + 256^2 + ... + 256^(n-1), for n in 1...8: how far the bands of lengths below n reach past
    /// the one-byte integers.
    @inline(__always)
    private static func bandSum(_ n: Int) -> UInt64 {
        (0x0101_0101_0101_0100 as UInt64) &>> UInt64(truncatingIfNeeded: 8 &* (8 &- n)) & ~0xFF
    }

    /// The integers a decoded key may hold: those of at most 7 bytes past the head, so that the
    /// allocator always finds room for a run (2^31 rows and slack) below and above any of them inside
    /// ``range``.
    static let decodableRange: ClosedRange<Int64> = (-(1 << 55))...(1 << 55)

    /// The integer encoded at `offset` in `key`, moving `offset` past it; nil when the bytes there are
    /// not an encoding or it lies outside ``decodableRange``.
    static func decode(_ key: PositionKey, at offset: inout Int) -> Int64? {
        guard offset < key.count else { return nil }
        let head = key.byte(at: offset)
        if head >= 0x40 && head <= 0xBF {
            offset += 1
            return Int64(head) - 0x80
        }
        let length = encodedLength(head: head)
        // Eight bytes past the head hold only integers beyond `decodableRange`.
        guard length > 0, length <= 8, offset + length <= key.count else { return nil }
        // The encoding's bytes at the top of a word, the head's shifted out.
        let payload = (key.bytes(at: offset) << 8) >> (64 - 8 * UInt64(length - 1))
        offset += length
        // Within Int64: at most 7 payload bytes, and the bands' sums below 2^57.
        let value =
            head >= 0xC0
            ? Int64(64 + bandSum(length - 1) + payload) : -64 - Int64(bandSum(length)) + Int64(payload)
        // Compared bound by bound: `contains` on the range went through generic code here.
        return value >= decodableRange.lowerBound && value <= decodableRange.upperBound ? value : nil
    }

    /// The length of the encoding whose head byte is `head`.
    @inline(__always)
    static func encodedLength(head: UInt8) -> Int {
        switch head {
        case 0x40...0xBF: 1
        case 0xC0...0xC7: Int(head - 0xC0) + 2
        case 0x38...0x3F: Int(0x3F - head) + 2
        default: 0
        }
    }

    /// Whether the encoding of `value` ends in a non-zero byte, as every key must.
    ///
    /// In closed form: a band of n payload bytes starts 64 plus a multiple of 256 above 0 (positive) or
    /// 64 plus a multiple of 256 below 0 (negative, ``bandSum(_:)``), so the payload's last byte is that
    /// of `value - 64` or `value + 64`.
    @inline(__always)
    static func endsInNonZeroByte(_ value: Int64) -> Bool {
        if value > 63 { return value & 0xFF != 0x40 }
        if value < -64 { return value & 0xFF != 0xC0 }
        return true
    }

    /// The least integer above `value` whose encoding ends in a non-zero byte: the integer of the key
    /// after one ending in `value` in a run, as the key allocator takes them. Integers whose encodings
    /// end in zero are 256 apart, so at most one is skipped.
    static func successor(of value: Int64) -> Int64 {
        let next = value + 1
        return endsInNonZeroByte(next) ? next : next + 1
    }
}
