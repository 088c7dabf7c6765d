/// One operation's identity: the replica that made it and that replica's operation counter (1, 2, 3, ...).
///
/// Every operation that changes replicated state (insert, move, delete, edit) has its own dot, so a
/// version vector can say whether it has been seen.
public struct Dot: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The replica that made the operation.
    public var replica: ReplicaID
    /// The replica's counter for the operation, starting at 1.
    public var counter: UInt64

    /// Creates a dot.
    @inlinable
    public init(replica: ReplicaID, counter: UInt64) {
        self.replica = replica
        self.counter = counter
    }

    @inlinable
    public static func < (lhs: Dot, rhs: Dot) -> Bool {
        (lhs.replica, lhs.counter) < (rhs.replica, rhs.counter)
    }

    /// `replica:counter`, as in `00000000000000ab:17`.
    public var description: String { "\(replica):\(counter)" }
}

extension Dot {
    /// The highest operation counter a change set, snapshot or log may carry: 2^62 − 1. Decoding rejects
    /// counters outside 1...`maximumCounter`, so counting on from any received counter cannot overflow.
    public static let maximumCounter: UInt64 = (1 << 62) - 1
}

/// A row's stable identity: the dot of the operation that inserted it. Never reused.
public typealias RowID = Dot
