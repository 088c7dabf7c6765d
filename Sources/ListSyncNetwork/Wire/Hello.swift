import ListSync

/// The first message each side sends: the protocol versions the sender speaks, its replica, a fresh
/// nonce and the document.
struct Hello: Hashable, Sendable {
    /// `LSYN`, so that a stray client is told apart from a broken peer.
    static let magic: [UInt8] = Array("LSYN".utf8)
    /// Bytes in a nonce.
    static let nonceByteCount = 32
    /// The longest document ID.
    static let maximumDocumentByteCount = 255

    /// The protocol versions the sender speaks.
    var versions: ClosedRange<UInt64>
    /// The sender's replica.
    var replica: ReplicaID
    /// Fresh random bytes for this connection.
    var nonce: [UInt8]
    /// The document the sender wants to sync.
    var document: [UInt8]
}
