/// Every peer's presence as this peer knows it: the latest by each peer's own clock, forgotten once
/// the peer has been silent for ``timeout`` or has said it left.
///
/// Pure: the time an update is heard comes in as an argument, so the rules are testable without a
/// clock. A peer renews its presence well within the timeout (a sync peer renews every half timeout),
/// so a peer that is still there never expires; an update relayed again with the same clock neither
/// changes nor renews anything. Memory is bounded: at most ``maximumPeerCount`` peers, each within
/// ``Presence/Limits``.
public struct PresenceTable: Sendable {
    /// One peer's presence as it travels: the peer, its clock, and its presence (nil: it left).
    public struct Update: Hashable, Sendable {
        /// The peer the presence is of.
        public var replica: ReplicaID
        /// The peer's own clock: a later update of the same peer has a greater one.
        public var clock: UInt64
        /// The presence; nil when the peer left (a clean stop).
        public var presence: Presence?

        /// Creates an update.
        public init(replica: ReplicaID, clock: UInt64, presence: Presence?) {
            self.replica = replica
            self.clock = clock
            self.presence = presence
        }
    }

    private struct Entry: Sendable {
        var update: Update
        var heard: ContinuousClock.Instant
    }

    /// The most peers the table holds; an update of a peer beyond them is ignored until one expires.
    public static let maximumPeerCount = 256

    /// How long a silent peer's presence is kept.
    public let timeout: Duration
    private var entries: [ReplicaID: Entry] = [:]

    /// An empty table whose entries expire after `timeout` of silence (30 s by default, as Yjs's
    /// awareness).
    public init(timeout: Duration = .seconds(30)) {
        precondition(timeout > .zero, "a presence timeout must be positive, not \(timeout)")
        self.timeout = timeout
    }

    /// Applies `update`, heard at `now`, unless the table already holds one of that peer with a clock as
    /// great; returns whether it applied (then relay it to the other peers).
    public mutating func apply(_ update: Update, at now: ContinuousClock.Instant) -> Bool {
        if let entry = entries[update.replica] {
            guard update.clock > entry.update.clock else { return false }
        } else {
            guard entries.count < Self.maximumPeerCount else { return false }
        }
        entries[update.replica] = Entry(update: update, heard: now)
        return true
    }

    /// Forgets the peers silent for ``timeout`` at `now` (those that left too, once their departure is
    /// that old); returns those that were present, by replica ID.
    public mutating func expire(at now: ContinuousClock.Instant) -> [ReplicaID] {
        let expired = entries.filter { now - $0.value.heard >= timeout }
        for replica in expired.keys { entries[replica] = nil }
        return expired.filter { $0.value.update.presence != nil }.keys.sorted()
    }

    /// When the next entry expires, if any.
    public var nextExpiry: ContinuousClock.Instant? {
        entries.values.map(\.heard).min().map { $0 + timeout }
    }

    /// The number of peers held, departures included.
    public var count: Int { entries.count }

    /// The latest update of `replica` held, its departure included, if any.
    public func update(of replica: ReplicaID) -> Update? { entries[replica]?.update }

    /// The latest update of every peer held, departures included (what a new connection is told).
    public var updates: [Update] {
        entries.values.map(\.update).sorted { $0.replica < $1.replica }
    }

    /// The presences of the peers present, by replica ID, without the rows `isShown` rejects (rows
    /// deleted or hidden; ``Presence/filteringRows(_:)``).
    public func presences(showing isShown: (RowID) -> Bool) -> [ReplicaID: Presence] {
        var presences: [ReplicaID: Presence] = [:]
        for (replica, entry) in entries {
            if let presence = entry.update.presence { presences[replica] = presence.filteringRows(isShown) }
        }
        return presences
    }
}
