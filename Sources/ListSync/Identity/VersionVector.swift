/// Exactly which operations a replica has seen: for each replica, the ranges of its operation counters.
///
/// Usually one range `1...n` per replica (the version vector of the literature); more while change
/// sets arrive out of order, or after a durable replica skipped counters it had reserved. A peer
/// sends its version vector to ask for what it lacks: ``ReplicatedList/changes(since:)`` sends exactly
/// the operations the vector does not cover, so nothing seen out of order is sent again.
public struct VersionVector: Hashable, Sendable, CustomStringConvertible {
    /// The counters seen, exactly.
    private(set) var ranges: DotRanges

    /// The empty version vector: nothing seen.
    public init() { ranges = DotRanges() }

    /// A version vector covering counters `1...n` of each replica (zero counters cover nothing).
    public init(_ counters: [ReplicaID: UInt64]) {
        ranges = DotRanges()
        for (replica, counter) in counters where counter > 0 { ranges.insert(1...counter, of: replica) }
    }

    /// The version vector covering exactly `ranges`.
    init(exactly ranges: DotRanges) { self.ranges = ranges }

    /// For each replica seen, the highest counter `n` such that `1...n` are all covered (0 is omitted).
    public var counters: [ReplicaID: UInt64] {
        Dictionary(
            uniqueKeysWithValues: ranges.entries.compactMap {
                $0.counters.prefix > 0 ? ($0.replica, $0.counters.prefix) : nil
            })
    }

    /// Whether some counters are covered beyond a gap (`counters` then understates what was seen).
    public var hasGaps: Bool { ranges.entries.contains { $0.counters.ranges.count > 1 || $0.counters.prefix == 0 } }

    /// The highest contiguous counter seen from `replica` (0 when nothing); setting it covers `1...n`
    /// and keeps what is covered above.
    public subscript(replica: ReplicaID) -> UInt64 {
        get { ranges[replica]?.prefix ?? 0 }
        set { ranges.setPrefix(newValue, of: replica) }
    }

    /// The replicas with some operation covered, in increasing order.
    public var replicas: [ReplicaID] { ranges.entries.map(\.replica) }

    /// The counters of `replica` covered, as increasing, disjoint, non-adjacent ranges.
    public func ranges(of replica: ReplicaID) -> [ClosedRange<UInt64>] { ranges[replica]?.ranges ?? [] }

    /// Covers the operations `counters` of `replica` too.
    public mutating func insert(_ counters: ClosedRange<UInt64>, of replica: ReplicaID) {
        precondition(counters.lowerBound > 0, "operation counters start at 1")
        ranges.insert(counters, of: replica)
    }

    /// Whether the operation `dot` is covered.
    public func contains(_ dot: Dot) -> Bool { ranges.contains(dot) }

    /// Whether every operation covered by `other` is covered by `self`.
    public func dominates(_ other: VersionVector) -> Bool { ranges.contains(other.ranges) }

    /// Everything covered by either.
    public func union(_ other: VersionVector) -> VersionVector {
        var result = self
        result.ranges.formUnion(other.ranges)
        return result
    }

    /// Total number of operations covered.
    public var operationCount: UInt64 { ranges.count }

    /// `{replica: n, replica: 1...4, 7...9}` sorted by replica.
    public var description: String {
        let entries = ranges.entries.map { entry in
            let counters = entry.counters
            let text =
                counters.ranges.count == 1 && counters.prefix > 0
                ? "\(counters.prefix)"
                : counters.ranges.map { "\($0.lowerBound)...\($0.upperBound)" }.joined(separator: ", ")
            return "\(entry.replica): \(text)"
        }
        return "{" + entries.joined(separator: "; ") + "}"
    }
}
