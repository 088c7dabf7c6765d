/// For each replica, the highest operation counter seen such that every earlier one was seen too.
///
/// A peer sends its version vector to ask for what it lacks: ``ReplicatedList/changes(since:)``.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    /// Counters by replica; replicas never seen are absent (counter 0).
    public private(set) var counters: [ReplicaID: UInt64]

    /// The empty version vector: nothing seen.
    public init() { counters = [:] }

    /// A version vector with the given counters (zero counters are dropped).
    public init(_ counters: [ReplicaID: UInt64]) {
        self.counters = counters.filter { $0.value > 0 }
    }

    /// The highest contiguous counter seen from `replica` (0 when nothing).
    public subscript(replica: ReplicaID) -> UInt64 {
        get { counters[replica] ?? 0 }
        set {
            if newValue == 0 { counters.removeValue(forKey: replica) } else { counters[replica] = newValue }
        }
    }

    /// Whether the operation `dot` is covered.
    public func contains(_ dot: Dot) -> Bool { dot.counter <= self[dot.replica] }

    /// Whether every operation covered by `other` is covered by `self`.
    public func dominates(_ other: VersionVector) -> Bool {
        other.counters.allSatisfy { self[$0.key] >= $0.value }
    }

    /// The pointwise maximum.
    public func union(_ other: VersionVector) -> VersionVector {
        var result = self
        for (replica, counter) in other.counters where counter > result[replica] { result[replica] = counter }
        return result
    }

    /// Total number of operations covered.
    public var operationCount: UInt64 { counters.values.reduce(0, +) }

    /// `{replica: counter, ...}` sorted by replica.
    public var description: String {
        "{" + counters.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
}
