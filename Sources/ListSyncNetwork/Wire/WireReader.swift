/// Reads one message body, bounds-checked; every failure is a ``SyncError/malformedMessage(type:offset:reason:)``.
struct WireReader {
    /// The message type, for error reports.
    let type: UInt8
    /// The payload (the body after its type byte).
    private let bytes: ArraySlice<UInt8>
    /// The offset of the next byte within the body.
    private(set) var offset: Int

    /// A reader over `payload`, the bytes after the type byte of a body of type `type`.
    init(type: UInt8, payload: ArraySlice<UInt8>) {
        self.type = type
        self.bytes = payload
        self.offset = 1
    }

    /// The error for a malformed field at the current offset.
    func malformed(_ reason: String) -> SyncError { malformed(reason, at: offset) }

    /// The error for a malformed field that starts at `offset`.
    func malformed(_ reason: String, at offset: Int) -> SyncError {
        .malformedMessage(type: type, offset: offset, reason: reason)
    }

    /// The bytes not read yet.
    var remaining: ArraySlice<UInt8> { bytes.dropFirst(offset - 1) }

    /// Reads `count` raw bytes.
    mutating func read(count: Int) throws(SyncError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining.count >= count else { throw malformed("truncated: \(count) bytes needed") }
        let start = bytes.startIndex + offset - 1
        offset += count
        return bytes[start..<start + count]
    }

    /// Reads an unsigned LEB128 varint of at most 10 bytes that fits in 64 bits.
    mutating func readVarint() throws(SyncError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            let byte = try read(count: 1).first ?? 0
            let group = UInt64(byte & 0x7F)
            guard index < 9 || group <= 1 else { throw malformed("varint overflows 64 bits") }
            value |= group << UInt64(7 * index)
            if byte & 0x80 == 0 { return value }
        }
        throw malformed("varint longer than 10 bytes")
    }

    /// Reads 8 bytes, little-endian.
    mutating func readUInt64() throws(SyncError) -> UInt64 {
        try read(count: 8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Reads a varint length of at most `limit`, then that many bytes.
    mutating func readLengthPrefixed(limit: Int) throws(SyncError) -> [UInt8] {
        let length = try readVarint()
        guard length <= UInt64(limit) else { throw malformed("length \(length) above the limit \(limit)") }
        return Array(try read(count: Int(length)))
    }

    /// Checks that nothing follows.
    func expectEnd() throws(SyncError) {
        guard remaining.isEmpty else { throw malformed("\(remaining.count) trailing bytes") }
    }
}
