/// A replica a sync peer serves: its version vector and changes, merges, edits as transactions, and
/// reads, all of one list whose rows hold `Value`s.
///
/// `ReplicatedList` conforms (in memory); `DurableReplica` conforms by logging every change before
/// `merge(_:)` and `commit(_:)` return. A peer calls these under its own lock only.
public protocol SyncReplica: AnyObject, SendableMetatype {
    /// The type of the rows' values.
    associatedtype Value: Codable & Sendable
    /// What ``commit(_:)`` throws when it cannot keep a change (`Never` for a list in memory).
    associatedtype CommitFailure: Error
    /// The replica's identity, sent in HELLO.
    var replicaID: ReplicaID { get }
    /// What the replica has seen.
    var versionVector: VersionVector { get }
    /// Everything a replica that has seen `vector` lacks.
    func changes(since vector: VersionVector) -> ChangeSet
    /// Whether merging `changes` would change nothing.
    func hasSeen(_ changes: ChangeSet) -> Bool
    /// Applies a change set a peer sent whole and keeps it (a store logs it first), or throws and
    /// applies nothing.
    /// - Returns: the batch for the rows before the merge.
    /// - Throws: ``MergeError`` when the change set is invalid (the peer is at fault); any other error
    ///   when it could not be kept (a store that could not log it: the peer should send it again later).
    func merge(received changes: ChangeSet) throws -> ListChange
    /// Runs `body` on the list as one transaction (``ReplicatedList/transaction(_:)``) and keeps what it
    /// changed (a store logs it first), or throws and applies nothing of it.
    /// - Returns: the combined batch for the rows before `body`.
    func commit(_ body: (ReplicatedList<Value>) -> Void) throws(CommitFailure) -> ListChange
    /// Runs `body` on the list, which it must neither change nor keep, and returns its result.
    func read<Result: Sendable>(_ body: (ReplicatedList<Value>) -> Result) -> Result
}

extension ReplicatedList: SyncReplica {
    /// The rows' values are `Element`s.
    public typealias Value = Element

    /// Merges `changes` (``merge(_:)``).
    public func merge(received changes: ChangeSet) throws(MergeError) -> ListChange { try merge(changes) }

    /// Runs `body` as one transaction; an in-memory list keeps every change, so this never throws.
    public func commit(_ body: (ReplicatedList) -> Void) -> ListChange { transaction(body).change }

    /// Runs `body` on this list.
    public func read<Result: Sendable>(_ body: (ReplicatedList) -> Result) -> Result { body(self) }
}
