/// A column of integers encoded as runs: pairs of (run length, value) varints, so repeated values
/// (the same replica, a constant stride, the same flags) take a few bytes per run instead of per row.
struct RunLengthWriter {
    private var writer = BinaryWriter()
    private var value: UInt64 = 0
    private var length: UInt64 = 0

    /// Appends `value`.
    mutating func append(_ value: UInt64) {
        if length > 0 && value == self.value {
            length += 1
            return
        }
        flush()
        self.value = value
        length = 1
    }

    /// Appends a signed value, zigzag-encoded (0, -1, 1, -2, ... as 0, 1, 2, 3, ...).
    mutating func append(signed value: Int64) {
        append(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// The encoded column.
    mutating func finish() -> [UInt8] {
        flush()
        length = 0
        return writer.bytes
    }

    private mutating func flush() {
        guard length > 0 else { return }
        writer.writeVarint(length)
        writer.writeVarint(value)
    }
}

/// Reads a column written by ``RunLengthWriter``.
struct RunLengthReader {
    private var reader: BinaryReader
    private var value: UInt64 = 0
    private var remainingInRun: UInt64 = 0

    /// A reader of the column in `reader`'s remaining bytes.
    init(_ reader: BinaryReader) { self.reader = reader }

    /// The next value.
    mutating func next() throws(BinaryDecodingError) -> UInt64 {
        if remainingInRun == 0 {
            let start = reader.offset
            remainingInRun = try reader.readVarint()
            guard remainingInRun > 0 else { throw .notCanonical(offset: start) }
            value = try reader.readVarint()
        }
        remainingInRun -= 1
        return value
    }

    /// The next value, zigzag-decoded.
    mutating func nextSigned() throws(BinaryDecodingError) -> Int64 {
        let raw = try next()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Throws unless every value of the column was read.
    func expectEnd() throws(BinaryDecodingError) {
        guard remainingInRun == 0 else { throw .trailingBytes(offset: reader.offset) }
        try reader.expectEnd()
    }
}
