import ListSync

/// A log segment file `log-<segment number as 16 hex digits>`: a 28-byte header, then records.
///
/// Header (little-endian): magic "LSLG", version 2 (1 is still read: its segments have no
/// ``LogRecord/previousSegment(length:)`` record), three zero bytes, replica ID (u64), segment number
/// (u64), CRC-32C of the 24 bytes before it (u32).
enum LogSegment {
    static let prefix = "log-"
    static let magic: [UInt8] = Array("LSLG".utf8)
    /// The version written.
    static let version: UInt8 = 2
    /// The versions read.
    static let readableVersions: ClosedRange<UInt8> = 1...2
    static let headerSize = 28

    /// The file name of segment `number`.
    static func fileName(_ number: UInt64) -> String {
        let hex = String(number, radix: 16)
        return prefix + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The segment number named by `fileName`, or nil when it is not a segment's name.
    static func number(fromFileName fileName: String) -> UInt64? {
        guard fileName.hasPrefix(prefix), fileName.count == prefix.count + 16 else { return nil }
        let digits = fileName.dropFirst(prefix.count)
        guard digits.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return UInt64(digits, radix: 16)
    }

    /// The header of segment `number` of `replica`.
    static func header(replica: ReplicaID, number: UInt64) -> [UInt8] {
        var bytes = magic + [version, 0, 0, 0]
        bytes.appendLittleEndian(replica.rawValue)
        bytes.appendLittleEndian(number)
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        return bytes
    }

    /// Checks the header of segment `number` in `bytes` (the file at `path`), which must hold one.
    static func checkHeader(
        _ bytes: [UInt8], replica: ReplicaID, number: UInt64, path: String
    ) throws(StoreError) {
        try FileHeader.checkMagicAndVersion(bytes, magic: magic, versions: readableVersions, path: path)
        var reader = LittleEndianReader(bytes, offset: 8)
        guard let found = reader.read(UInt64.self), let foundNumber = reader.read(UInt64.self),
            let crc = reader.read(UInt32.self)
        else { throw .corrupt(path: path, offset: bytes.count, reason: "segment header truncated") }
        guard crc == CRC32C.checksum(bytes[0..<(headerSize - 4)]) else {
            throw .corrupt(path: path, offset: 0, reason: "segment header checksum mismatch")
        }
        guard ReplicaID(found) == replica else {
            throw .replicaMismatch(path: path, expected: replica, found: ReplicaID(found))
        }
        guard foundNumber == number else {
            throw .corrupt(path: path, offset: 16, reason: "header names segment \(foundNumber)")
        }
    }
}
