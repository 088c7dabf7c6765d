/// Why bytes could not be decoded as a change set, a snapshot or presence updates, and where (byte offset).
public enum BinaryDecodingError: Error, Hashable, Sendable {
    /// The bytes end before the value at `offset` is complete.
    case truncated(offset: Int)
    /// The varint at `offset` is longer than 10 bytes or overflows 64 bits.
    case malformedVarint(offset: Int)
    /// The bytes do not start with the ListSync magic number.
    case badMagic
    /// The format version is not one this build reads.
    case unsupportedVersion(UInt8)
    /// A change set was given where a snapshot was expected, or the reverse.
    case wrongKind(expected: UInt8, found: UInt8)
    /// A count at `offset` promises more elements than the remaining bytes can hold.
    case countTooLarge(offset: Int)
    /// A table index at `offset` is out of range.
    case indexOutOfRange(offset: Int)
    /// The position key at `offset` is empty or ends in a zero byte.
    case invalidPositionKey(offset: Int)
    /// The type identifier at `offset` is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// Elements at `offset` are not in the required strictly increasing order.
    case notCanonical(offset: Int)
    /// A stamp, dot or counter range at `offset` has a Lamport time or counter outside
    /// 1...``Dot/maximumCounter`` (zero, or above 2^62 − 1).
    case invalidStamp(offset: Int)
    /// The flags byte at `offset` has unknown bits or a contradictory combination.
    case invalidFlags(offset: Int)
    /// Bytes remain after the value ends at `offset`.
    case trailingBytes(offset: Int)
    /// The field value at `offset` is not one JSON value without surrounding white space.
    case invalidFieldValue(offset: Int)
    /// The count or length at `offset` is above the limit of what it counts (``Presence/Limits``,
    /// ``PresenceTable/maximumPeerCount``).
    case limitExceeded(offset: Int)
}

extension BinaryDecodingError {
    /// The byte offset at fault, for the errors that name one.
    public var offset: Int? {
        switch self {
        case .truncated(let offset), .malformedVarint(let offset), .countTooLarge(let offset),
            .indexOutOfRange(let offset), .invalidPositionKey(let offset), .invalidUTF8(let offset),
            .notCanonical(let offset), .invalidStamp(let offset), .invalidFlags(let offset),
            .trailingBytes(let offset), .invalidFieldValue(let offset), .limitExceeded(let offset):
            offset
        case .badMagic, .unsupportedVersion, .wrongKind: nil
        }
    }
}
