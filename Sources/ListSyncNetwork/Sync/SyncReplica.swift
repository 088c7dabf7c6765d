import ListSync

/// The replica a sync node serves: read its version vector and changes, merge, and tell duplicates apart.
///
/// `ReplicatedList` conforms; a durable store conforms by persisting in `merge(_:)` before returning.
public protocol SyncReplica: AnyObject, SendableMetatype {
    /// The replica's identity, sent in HELLO.
    var replicaID: ReplicaID { get }
    /// What the replica has seen.
    var versionVector: VersionVector { get }
    /// Everything a replica that has seen `vector` lacks.
    func changes(since vector: VersionVector) -> ChangeSet
    /// Whether merging `changes` would change nothing.
    func hasSeen(_ changes: ChangeSet) -> Bool
    /// Applies a change set whole, or throws and applies nothing.
    @discardableResult
    func merge(_ changes: ChangeSet) throws -> ListChange
}

extension ReplicatedList: SyncReplica {}
