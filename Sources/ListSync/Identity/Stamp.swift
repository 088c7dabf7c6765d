/// The total order of operations used by last-writer-wins: Lamport time, then replica, then counter.
///
/// A stamp carries the dot of the operation, so a register that holds a stamp also knows which
/// operation set it.
public struct Stamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The Lamport time of the change that made the operation.
    public var lamport: UInt64
    /// The operation's identity.
    public var dot: Dot

    /// The highest Lamport time a change set, snapshot or log may carry: 2^62 − 1, as
    /// ``Dot/maximumCounter``. A replica whose clock reached it can no longer edit
    /// (``ReplicatedList/canEdit``): a local change's time must exceed every time it has seen.
    public static let maximumLamport: UInt64 = Dot.maximumCounter

    /// Creates a stamp.
    @inlinable
    public init(lamport: UInt64, dot: Dot) {
        self.lamport = lamport
        self.dot = dot
    }

    @inlinable
    public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.lamport, lhs.dot.replica, lhs.dot.counter) < (rhs.lamport, rhs.dot.replica, rhs.dot.counter)
    }

    /// `lamport@replica:counter`.
    public var description: String { "\(lamport)@\(dot)" }
}
