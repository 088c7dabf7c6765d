/// Why a domain name cannot be built (RFC 1035 section 2.3.4).
enum DNSNameError: Error, Hashable, Sendable {
    /// The label at `index` is empty (only the root, which ends every name, is).
    case emptyLabel(index: Int)
    /// The label at `index` has `byteCount` bytes, more than 63.
    case labelTooLong(index: Int, byteCount: Int)
    /// The name takes `byteCount` bytes on the wire (a length byte per label, the labels and the root's
    /// zero byte), more than 255.
    case nameTooLong(byteCount: Int)
}
