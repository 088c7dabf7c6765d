/// The local identity of a placeholder row: a number this replica hands out, never sent to a peer.
///
/// A separate type from ``RowID`` so a placeholder can never be mistaken for a replicated row: it has
/// no operation dot, and it gets a ``RowID`` only when it is committed.
public struct PlaceholderID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number, unique within one replica's lifetime, starting at 1.
    public let rawValue: UInt64

    /// Wraps a number.
    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    @inlinable
    public static func < (lhs: PlaceholderID, rhs: PlaceholderID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `placeholder N`.
    public var description: String { "placeholder \(rawValue)" }
}
