/// Where a change to the rows came from.
public enum ChangeOrigin: Hashable, Sendable, CustomStringConvertible {
    /// Edits made on this replica (through the peer or store that delivers the event).
    case local
    /// Change sets merged from peers: the connected peers that sent them (one, unless the events of
    /// several merges were combined; empty for a merge that no connection brought).
    case remote(peers: Set<ReplicaID>)

    /// `local`, or `remote from 1a2b3c4d5e6f7081` (the peers' replica IDs).
    public var description: String {
        switch self {
        case .local: "local"
        case .remote(let peers) where peers.isEmpty: "remote"
        case .remote(let peers): "remote from " + peers.map(\.description).sorted().joined(separator: ", ")
        }
    }

    /// Whether an event of this origin may be combined with one of `other`: local with local, remote
    /// with remote (so an app that skips animating its own edits still can).
    func combines(with other: ChangeOrigin) -> Bool {
        switch (self, other) {
        case (.local, .local), (.remote, .remote): true
        default: false
        }
    }

    /// The origin of an event that combines events of this origin and `other` (``combines(with:)``).
    func combined(with other: ChangeOrigin) -> ChangeOrigin {
        guard case .remote(let peers) = self, case .remote(let others) = other else { return self }
        return .remote(peers: peers.union(others))
    }
}
