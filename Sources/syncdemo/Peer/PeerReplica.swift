import ListSync
import ListSyncNetwork
import ListSyncStore
import Synchronization

/// The list a `syncdemo peer` serves: in memory, or in a directory where every change is logged and
/// fsynced before it is acknowledged (``DurableReplica``).
///
/// The ``SyncPeer`` merges what arrives through ``merge(_:)``; local edits go through ``update(_:)``
/// inside `peer.edit`. Like any replica of a peer, it is only touched under the peer's lock.
final class PeerReplica: SyncReplica {
    /// Where the list lives.
    enum Storage {
        /// In memory: gone when the process ends.
        case memory(ReplicatedList<Entry>)
        /// In a replica directory.
        case durable(DurableReplica<Entry>)
    }

    /// Where the list lives.
    private let storage: Storage
    /// Called with the batch of every merge that changed visible rows (on the peer's thread, its lock held).
    private let onMerge: @Sendable (ListChange) -> Void

    /// A replica kept in `storage`; `onMerge` hears of every visible change a peer brought.
    init(storage: Storage, onMerge: @escaping @Sendable (ListChange) -> Void) {
        self.storage = storage
        self.onMerge = onMerge
    }

    /// The list's replica ID (a durable one keeps it across restarts).
    var replicaID: ReplicaID {
        switch storage {
        case .memory(let list): list.replicaID
        case .durable(let store): store.replicaID
        }
    }

    /// What the list has seen.
    var versionVector: VersionVector { read { $0.versionVector } }

    /// Everything a replica that has seen `vector` lacks.
    func changes(since vector: VersionVector) -> ChangeSet { read { $0.changes(since: vector) } }

    /// Whether merging `changes` would change nothing.
    func hasSeen(_ changes: ChangeSet) -> Bool { read { $0.hasSeen(changes) } }

    /// Merges `changes`, logging them first when durable, and reports what became visible.
    @discardableResult
    func merge(_ changes: ChangeSet) throws -> ListChange {
        let change =
            switch storage {
            case .memory(let list): try list.merge(changes)
            case .durable(let store): try store.merge(changes).change
            }
        if change != ListChange() { onMerge(change) }
        return change
    }

    /// Runs `body` on the list without changing it.
    func read<Result: Sendable>(_ body: (ReplicatedList<Entry>) -> Result) -> Result {
        switch storage {
        case .memory(let list): body(list)
        case .durable(let store): store.read(body)
        }
    }

    /// Applies `mutation` to the list and returns its output; when durable, the change is logged and
    /// fsynced before this returns. A mutation that throws must leave the list unchanged.
    /// - Throws: what `mutation` threw, or ``StoreError`` when the change could not be logged.
    func update<Output: Sendable>(
        _ mutation: @Sendable (ReplicatedList<Entry>) throws -> (change: ListChange, output: Output)
    ) throws -> Output {
        switch storage {
        case .memory(let list):
            return try mutation(list).output
        case .durable(let store):
            let outcome = Mutex<Result<Output, any Error>?>(nil)
            try store.update { list in
                do {
                    let (change, output) = try mutation(list)
                    outcome.withLock { $0 = .success(output) }
                    return change
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                    return ListChange()
                }
            }
            // The store runs the mutation exactly once before `update` returns.
            return try outcome.withLock { $0! }.get()
        }
    }
}
