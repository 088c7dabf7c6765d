/// What the peers of one document share, and the limits of the sync core.
public struct SyncSettings: Sendable, Equatable {
    /// The document's ID, at most 255 bytes; both sides of a connection must name the same one.
    public var document: [UInt8]
    /// The document's pre-shared secret, at least 16 bytes.
    public var secret: [UInt8]
    /// The protocol versions this side speaks for the document, within ``SyncProtocol/versions`` (the
    /// default). A peer whose range does not meet it is refused with ``SyncError/unsupportedVersion(offered:supported:)``.
    /// Dialing peers that speak only versions 5 and 6 takes `5...6`: from version 7 an initiator names the
    /// document by a tag, which such peers refuse as ``SyncError/wrongDocument`` (Protocol.md section 2.9).
    public var versions: ClosedRange<UInt64>
    /// The largest frame this side sends, in bytes: from 1 KiB to ``SyncProtocol/maximumFrameByteCount``,
    /// which every peer accepts (default 1 MiB, so that a frame arrives well within the idle timeout on a
    /// slow link). Change sets are cut to fit (a single row larger than a frame travels in pieces).
    public var maximumFrameByteCount: Int
    /// The largest change set accepted from a peer, in bytes, once its pieces are put together (default
    /// 256 MiB); a larger one closes that connection with ``SyncError/changeSetTooLarge(length:limit:)``.
    public var maximumChangeSetByteCount: Int
    /// The most bytes of change sets queued for one connection; beyond, they are dropped for a resync.
    public var outboxByteLimit: Int

    /// The document ID as text, as given to ``init(document:secret:versions:maximumFrameByteCount:maximumChangeSetByteCount:outboxByteLimit:)``.
    public var documentName: String { String(decoding: document, as: UTF8.self) }

    /// Settings for `document` shared with `secret`.
    public init(
        document: String, secret: [UInt8], versions: ClosedRange<UInt64> = SyncProtocol.versions,
        maximumFrameByteCount: Int = 1 << 20,
        maximumChangeSetByteCount: Int = 256 << 20, outboxByteLimit: Int = 4 << 20
    ) {
        precondition(document.utf8.count <= Hello.maximumDocumentByteCount, "document IDs have at most 255 bytes")
        precondition(secret.count >= 16, "a secret has at least 16 bytes")
        precondition(
            SyncProtocol.versions.contains(versions.lowerBound) && SyncProtocol.versions.contains(versions.upperBound),
            "versions within \(SyncProtocol.versions)")
        precondition(
            (1024...SyncProtocol.maximumFrameByteCount).contains(maximumFrameByteCount),
            "frames are from 1 KiB to 16 MiB")
        precondition(maximumChangeSetByteCount >= 1024, "change sets of at least 1 KiB must be accepted")
        self.document = Array(document.utf8)
        self.secret = secret
        self.versions = versions
        self.maximumFrameByteCount = maximumFrameByteCount
        self.maximumChangeSetByteCount = maximumChangeSetByteCount
        self.outboxByteLimit = outboxByteLimit
    }
}
