import ListSync

/// A further document of a ``SyncPeer`` (``SyncPeer/addDocument(_:settings:)``): its own replica and
/// secret, synced over the peer's listeners, with its own dials, edits and change delivery.
///
/// ```swift
/// let chores = try peer.addDocument(ReplicatedList<String>(), settings: SyncSettings(
///     document: "chores", secret: choresSecret))
/// chores.connect(to: laptop)        // the same port as the peer's first document
/// chores.edit { $0.append("sweep") }
/// ```
/// The first document is the peer's own: use the peer's methods for it.
public struct SyncDocument<Replica: SyncReplica>: Sendable {
    /// The peer that syncs it.
    public let peer: SyncPeer<Replica>
    /// Its index in the peer loop's nodes.
    let index: Int
    /// Its ID, secret and limits.
    public let settings: SyncSettings

    /// Keeps a connection to `endpoint` open for this document, as ``SyncPeer/connect(to:)`` does for the
    /// first one.
    public func connect(to endpoint: Endpoint) { peer.connect(to: endpoint, document: index) }

    /// Runs `body` on this document's list as one transaction, as ``SyncPeer/edit(_:)`` does.
    @discardableResult
    public func edit<Result: Sendable>(_ body: (ReplicatedList<Replica.Value>) throws -> Result) throws -> Result {
        try peer.edit(document: index, body)
    }

    /// Runs `body` on this document's list without changing it.
    public func read<Result: Sendable, Failure: Error>(
        _ body: (ReplicatedList<Replica.Value>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try peer.read(document: index, body)
    }

    /// A subscription to every change of this document's rows from now on, as ``SyncPeer/changeEvents()``.
    public func changeEvents() -> ChangeEvents<Replica.Value> { peer.changeEvents(document: index) }

    /// Counters of this document's sync core.
    public var statistics: SyncStatistics { peer.statistics(document: index) }

    /// This document's connections whose handshake and version-vector exchange completed.
    public var liveConnectionCount: Int { peer.liveConnectionCount(document: index) }
}

extension SyncDocument where Replica.CommitFailure == Never {
    /// Runs `body` on this document's list in memory as one transaction, as ``SyncPeer/edit(_:)`` does.
    @discardableResult
    public func edit<Result: Sendable, Failure: Error>(
        _ body: (ReplicatedList<Replica.Value>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try peer.edit(document: index, body)
    }
}
