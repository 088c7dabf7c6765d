/// What the peers of one document share, and the limits of the sync core.
public struct SyncSettings: Sendable {
    /// The document's ID, at most 255 bytes; both sides of a connection must name the same one.
    public var document: [UInt8]
    /// The document's pre-shared secret, at least 16 bytes.
    public var secret: [UInt8]
    /// The largest frame accepted or sent, in bytes (default 16 MiB).
    public var maximumFrameByteCount: Int
    /// The most bytes of change sets queued for one connection; beyond, they are dropped for a resync.
    public var outboxByteLimit: Int

    /// Settings for `document` shared with `secret`.
    public init(
        document: String, secret: [UInt8], maximumFrameByteCount: Int = 16 << 20, outboxByteLimit: Int = 4 << 20
    ) {
        precondition(document.utf8.count <= Hello.maximumDocumentByteCount, "document IDs have at most 255 bytes")
        precondition(secret.count >= 16, "a secret has at least 16 bytes")
        precondition(maximumFrameByteCount >= 1024, "frames of at least 1 KiB must be allowed")
        self.document = Array(document.utf8)
        self.secret = secret
        self.maximumFrameByteCount = maximumFrameByteCount
        self.outboxByteLimit = outboxByteLimit
    }
}
