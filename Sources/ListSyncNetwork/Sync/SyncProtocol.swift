/// Constants of the wire protocol that every peer must agree on (Protocol.md section 2).
public enum SyncProtocol {
    /// The protocol versions this implementation speaks. Peers use the highest version both speak
    /// (Protocol.md section 2.9); version 5 is the first whose HELLO carries a range, version 6 adds
    /// PRESENCE.
    public static let versions: ClosedRange<UInt64> = 5...6
    /// The first version whose HELLO carries a range of versions; an earlier HELLO names one version
    /// and continues in a layout this implementation does not read.
    static let firstVersionWithRange: UInt64 = 5
    /// The first version with PRESENCE; it is sent only on connections that agreed on it or later.
    static let firstVersionWithPresence: UInt64 = 6

    /// The highest version both this implementation and a peer offering `offered` speak, if any.
    static func highestCommonVersion(with offered: ClosedRange<UInt64>) -> UInt64? {
        versions.overlaps(offered) ? min(versions.upperBound, offered.upperBound) : nil
    }
    /// The largest frame accepted before authentication (a HELLO body is at most 303 bytes), so that
    /// unauthenticated connections cannot make a peer buffer much.
    public static let maximumHandshakeFrameByteCount = 1024
    /// The largest frame every peer accepts after authentication (16 MiB); a peer sends no larger one.
    public static let maximumFrameByteCount = 16 << 20
}
