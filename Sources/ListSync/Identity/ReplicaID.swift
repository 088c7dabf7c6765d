/// The identity of one replica of a list: a random 64-bit number chosen when the replica is created.
public struct ReplicaID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 64-bit value.
    public var rawValue: UInt64

    /// Wraps a 64-bit value.
    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Wraps a 64-bit value.
    @inlinable
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// A fresh identity drawn from `generator`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> ReplicaID {
        ReplicaID(generator.next())
    }

    /// A fresh identity drawn from the system's random number generator.
    public static func random() -> ReplicaID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    @inlinable
    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The identity as 16 hexadecimal digits.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
