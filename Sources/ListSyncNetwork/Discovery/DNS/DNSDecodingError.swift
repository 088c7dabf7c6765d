/// Why a packet is not a DNS message this codec accepts, and at which byte offset of the packet.
enum DNSDecodingError: Error, Hashable, Sendable {
    /// The packet has `byteCount` bytes, more than the `limit` of 9000 (RFC 6762 section 17).
    case packetTooLarge(byteCount: Int, limit: Int)
    /// A field at `offset` runs past the end of the packet, or of the record data it is in.
    case truncated(offset: Int)
    /// The length byte `byte` at `offset` is of a reserved label type (its top bits are 01 or 10).
    case reservedLabelType(offset: Int, byte: UInt8)
    /// The name that starts at `offset` is longer than 255 bytes once its pointers are followed.
    case nameTooLong(offset: Int)
    /// The compression pointer at `offset` points to `target`, which is in the header or not strictly
    /// before the labels the pointer ends (a pointer forward, to itself, or into a loop).
    case pointerNotBackward(offset: Int, target: Int)
    /// The name that starts at `offset` follows more compression pointers than a name has labels.
    case tooManyPointers(offset: Int)
    /// The A or AAAA record data at `offset` has `byteCount` bytes, not 4 or 16.
    case addressLength(offset: Int, type: DNSRecordType, byteCount: Int)
    /// The record data at `offset` declares `declared` bytes, but its fields take `used`.
    case recordDataLength(offset: Int, declared: Int, used: Int)
    /// The NSEC type bitmap block at `offset` is malformed: a length outside 1...32, or a window not
    /// after the one before it (RFC 4034 section 4.1.2).
    case typeBitmap(offset: Int)
    /// Bytes from `offset` follow the last record the header counts.
    case trailingBytes(offset: Int)
}
