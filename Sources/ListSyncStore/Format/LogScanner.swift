/// Splits a log segment's bytes into records and says how the segment ends.
///
/// Recovery rules (Protocol.md, section 3): a record that is cut short by the end of the file, or the
/// last record when its payload checksum fails, is a torn write; anything else that fails a check
/// (a header checksum, a payload checksum with bytes after it, an unknown type) is damage.
struct LogScanner {
    /// How the scanned bytes end.
    enum End: Equatable {
        /// Every byte belongs to a valid record.
        case clean
        /// The bytes from `offset` on are an incomplete last record.
        case torn(offset: Int, reason: String)
        /// The record at `offset` is damaged and is not the last thing in the file.
        case damaged(offset: Int, reason: String)
    }

    /// The valid records, each with the offset just past it.
    private(set) var records: [(record: LogRecord, end: Int)] = []
    /// How the bytes end.
    private(set) var end = End.clean

    /// Scans `bytes` from `offset` (just past the segment header).
    init(_ bytes: [UInt8], from offset: Int) {
        var reader = LittleEndianReader(bytes, offset: offset)
        while reader.remaining > 0 {
            let start = reader.offset
            guard let length = reader.read(UInt32.self), let payloadCRC = reader.read(UInt32.self),
                let headerCRC = reader.read(UInt32.self)
            else {
                end = .torn(offset: start, reason: "record header cut short")
                return
            }
            guard headerCRC == CRC32C.checksum(bytes[start..<(start + 8)]) else {
                // A header written only partly, with the rest zero, is the tail of a torn append.
                let zeros = bytes[(start + 8)...].allSatisfy { $0 == 0 }
                end =
                    zeros
                    ? .torn(offset: start, reason: "record header torn")
                    : .damaged(offset: start, reason: "record header checksum mismatch")
                return
            }
            guard length >= 1, Int(length) <= LogRecord.maximumPayload else {
                end = .damaged(offset: start, reason: "record length \(length) out of range")
                return
            }
            guard let payload = reader.read(count: Int(length)) else {
                end = .torn(offset: start, reason: "record payload cut short")
                return
            }
            guard CRC32C.checksum(payload) == payloadCRC else {
                let last = reader.remaining == 0
                end =
                    last
                    ? .torn(offset: start, reason: "last record's payload checksum mismatch")
                    : .damaged(offset: start, reason: "record payload checksum mismatch")
                return
            }
            guard let record = LogRecord(payload: payload) else {
                end = .damaged(offset: start, reason: "unknown record type or malformed body")
                return
            }
            records.append((record, reader.offset))
        }
    }
}
