/// Why a message cannot be encoded.
enum DNSEncodingError: Error, Hashable, Sendable {
    /// A question or record has the class `recordClass`, above 0x7FFF (the top bit of the wire field is
    /// the unicast-response or cache-flush bit).
    case classOutOfRange(recordClass: UInt16)
    /// A TXT character string has `byteCount` bytes, more than 255.
    case textStringTooLong(byteCount: Int)
    /// A record's data takes `byteCount` bytes, more than 65535.
    case recordDataTooLong(byteCount: Int)
    /// The message takes more than `limit` bytes (9000, what a receiver accepts, RFC 6762 section 17).
    case messageTooLarge(limit: Int)
}
