/// Constants of the wire protocol that every peer must agree on (Protocol.md section 2).
public enum SyncProtocol {
    /// The protocol versions this implementation speaks. Peers use the highest version both speak
    /// (Protocol.md section 2.9); version 5 is the first whose HELLO carries a range, version 6 adds
    /// PRESENCE, version 7 names the document in HELLO by a tag instead of in clear.
    public static let versions: ClosedRange<UInt64> = 5...7
    /// The first version whose HELLO carries a range of versions; an earlier HELLO names one version
    /// and continues in a layout this implementation does not read.
    static let firstVersionWithRange: UInt64 = 5
    /// The first version with PRESENCE; it is sent only on connections that agreed on it or later.
    static let firstVersionWithPresence: UInt64 = 6
    /// The first version whose HELLOs name the document by a tag (``DocumentTag``): both HELLOs of a
    /// connection carry tags when the initiator offers it or later.
    static let firstVersionWithDocumentTag: UInt64 = 7

    /// The highest version both this implementation and a peer offering `offered` speak, if any.
    static func highestCommonVersion(with offered: ClosedRange<UInt64>) -> UInt64? {
        highestCommonVersion(of: versions, and: offered)
    }
    /// The highest version in both ranges, if any.
    static func highestCommonVersion(of ours: ClosedRange<UInt64>, and offered: ClosedRange<UInt64>) -> UInt64? {
        ours.overlaps(offered) ? min(ours.upperBound, offered.upperBound) : nil
    }
    /// The largest frame accepted before authentication (a HELLO body is at most 303 bytes), so that
    /// unauthenticated connections cannot make a peer buffer much.
    public static let maximumHandshakeFrameByteCount = 1024
    /// The largest frame every peer accepts after authentication (16 MiB); a peer sends no larger one.
    public static let maximumFrameByteCount = 16 << 20
}
