/// Why key/value pairs cannot make a DNS-SD TXT record (RFC 6763 section 6).
enum TXTRecordError: Error, Hashable, Sendable {
    /// The key is empty, or has a byte that is not printable US-ASCII (0x20...0x7E), or an `=`.
    case invalidKey(String)
    /// The key appears twice (keys are compared without regard to case).
    case duplicateKey(String)
    /// The pair with this key takes `byteCount` bytes as `key=value`, more than 255.
    case entryTooLong(key: String, byteCount: Int)
}
