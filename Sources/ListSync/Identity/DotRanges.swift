/// The exact set of operation counters seen from one replica, as sorted, disjoint, non-adjacent ranges.
///
/// Usually a single range `1...n`; more only while change sets arrive out of order.
struct CounterRanges: Hashable, Sendable {
    /// Sorted, disjoint, non-adjacent ranges.
    private(set) var ranges: [ClosedRange<UInt64>] = []

    /// The highest `n` such that `1...n` is covered (0 when 1 is missing).
    var prefix: UInt64 {
        guard let first = ranges.first, first.lowerBound == 1 else { return 0 }
        return first.upperBound
    }

    /// The highest counter covered (0 when none).
    var upperBound: UInt64 { ranges.last?.upperBound ?? 0 }

    /// Whether `counter` is covered.
    func contains(_ counter: UInt64) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < counter { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].contains(counter)
    }

    /// Adds `range`, merging with overlapping or adjacent ranges.
    mutating func insert(_ range: ClosedRange<UInt64>) {
        // Fast path: extends the last range, the common case for a replica's own operations.
        if let last = ranges.last, range.lowerBound >= last.lowerBound {
            if range.lowerBound <= last.upperBound &+ 1 {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
            return
        }
        var merged = range
        var result: [ClosedRange<UInt64>] = []
        result.reserveCapacity(ranges.count + 1)
        var placed = false
        for existing in ranges {
            if existing.upperBound &+ 1 < merged.lowerBound {
                result.append(existing)
            } else if merged.upperBound &+ 1 < existing.lowerBound {
                if !placed {
                    result.append(merged)
                    placed = true
                }
                result.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)...max(existing.upperBound, merged.upperBound)
            }
        }
        if !placed { result.append(merged) }
        ranges = result
    }

    /// The number of counters covered.
    var count: UInt64 { ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound + 1) } }

    /// Whether every counter of `range` is covered.
    func contains(_ range: ClosedRange<UInt64>) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].lowerBound <= range.lowerBound
            && range.upperBound <= ranges[low].upperBound
    }

    /// The counters covered here and not in `other`, as ranges in increasing order.
    /// - Complexity: O(r + s) for r and s ranges.
    func ranges(notIn other: CounterRanges?) -> [ClosedRange<UInt64>] {
        guard let other, !other.ranges.isEmpty else { return ranges }
        var result: [ClosedRange<UInt64>] = []
        var next = other.ranges.startIndex
        for range in ranges {
            var lower = range.lowerBound
            while next < other.ranges.endIndex && other.ranges[next].upperBound < lower { next += 1 }
            var cursor = next
            while lower <= range.upperBound {
                guard cursor < other.ranges.endIndex, other.ranges[cursor].lowerBound <= range.upperBound else {
                    result.append(lower...range.upperBound)
                    break
                }
                let hole = other.ranges[cursor]
                if hole.lowerBound > lower { result.append(lower...(hole.lowerBound - 1)) }
                guard hole.upperBound < range.upperBound else { break }
                lower = max(lower, hole.upperBound + 1)
                cursor += 1
            }
        }
        return result
    }

    /// Covers `1...counter`, keeping what is covered above it.
    mutating func setPrefix(_ counter: UInt64) {
        ranges.removeAll { $0.upperBound <= counter }
        if counter > 0 { insert(1...counter) }
    }
}

/// The exact set of operations a replica has seen: counter ranges for every replica.
struct DotRanges: Hashable, Sendable {
    /// Ranges by replica.
    private(set) var byReplica: [ReplicaID: CounterRanges] = [:]

    /// Whether `dot` has been seen.
    func contains(_ dot: Dot) -> Bool { byReplica[dot.replica]?.contains(dot.counter) ?? false }

    /// Records `counters` of `replica` as seen.
    mutating func insert(_ counters: ClosedRange<UInt64>, of replica: ReplicaID) {
        byReplica[replica, default: CounterRanges()].insert(counters)
    }

    /// Records every range of `other` as seen.
    mutating func formUnion(_ other: DotRanges) {
        for (replica, counters) in other.byReplica {
            for range in counters.ranges { insert(range, of: replica) }
        }
    }

    /// The highest counter of `replica` seen (0 when none).
    func upperBound(of replica: ReplicaID) -> UInt64 { byReplica[replica]?.upperBound ?? 0 }

    /// Exactly these operations, as a version vector.
    var versionVector: VersionVector { VersionVector(exactly: self) }

    /// What is covered here and not in `vector`.
    func subtracting(_ vector: VersionVector) -> DotRanges {
        var result = DotRanges()
        for (replica, counters) in byReplica {
            for range in counters.ranges(notIn: vector.ranges.byReplica[replica]) { result.insert(range, of: replica) }
        }
        return result
    }

    /// Whether every operation of `other` is covered.
    func contains(_ other: DotRanges) -> Bool {
        other.byReplica.allSatisfy { replica, counters in
            guard let covered = byReplica[replica] else { return counters.ranges.isEmpty }
            return counters.ranges.allSatisfy { covered.contains($0) }
        }
    }

    /// Covers counters `1...counter` of `replica`, keeping what is covered above.
    mutating func setPrefix(_ counter: UInt64, of replica: ReplicaID) {
        byReplica[replica, default: CounterRanges()].setPrefix(counter)
        if byReplica[replica]?.ranges.isEmpty == true { byReplica.removeValue(forKey: replica) }
    }

    /// The number of operations covered.
    var count: UInt64 { byReplica.values.reduce(0) { $0 + $1.count } }

    /// Whether nothing is covered.
    var isEmpty: Bool { byReplica.isEmpty }
}
