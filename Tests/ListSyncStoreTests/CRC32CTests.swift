import Testing

@testable import ListSyncStore

/// CRC-32C against published check values: the catalogue's "123456789" and RFC 3720 appendix B.4.
struct CRC32CTests {
    /// The iSCSI READ command PDU of RFC 3720, B.4.
    static let readCommand: [UInt8] = [
        0x01, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18,
        0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    static let vectors: [([UInt8], UInt32)] = [
        (Array("123456789".utf8), 0xE306_9283),
        ([UInt8](repeating: 0, count: 32), 0x8A91_36AA),
        ([UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
        ((0..<32).map { UInt8($0) }, 0x46DD_794E),
        ((0..<32).reversed().map { UInt8($0) }, 0x113F_DB5C),
        (readCommand, 0xD996_3A56),
        ([], 0),
    ]

    @Test(arguments: vectors)
    func publishedCheckValue(bytes: [UInt8], expected: UInt32) {
        #expect(CRC32C.checksum(bytes) == expected)
    }

    /// A bit-at-a-time implementation, the definition itself, agrees with the sliced tables at every length.
    @Test func slicedTablesMatchBitwiseDefinition() {
        func bitwise(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return ~crc
        }
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        for length in 0...bytes.count {
            #expect(CRC32C.checksum(bytes[0..<length]) == bitwise(Array(bytes[0..<length])), "length \(length)")
        }
    }

    @Test func incrementalEqualsOneShot() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        for split in 0...bytes.count {
            let crc = CRC32C.update(CRC32C.checksum(bytes[..<split]), with: bytes[split...])
            #expect(crc == CRC32C.checksum(bytes))
        }
    }
}
