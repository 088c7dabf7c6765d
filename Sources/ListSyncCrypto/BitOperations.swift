extension UInt32 {
    /// Rotates the bits left by `count` (0 < count < 32).
    @inline(__always)
    func rotatedLeft(by count: UInt32) -> UInt32 {
        (self &<< count) | (self &>> (32 &- count))
    }

    /// Rotates the bits right by `count` (0 < count < 32).
    @inline(__always)
    func rotatedRight(by count: UInt32) -> UInt32 {
        (self &>> count) | (self &<< (32 &- count))
    }
}

extension UnsafeRawPointer {
    /// Loads a little-endian `UInt32` from `offset`, with no alignment requirement.
    @inline(__always)
    func loadLittleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Loads a big-endian `UInt32` from `offset`, with no alignment requirement.
    @inline(__always)
    func loadBigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension UnsafeRawBufferPointer {
    /// Loads a little-endian `UInt32` from `offset`, with no alignment requirement.
    func loadLittleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` as four little-endian bytes.
    mutating func appendLittleEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Appends `value` as eight little-endian bytes.
    mutating func appendLittleEndian(_ value: UInt64) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Appends `value` as four big-endian bytes.
    mutating func appendBigEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Appends `value` as eight big-endian bytes.
    mutating func appendBigEndian(_ value: UInt64) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
