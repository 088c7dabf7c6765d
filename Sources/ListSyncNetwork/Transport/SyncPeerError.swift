/// Why a ``SyncPeer`` refused a request.
public enum SyncPeerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer already syncs a document with this ID.
    case documentAlreadySynced(String)
    /// The document with this ID was removed from the peer (``SyncPeer/removeDocument(_:)``); its
    /// handle no longer reaches it.
    case documentRemoved(String)

    /// What went wrong, for log lines and error messages.
    public var description: String {
        switch self {
        case .documentAlreadySynced(let id): "this peer already syncs a document with the ID \"\(id)\""
        case .documentRemoved(let id): "the document \"\(id)\" was removed from this peer"
        }
    }
}
