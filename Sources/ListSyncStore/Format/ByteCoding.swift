/// Little-endian fixed-width integers appended to a byte array.
extension Array where Element == UInt8 {
    /// Appends `value` in little-endian byte order.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

/// Reads little-endian fixed-width integers from a byte array, tracking the offset.
struct LittleEndianReader {
    /// The bytes being read.
    let bytes: [UInt8]
    /// The offset of the next byte to read.
    private(set) var offset: Int

    /// A reader of `bytes` starting at `offset`.
    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes left.
    var remaining: Int { bytes.count - offset }

    /// The next `T`, or nil (and no progress) when fewer than its size remain.
    mutating func read<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    /// The next `count` bytes, or nil when fewer remain.
    mutating func read(count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }
}
