/// Appends ListSync's binary encoding: LEB128 varints, fixed-width integers and length-prefixed bytes.
///
/// Shared by the change-set format and, within the package, the network wire format.
package struct BinaryWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty writer.
    package init() {}

    /// Appends one byte.
    package mutating func write(_ byte: UInt8) { bytes.append(byte) }

    /// Appends raw bytes.
    package mutating func write(contentsOf data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    /// Appends `value` as an unsigned LEB128 varint (7 bits per byte, low bits first).
    package mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends `value` zigzag-encoded (``zigzag(_:)``) as a varint.
    package mutating func writeVarint(zigzag value: Int64) { writeVarint(ListSync.zigzag(value)) }

    /// Appends `value` as 8 bytes, little-endian.
    package mutating func writeFixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends a varint length, then the bytes.
    package mutating func writeLengthPrefixed<Bytes: Collection>(_ data: Bytes) where Bytes.Element == UInt8 {
        writeVarint(UInt64(data.count))
        bytes.append(contentsOf: data)
    }
}

/// `value` zigzag-encoded: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
@inline(__always)
func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
}

/// The signed value whose zigzag encoding (``zigzag(_:)``) is `raw`.
@inline(__always)
func unzigzag(_ raw: UInt64) -> Int64 {
    Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
}
