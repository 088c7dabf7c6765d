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
        key.append(head)
        if length > 0 { key.append(lowBytes: payload, count: length) }
    }

    /// The encoding of `value`: its head byte, then `length` bytes of `payload`, big-endian.
    @inline(__always)
    private static func parts(_ value: Int64) -> (head: UInt8, payload: UInt64, length: Int) {
        precondition(value >= range.lowerBound && value <= range.upperBound, "RunInteger out of range")
        if value >= -64 && value <= 63 { return (UInt8(truncatingIfNeeded: 0x80 + value), 0, 0) }
        if value > 63 {
            var base: UInt64 = 64
            var length = 1
            var offset = UInt64(value) - base
            while length < 8 && offset >= (1 << (8 * UInt64(length))) {
                base += 1 << (8 * UInt64(length))
                offset = UInt64(value) - base
                length += 1
            }
            return (UInt8(0xC0 + length - 1), offset, length)
        }
        // value <= -65. Lengths grow as values fall: the n-byte band is [high - 256^n + 1, high].
        var high: Int64 = -65
        var length = 1
        while length < 8 && value < high - (Int64(1) << (8 * Int64(length))) + 1 {
            high -= Int64(1) << (8 * Int64(length))
            length += 1
        }
        let low = high - (Int64(1) << (8 * Int64(length))) + 1
        return (UInt8(0x3F - (length - 1)), UInt64(value - low), length)
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
        let length = encodedLength(head: head)
        guard length > 0, offset + length <= key.count else { return nil }
        var payload: UInt64 = 0
        for index in offset + 1..<offset + length { payload = payload << 8 | UInt64(key.byte(at: index)) }
        offset += length
        let value: Int64
        if head >= 0x40 && head <= 0xBF {
            value = Int64(head) - 0x80
        } else if head >= 0xC0 {
            // The bands of lengths 1..<n start at 64 and cover 256 + 256^2 + ...
            var base: UInt64 = 64
            for band in 1..<(length - 1) { base += 1 << (8 * UInt64(band)) }
            let (sum, overflow) = base.addingReportingOverflow(payload)
            guard length <= 8, !overflow, sum <= UInt64(range.upperBound) else { return nil }
            value = Int64(sum)
        } else {
            guard length <= 8 else { return nil }
            var high: Int64 = -65
            for band in 1..<(length - 1) { high -= Int64(1) << (8 * Int64(band)) }
            let low = high - (Int64(1) << (8 * Int64(length - 1))) + 1
            value = low + Int64(payload)
        }
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
    static func endsInNonZeroByte(_ value: Int64) -> Bool {
        let (_, payload, length) = parts(value)
        return length == 0 || payload & 0xFF != 0
    }
}
