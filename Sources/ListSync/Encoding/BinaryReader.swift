/// Reads ListSync's binary encoding with every access bounds-checked: malformed input is a typed
/// error, never a trap.
///
/// A reader borrows the buffer it reads: make it inside `withUnsafeBufferPointer` of the bytes and
/// never keep it (or a column reader holding it) past that call. Borrowing instead of holding the array
/// keeps readers free to copy: a change set's header makes a dozen of them, and each copy of an array
/// would retain and release it. Every read checks its offset against `end`, which never exceeds the
/// buffer, so no read leaves it.
struct BinaryReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read, from the start of the whole buffer.
    private(set) var offset: Int
    /// The end of the readable range.
    private let end: Int

    /// A reader over all of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        offset = 0
        end = bytes.count
    }

    /// A reader over `range` of `bytes`; offsets in errors stay relative to the whole buffer.
    /// - Precondition: `range` lies within `bytes`.
    private init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    /// The number of bytes not read yet.
    var remaining: Int { end - offset }

    /// Reads one byte.
    mutating func readByte() throws(BinaryDecodingError) -> UInt8 {
        guard offset < end else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads an unsigned LEB128 varint of at most 10 bytes.
    mutating func readVarint() throws(BinaryDecodingError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            if shift == 63 && byte > 1 { throw .malformedVarint(offset: start) }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw .malformedVarint(offset: start) }
        }
    }

    /// Reads a zigzag-encoded varint (``unzigzag(_:)``).
    mutating func readSignedVarint() throws(BinaryDecodingError) -> Int64 { unzigzag(try readVarint()) }

    /// Reads a varint count of elements that each take at least `minimumSize` bytes.
    mutating func readCount(minimumSize: Int = 1) throws(BinaryDecodingError) -> Int {
        let start = offset
        let value = try readVarint()
        guard value <= UInt64(remaining / max(minimumSize, 1)) else { throw .countTooLarge(offset: start) }
        return Int(value)
    }

    /// Reads 8 bytes, little-endian.
    mutating func readFixed64() throws(BinaryDecodingError) -> UInt64 {
        guard remaining >= 8 else { throw .truncated(offset: offset) }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return value
    }

    /// Reads a varint length, then that many bytes.
    mutating func readLengthPrefixed() throws(BinaryDecodingError) -> Slice<UnsafeBufferPointer<UInt8>> {
        let start = offset
        let length = try readVarint()
        guard length <= UInt64(remaining) else { throw .truncated(offset: start) }
        return try readBytes(Int(length))
    }

    /// Reads a varint length, then that many bytes of UTF-8 as a string.
    /// - Throws: ``BinaryDecodingError/invalidUTF8(offset:)`` at the length's offset when the bytes are
    ///   not UTF-8.
    mutating func readString() throws(BinaryDecodingError) -> String {
        let start = offset
        let bytes = UnsafeBufferPointer(rebasing: try readLengthPrefixed())
        // ASCII (every type identifier and most names) is valid as it is: no generic validation.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let string = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
        return string
    }

    /// Reads `count` bytes.
    mutating func readBytes(_ count: Int) throws(BinaryDecodingError) -> Slice<UnsafeBufferPointer<UInt8>> {
        bytes[try skip(count)]
    }

    /// Skips `count` bytes and returns their range in the buffer.
    mutating func skip(_ count: Int) throws(BinaryDecodingError) -> Range<Int> {
        guard count >= 0 && count <= remaining else { throw .truncated(offset: offset) }
        defer { offset += count }
        return offset..<(offset + count)
    }

    /// A reader over the next `count` bytes, which this reader skips.
    mutating func subreader(_ count: Int) throws(BinaryDecodingError) -> BinaryReader {
        BinaryReader(bytes, range: try skip(count))
    }

    /// Throws unless every byte was read.
    func expectEnd() throws(BinaryDecodingError) {
        guard remaining == 0 else { throw .trailingBytes(offset: offset) }
    }
}
