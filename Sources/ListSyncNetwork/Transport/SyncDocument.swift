import ListSync

/// A further document of a ``SyncPeer`` (``SyncPeer/addDocument(_:settings:)``): its own replica and
/// secret, synced over the peer's listeners, with its own dials, edits and change delivery, until
/// ``SyncPeer/removeDocument(_:)``.
///
/// ```swift
/// let chores = try peer.addDocument(ReplicatedList<String>(), settings: SyncSettings(
///     document: "chores", secret: choresSecret))
/// try chores.connect(to: laptop)        // the same port as the peer's first document
/// try chores.edit { $0.append("sweep") }
/// ```
/// The peer's first document (the one it was started with) has a handle too, the first of
/// ``SyncPeer/documents``, for code that treats every document alike; the peer's own methods act on it.
/// Once a document is removed, every method throws ``SyncPeerError/documentRemoved(_:)``, and the
/// counters read as empty.
public struct SyncDocument<Replica: SyncReplica>: Sendable {
    /// The peer that syncs it.
    let peer: SyncPeer<Replica>
    /// Its number in the peer loop's nodes, never reused.
    let number: Int
    /// Its ID, secret and limits.
    public let settings: SyncSettings

    /// Keeps a connection to `endpoint` open for this document, as ``SyncPeer/connect(to:)`` does for the
    /// first one.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when the document was removed.
    public func connect(to endpoint: Endpoint) throws(SyncPeerError) { try peer.connect(to: endpoint, document: self) }

    /// Runs `body` on this document's list as one transaction, as ``SyncPeer/edit(_:)`` does.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when the document was removed (`body` did not
    ///   run), or what ``SyncPeer/edit(_:)`` throws.
    @discardableResult
    public func edit<Result: Sendable>(_ body: (ReplicatedList<Replica.Value>) throws -> Result) throws -> Result {
        try peer.edit(document: self, body)
    }

    /// Runs `body` on this document's list without changing it.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when the document was removed (`body` did not
    ///   run), or what `body` threw.
    public func read<Result: Sendable>(_ body: (ReplicatedList<Replica.Value>) throws -> Result) throws -> Result {
        try peer.read(document: self, body)
    }

    /// A subscription to every change of this document's rows from now on, as ``SyncPeer/changeEvents()``;
    /// it ends when the document is removed or the peer stops.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when the document was removed.
    public func changeEvents() throws(SyncPeerError) -> ChangeEvents<Replica.Value> {
        try peer.changeEvents(document: self)
    }

    /// Shows `presence` to this document's peers, as ``SyncPeer/setPresence(_:)`` does for the first
    /// document; a peer's presence in one document is not shown in its others.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when the document was removed, or
    ///   ``PresenceError/beyondLimits(_:)`` (nothing changed then).
    public func setPresence(_ presence: Presence?) throws { try peer.setPresence(presence, document: self) }

    /// This peer's own presence in this document; nil once the document was removed.
    public var ownPresence: Presence? { (try? peer.withNode(of: self) { $1.ownPresence }) ?? nil }

    /// The presences of this document's other peers present now, as ``SyncPeer/presences``; empty once
    /// the document was removed.
    public var presences: [ReplicaID: Presence] { (try? peer.withNode(of: self) { $1.presences }) ?? [:] }

    /// This document's other peers' presences now and each time they change, as
    /// ``SyncPeer/presenceUpdates()``; ends when the document is removed or the peer stops.
    /// - Throws: ``SyncPeerError/documentRemoved(_:)`` when the document was removed.
    public func presenceUpdates() throws(SyncPeerError) -> AsyncStream<[ReplicaID: Presence]> {
        try peer.presenceUpdates(document: self)
    }

    /// Counters of this document's sync core; empty once the document was removed.
    public var statistics: SyncStatistics { (try? peer.withNode(of: self) { $1.statistics }) ?? SyncStatistics() }

    /// This document's connections whose handshake and version-vector exchange completed; 0 once the
    /// document was removed.
    public var liveConnectionCount: Int { (try? peer.withNode(of: self) { $1.liveConnectionCount }) ?? 0 }
}
