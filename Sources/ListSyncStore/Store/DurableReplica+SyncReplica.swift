import ListSync

/// A store is a replica a sync peer serves directly: what a peer sends is logged before the peer
/// acknowledges it, and edits made through the peer are logged before they are sent.
extension DurableReplica: SyncReplica {
    /// The rows' values are `Element`s.
    public typealias Value = Element
    /// A change that could not be logged.
    public typealias CommitFailure = StoreError

    /// What the list has seen.
    public var versionVector: VersionVector { read { $0.versionVector } }

    /// Everything a replica that has seen `vector` lacks.
    public func changes(since vector: VersionVector) -> ChangeSet { read { $0.changes(since: vector) } }

    /// Whether merging `changes` would change nothing.
    public func hasSeen(_ changes: ChangeSet) -> Bool { read { $0.hasSeen(changes) } }

    /// Merges and logs `changes` (``merge(_:)``).
    /// - Throws: ``MergeError`` when the list rejects them, ``StoreError`` when they could not be logged.
    public func merge(received changes: ChangeSet) throws -> ListChange {
        do {
            return try merge(changes).change
        } catch .mergeRejected(let error) {
            throw error
        }
    }

    /// Runs `body` as one transaction and logs it (``update(_:)``).
    public func commit(_ body: (ReplicatedList<Element>) -> Void) throws(StoreError) -> ListChange {
        try update(body).change
    }
}
