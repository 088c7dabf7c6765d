/// Telling duplicate change sets apart, for relays that forward only what is new to them.
extension ReplicatedList {
    /// Whether every operation `changes` accounts for has been seen here, so merging it would change nothing.
    ///
    /// A relay forwards a change set only when this is false, so each change travels each link once.
    /// - Complexity: O(r log m) for r ranges in `changes` and m ranges seen per replica.
    public func hasSeen(_ changes: ChangeSet) -> Bool {
        changes.coverage.byReplica.allSatisfy { replica, counters in
            guard let seen = core.seen.byReplica[replica] else { return counters.ranges.isEmpty }
            return counters.ranges.allSatisfy { seen.contains($0) }
        }
    }
}

extension CounterRanges {
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
}
