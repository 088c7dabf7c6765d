/// Why a ``SyncPeer`` refused a request.
public enum SyncPeerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer already syncs a document with this ID.
    case documentAlreadySynced(String)

    /// What went wrong, for log lines and error messages.
    public var description: String {
        switch self {
        case .documentAlreadySynced(let id): "this peer already syncs a document with the ID \"\(id)\""
        }
    }
}
