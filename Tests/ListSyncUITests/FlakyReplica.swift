import ListSync
import Synchronization

/// A list in memory that refuses to keep local edits while ``failing`` is set, as a store that cannot
/// write its log does.
final class FlakyReplica: SyncReplica, Sendable {
    /// What a refused edit throws.
    struct NotLogged: Error {}

    /// Whether commits throw (and change nothing).
    let failing = Atomic(false)
    /// The list. `nonisolated(unsafe)` is safe: a peer calls its replica only under its own lock
    /// (``SyncReplica``'s contract), and the tests reach the list only through the peer.
    nonisolated(unsafe) private let list: ReplicatedList<String>

    /// A replica `id` holding `values`.
    init(_ id: UInt64, values: [String]) {
        list = ReplicatedList(replicaID: ReplicaID(id))
        list.append(contentsOf: values)
    }

    var replicaID: ReplicaID { list.replicaID }
    var versionVector: VersionVector { list.versionVector }
    func changes(since vector: VersionVector) -> ChangeSet { list.changes(since: vector) }
    func hasSeen(_ changes: ChangeSet) -> Bool { list.hasSeen(changes) }
    func merge(received changes: ChangeSet) throws -> ListChange { try list.merge(changes) }

    func commit(_ body: (ReplicatedList<String>) -> Void) throws(NotLogged) -> ListChange {
        if failing.load(ordering: .sequentiallyConsistent) { throw NotLogged() }
        return list.transaction(body).change
    }

    func read<Result: Sendable>(_ body: (ReplicatedList<String>) -> Result) -> Result { body(list) }
}
