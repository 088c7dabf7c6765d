import ListSync
import Testing

/// Version vectors are exact: operations seen beyond a gap are covered, and nothing covered is sent again.
struct VersionVectorTests {
    /// A random set of counters of a few replicas, as a vector and as a plain set of dots.
    static func randomVector(_ rng: inout SplitMix64) -> (VersionVector, Set<Dot>) {
        var vector = VersionVector()
        var dots = Set<Dot>()
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            let replica = ReplicaID(UInt64.random(in: 1...3, using: &rng))
            let lower = UInt64.random(in: 1...40, using: &rng)
            let upper = lower + UInt64.random(in: 0...6, using: &rng)
            vector.insert(lower...upper, of: replica)
            for counter in lower...upper { dots.insert(Dot(replica: replica, counter: counter)) }
        }
        return (vector, dots)
    }

    /// Every dot a vector of replicas 1 to 3 and counters up to 50 might cover.
    static let universe = (1...3).flatMap { replica in
        (1...50).map { Dot(replica: ReplicaID(UInt64(replica)), counter: UInt64($0)) }
    }

    @Test func setOperationsMatchAPlainSetModel() {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<2_000 {
            let (a, aDots) = Self.randomVector(&rng)
            let (b, bDots) = Self.randomVector(&rng)
            for dot in Self.universe { #expect(a.contains(dot) == aDots.contains(dot)) }
            let union = a.union(b)
            for dot in Self.universe { #expect(union.contains(dot) == (aDots.contains(dot) || bDots.contains(dot))) }
            #expect(a.dominates(b) == bDots.isSubset(of: aDots))
            #expect(union.operationCount == UInt64(aDots.union(bDots).count))
            #expect((a == b) == (aDots == bDots))
            for replica in [1, 2, 3].map({ ReplicaID(UInt64($0)) }) {
                var prefix: UInt64 = 0
                while aDots.contains(Dot(replica: replica, counter: prefix + 1)) { prefix += 1 }
                #expect(a[replica] == prefix)
                let ranges = a.ranges(of: replica)
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
            }
        }
    }

    @Test func settingTheContiguousCounterKeepsWhatIsCoveredAbove() {
        var vector = VersionVector([ReplicaID(1): 3])
        vector.insert(10...12, of: ReplicaID(1))
        #expect(vector.hasGaps && vector[ReplicaID(1)] == 3)
        vector[ReplicaID(1)] = 6
        #expect(vector.ranges(of: ReplicaID(1)) == [1...6, 10...12])
        vector[ReplicaID(1)] = 9
        #expect(vector.ranges(of: ReplicaID(1)) == [1...12] && !vector.hasGaps)
        #expect(vector.counters == [ReplicaID(1): 12])
    }

    @Test func operationsSeenOutOfOrderAreNotSentAgain() throws {
        let source = ReplicatedList<String>(replicaID: ReplicaID(1))
        let relay = ReplicatedList<String>(replicaID: ReplicaID(2))
        source.append(contentsOf: ["a", "b"])
        let early = source.changes(since: VersionVector())
        let before = source.versionVector
        source.append(contentsOf: ["c", "d"])
        source.move(fromOffsets: [0], toOffset: 3)
        // The later change set arrives first: the relay has a gap.
        try relay.merge(source.changes(since: before))
        #expect(relay.versionVector.hasGaps)
        #expect(relay.changes(since: relay.versionVector).isEmpty)
        // Exactly the missing operations travel, and nothing more.
        let missing = source.changes(since: relay.versionVector)
        #expect(missing.operationCount == early.operationCount)
        try relay.merge(missing)
        #expect(!relay.versionVector.hasGaps)
        #expect(relay.map(\.value) == source.map(\.value))
        #expect(relay.versionVector == source.versionVector)
    }
}
