/// Appends the wire encodings of Protocol.md: LEB128 varints, little-endian integers, length-prefixed bytes.
struct WireWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Appends one byte.
    mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Appends raw bytes.
    mutating func write(contentsOf data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    /// Appends `value` as an unsigned LEB128 varint.
    mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends `value` as 8 bytes, little-endian.
    mutating func writeUInt64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends a varint length, then `data`.
    mutating func writeLengthPrefixed(_ data: [UInt8]) {
        writeVarint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }
}
