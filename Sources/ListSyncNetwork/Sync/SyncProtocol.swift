/// Constants of the wire protocol that every peer must agree on (Protocol.md section 2).
public enum SyncProtocol {
    /// The protocol version this implementation speaks.
    public static let version: UInt64 = 4
    /// The largest frame accepted before authentication (a HELLO body is at most 303 bytes), so that
    /// unauthenticated connections cannot make a peer buffer much.
    public static let maximumHandshakeFrameByteCount = 1024
    /// The largest frame every peer accepts after authentication (16 MiB); a peer sends no larger one.
    public static let maximumFrameByteCount = 16 << 20
}
