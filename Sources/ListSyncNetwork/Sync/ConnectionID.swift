/// Names one connection of a sync node; chosen by the transport, unique among its open connections.
public struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number.
    public let rawValue: Int

    /// The connection numbered `rawValue`.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Orders by number.
    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#n`.
    public var description: String { "#\(rawValue)" }
}
