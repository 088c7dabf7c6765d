/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF), the
/// checksum of iSCSI (RFC 3720) and ext4. `checksum("123456789")` is 0xE3069283.
///
/// Slicing-by-8: eight 256-entry tables let the loop consume eight bytes per step.
enum CRC32C {
    /// The reflected Castagnoli polynomial.
    static let polynomial: UInt32 = 0x82F6_3B78

    /// Eight tables of 256 entries, one after another; table k advances a byte by k further zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ polynomial : crc >> 1 }
            tables[byte] = crc
        }
        for table in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(table - 1) * 256 + byte]
                tables[table * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The CRC-32C of `bytes`.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        update(0, with: bytes)
    }

    /// The CRC-32C of the bytes checksummed into `crc` followed by `bytes` (start with 0).
    static func update<Bytes: Collection<UInt8>>(_ crc: UInt32, with bytes: Bytes) -> UInt32 {
        if let result = bytes.withContiguousStorageIfAvailable({ update(crc, buffer: UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { update(crc, buffer: $0) }
    }

    private static func update(_ crc: UInt32, buffer: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { table in
            var crc = ~crc
            var index = 0
            let count = buffer.count
            while index + 8 <= count {
                let low =
                    crc
                    ^ (UInt32(buffer[index]) | UInt32(buffer[index + 1]) << 8
                        | UInt32(buffer[index + 2]) << 16 | UInt32(buffer[index + 3]) << 24)
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(buffer[index + 4])] ^ table[2 * 256 + Int(buffer[index + 5])]
                    ^ table[1 * 256 + Int(buffer[index + 6])] ^ table[Int(buffer[index + 7])]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(buffer[index])) & 0xFF)]
                index += 1
            }
            return ~crc
        }
    }
}
