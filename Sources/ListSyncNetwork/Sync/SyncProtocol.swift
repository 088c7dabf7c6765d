/// Constants of the wire protocol that every peer must agree on (Protocol.md section 2).
public enum SyncProtocol {
    /// The protocol version this implementation speaks.
    public static let version: UInt64 = 1
    /// Bytes of the big-endian length that starts every frame.
    static let lengthPrefixByteCount = 4
}
