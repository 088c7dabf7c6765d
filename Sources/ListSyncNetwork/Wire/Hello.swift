import ListSync

/// The first message each side sends: protocol version, replica, fresh nonce and document.
struct Hello: Hashable, Sendable {
    /// `LSYN`, so that a stray client is told apart from a broken peer.
    static let magic: [UInt8] = Array("LSYN".utf8)
    /// Bytes in a nonce.
    static let nonceByteCount = 32
    /// The longest document ID.
    static let maximumDocumentByteCount = 255

    /// The protocol version the sender speaks.
    var version: UInt64
    /// The sender's replica.
    var replica: ReplicaID
    /// Fresh random bytes for this connection.
    var nonce: [UInt8]
    /// The document the sender wants to sync.
    var document: [UInt8]
}
