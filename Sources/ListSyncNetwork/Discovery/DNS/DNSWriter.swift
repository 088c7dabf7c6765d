/// Builds one packet: big-endian fields and names, compressed against the names already written.
struct DNSWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// Where each name suffix written so far starts, by its exact labels (compression keeps case).
    private var suffixOffsets: [[[UInt8]]: Int] = [:]

    /// Appends one byte.
    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    /// Appends a big-endian 16-bit field.
    mutating func uint16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(truncatingIfNeeded: value)] }

    /// Appends a big-endian 32-bit field.
    mutating func uint32(_ value: UInt32) {
        bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// Appends raw bytes.
    mutating func append(_ raw: some Sequence<UInt8>) { bytes += raw }

    /// Appends `name`: with `compress`, its longest suffix already written becomes a pointer to it
    /// (RFC 1035 section 4.1.4); every suffix written in full can be pointed to by later names.
    mutating func name(_ name: DNSName, compress: Bool) {
        for index in name.labels.indices {
            let suffix = Array(name.labels[index...])
            if compress, let target = suffixOffsets[suffix] {
                uint16(0xC000 | UInt16(target))
                return
            }
            if bytes.count < 0x4000, suffixOffsets[suffix] == nil { suffixOffsets[suffix] = bytes.count }
            uint8(UInt8(name.labels[index].count))
            append(name.labels[index])
        }
        uint8(0)
    }

    /// Overwrites the 16-bit field at `offset`, written earlier.
    mutating func patch(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(value >> 8)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value)
    }
}
