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
    func contains(_ counter: UInt64) -> Bool { contains(counter...counter) }

    /// Adds `range`, merging with overlapping or adjacent ranges.
    mutating func insert(_ range: ClosedRange<UInt64>) {
        // Fast path: extends the last range, the common case for a replica's own operations.
        if let last = ranges.last, range.lowerBound >= last.lowerBound {
            if range.lowerBound <= last.upperBound &+ 1 {
                ranges[ranges.count - 1] = ClosedRange(
                    uncheckedBounds: (last.lowerBound, max(last.upperBound, range.upperBound)))
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

    /// The number of counters covered, at most `UInt64.max`.
    var count: UInt64 { ranges.reduce(0) { $0.addingSaturated($1.upperBound - $1.lowerBound + 1) } }

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

    /// The counters of `range` not covered here, as ranges in increasing order.
    /// - Complexity: O(log r + k) for r ranges, k of them overlapping `range`.
    func gaps(in range: ClosedRange<UInt64>) -> [ClosedRange<UInt64>] {
        // The first range that ends at or after `range` starts.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        var gaps: [ClosedRange<UInt64>] = []
        var lower = range.lowerBound
        for covered in ranges[low...] {
            guard covered.lowerBound <= range.upperBound else { break }
            if covered.lowerBound > lower { gaps.append(lower...(covered.lowerBound - 1)) }
            guard covered.upperBound < range.upperBound else { return gaps }
            lower = max(lower, covered.upperBound + 1)
        }
        gaps.append(lower...range.upperBound)
        return gaps
    }

    /// Covers `1...counter`, keeping what is covered above it.
    mutating func setPrefix(_ counter: UInt64) {
        ranges.removeAll { $0.upperBound <= counter }
        if counter > 0 { insert(1...counter) }
    }
}

/// The exact set of operations a replica has seen: counter ranges for every replica.
///
/// Replicas are few and looked up on every operation, so they are kept sorted in an array and found
/// by binary search, without hashing.
struct DotRanges: Hashable, Sendable {
    /// One replica's covered counters (never empty).
    struct Entry: Hashable, Sendable {
        var replica: ReplicaID
        var counters: CounterRanges
    }

    /// The replicas with some counter covered, in increasing order.
    private(set) var entries: [Entry] = []

    /// The position of `replica` in `entries`, or where it would be inserted.
    @inline(__always)
    private func search(_ replica: ReplicaID) -> (index: Int, found: Bool) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].replica < replica { low = middle + 1 } else { high = middle }
        }
        return (low, low < entries.count && entries[low].replica == replica)
    }

    /// The counters of `replica` covered, if any.
    subscript(replica: ReplicaID) -> CounterRanges? {
        let (index, found) = search(replica)
        return found ? entries[index].counters : nil
    }

    /// Whether `dot` has been seen.
    func contains(_ dot: Dot) -> Bool { self[dot.replica]?.contains(dot.counter) ?? false }

    /// Records `counters` of `replica` as seen.
    mutating func insert(_ counters: ClosedRange<UInt64>, of replica: ReplicaID) {
        let (index, found) = search(replica)
        if found {
            entries[index].counters.insert(counters)
        } else {
            var ranges = CounterRanges()
            ranges.insert(counters)
            entries.insert(Entry(replica: replica, counters: ranges), at: index)
        }
    }

    /// Records every range of `other` as seen.
    mutating func formUnion(_ other: DotRanges) {
        for entry in other.entries {
            for range in entry.counters.ranges { insert(range, of: entry.replica) }
        }
    }

    /// The highest counter of `replica` seen (0 when none).
    func upperBound(of replica: ReplicaID) -> UInt64 { self[replica]?.upperBound ?? 0 }

    /// Exactly these operations, as a version vector.
    var versionVector: VersionVector { VersionVector(exactly: self) }

    /// What is covered here and not in `vector`.
    func subtracting(_ vector: VersionVector) -> DotRanges {
        var result = DotRanges()
        for entry in entries {
            for range in entry.counters.ranges(notIn: vector.ranges[entry.replica]) {
                result.insert(range, of: entry.replica)
            }
        }
        return result
    }

    /// Whether every operation of `other` is covered.
    func contains(_ other: DotRanges) -> Bool {
        other.entries.allSatisfy { entry in
            guard let covered = self[entry.replica] else { return entry.counters.ranges.isEmpty }
            return entry.counters.ranges.allSatisfy { covered.contains($0) }
        }
    }

    /// Covers counters `1...counter` of `replica`, keeping what is covered above.
    mutating func setPrefix(_ counter: UInt64, of replica: ReplicaID) {
        let (index, found) = search(replica)
        if !found {
            guard counter > 0 else { return }
            entries.insert(Entry(replica: replica, counters: CounterRanges()), at: index)
        }
        entries[index].counters.setPrefix(counter)
        if entries[index].counters.ranges.isEmpty { entries.remove(at: index) }
    }

    /// The number of operations covered.
    var count: UInt64 { entries.reduce(0) { $0.addingSaturated($1.counters.count) } }

    /// Whether nothing is covered.
    var isEmpty: Bool { entries.isEmpty }
}

extension UInt64 {
    /// `self + other`, or `UInt64.max` where the sum would overflow.
    func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
