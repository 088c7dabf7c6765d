import ListSync

/// The position of a change in the store's log; the change is durable once the store's
/// ``DurableReplica/durableTicket`` has reached it.
public struct DurabilityTicket: Hashable, Comparable, Sendable {
    /// Log records appended by this open of the store, up to and including the change.
    public let sequence: UInt64

    /// A ticket for the record with `sequence`.
    public init(sequence: UInt64) { self.sequence = sequence }

    /// Orders tickets by sequence: a lower ticket is durable no later than a higher one.
    public static func < (lhs: DurabilityTicket, rhs: DurabilityTicket) -> Bool { lhs.sequence < rhs.sequence }
}

/// What a durable update or merge did: the batch for the UI, the change to send to peers, and when it
/// is durable.
public struct Commit: Hashable, Sendable {
    /// What the visible rows did.
    public let change: ListChange
    /// The change set to send to peers (for a merge, the change set that was merged).
    public let changes: ChangeSet
    /// When the change is durable; already durable under ``CommitPolicy/always``.
    public let ticket: DurabilityTicket
}
