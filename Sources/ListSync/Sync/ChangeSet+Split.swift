/// Cutting a change set into parts that each fit a byte budget, for transports with a message size limit.
extension ChangeSet {
    /// The change set cut into parts whose encodings (``encoded()``) each take at most `byteBudget` bytes,
    /// except a part of a single row update that is larger on its own.
    ///
    /// Every part can be merged on its own, in any order and any number of times: each accounts for the
    /// operations its updates and deletions carry, and the last part also for the rest of the coverage (operations
    /// whose effect was overwritten, carried by no update), so a receiver that got every part but the
    /// last has claimed nothing it lacks. Merging all the parts gives the state that merging `self` gives.
    /// Send them in order: over an ordered link, the coverage of overwritten operations arrives last.
    /// - Parameter byteBudget: the largest encoding of a part, in bytes.
    /// - Returns: `[self]` when it fits (and its keys and values alone take at most twice the budget, so
    ///   that a change set far too big is not encoded whole first); otherwise the parts, none empty, their
    ///   updates in canonical order.
    /// - Complexity: O(n) for an encoding of n bytes in the usual case, O(n log p) at worst for p parts.
    public func split(byteBudget: Int) -> [ChangeSet] { parts(byteBudget: byteBudget).map(\.changes) }

    /// The encodings of the parts of ``split(byteBudget:)``, each encoded once (for a sender).
    /// - Complexity: O(n) for an encoding of n bytes in the usual case, O(n log p) at worst for p parts.
    public func encodedSplit(byteBudget: Int) -> [[UInt8]] { parts(byteBudget: byteBudget).map(\.bytes) }

    /// A part and its encoding.
    private typealias Part = (changes: ChangeSet, bytes: [UInt8])

    /// The parts of ``split(byteBudget:)`` with their encodings. The items cut are the updates, then the
    /// deletion runs: item `i` is update `i` below `updates.count`, else run `i - updates.count`.
    private func parts(byteBudget: Int) -> [Part] {
        let items = 0..<(updates.count + deletions.count)
        let weights = items.map(weight(of:))
        // Encoded whole only when it may fit: keys and values alone do not take twice the budget.
        if weights.reduce(0, +) <= 2 * byteBudget {
            let bytes = encoded()
            if bytes.count <= byteBudget { return [(self, bytes)] }
        }
        var parts: [Part] = []
        // Runs of updates whose keys and values alone fit the budget, then each cut until it fits.
        var start = 0
        var weight = 0
        for offset in items {
            if offset > start && weight + weights[offset] > byteBudget {
                appendParts(of: start..<offset, byteBudget: byteBudget, to: &parts)
                (start, weight) = (offset, 0)
            }
            weight += weights[offset]
        }
        appendParts(of: start..<items.upperBound, byteBudget: byteBudget, to: &parts)
        let rest = coverage.ranges(notIn: coverage(carriedBy: items))
        guard !rest.isEmpty else { return parts }
        if let last = parts.last?.changes {
            let lastRanges = last.coverage.entries.flatMap { entry in entry.counters.ranges.map { (entry.replica, $0) }
            }
            let widened = ChangeSet(
                coverage: DotRanges(sorting: lastRanges + rest), updates: last.updates, payloads: last.payloads,
                fields: last.fields, deletions: last.deletions)
            let bytes = widened.encoded()
            if bytes.count <= byteBudget {
                parts[parts.count - 1] = (widened, bytes)
                return parts
            }
        }
        appendCoverageParts(rest[...], byteBudget: byteBudget, to: &parts)
        return parts
    }

    /// Appends the parts of the items in `range`: one part when it fits, else the parts of its two
    /// halves (cut where the bytes of keys and values are halved).
    private func appendParts(of range: Range<Int>, byteBudget: Int, to parts: inout [Part]) {
        guard !range.isEmpty else { return }
        let updated = range.clamped(to: updates.indices)
        let part = ChangeSet(
            coverage: coverage(carriedBy: range), updates: Array(updates[updated]), payloads: Array(payloads[updated]),
            fields: fields(of: updates[updated]), deletions: Array(deletions[deletionOffsets(in: range)]))
        let bytes = part.encoded()
        if range.count == 1 || bytes.count <= byteBudget { return parts.append((part, bytes)) }
        let weights = range.map(weight(of:))
        let half = weights.reduce(0, +) / 2
        var cut = range.lowerBound + 1
        var sum = weights[0]
        while cut < range.upperBound - 1 && sum + weights[cut - range.lowerBound] <= half {
            sum += weights[cut - range.lowerBound]
            cut += 1
        }
        appendParts(of: range.lowerBound..<cut, byteBudget: byteBudget, to: &parts)
        appendParts(of: cut..<range.upperBound, byteBudget: byteBudget, to: &parts)
    }

    /// The offsets in ``deletions`` of the items in `range`.
    private func deletionOffsets(in range: Range<Int>) -> Range<Int> {
        let items = range.clamped(to: updates.count..<(updates.count + deletions.count))
        return (items.lowerBound - updates.count)..<(items.upperBound - updates.count)
    }

    /// About the bytes item `offset` takes in an encoding: an update's key, value and some overhead, or a
    /// deletion run's fields.
    private func weight(of offset: Int) -> Int {
        guard offset < updates.count else { return 16 }
        let fieldBytes =
            fields.isEmpty
            ? 0 : fields[updates[offset].id]?.values.reduce(0) { $0 + 16 + ($1.fragment?.count ?? 0) } ?? 0
        return 16 + (updates[offset].position?.count ?? 0) + (payloads[offset]?.bytes.count ?? 0) + fieldBytes
    }

    /// The field registers of the rows of `updates`.
    private func fields(of updates: ArraySlice<RowUpdate>) -> [RowID: FieldRegisters] {
        guard !fields.isEmpty else { return [:] }
        var part: [RowID: FieldRegisters] = [:]
        for update in updates { part[update.id] = fields[update.id] }
        return part
    }

    /// Appends change sets of no updates covering `ranges`, halved until each fits.
    private func appendCoverageParts(
        _ ranges: ArraySlice<(ReplicaID, ClosedRange<UInt64>)>, byteBudget: Int, to parts: inout [Part]
    ) {
        let part = ChangeSet(coverage: DotRanges(sorting: Array(ranges)), updates: [], payloads: [])
        let bytes = part.encoded()
        if ranges.count == 1 || bytes.count <= byteBudget { return parts.append((part, bytes)) }
        let middle = ranges.startIndex + ranges.count / 2
        appendCoverageParts(ranges[..<middle], byteBudget: byteBudget, to: &parts)
        appendCoverageParts(ranges[middle...], byteBudget: byteBudget, to: &parts)
    }

    /// The operations whose stamps the items in `range` carry (position, value and field registers, and
    /// the deletes of the runs).
    /// - Complexity: O(k log k) for k items.
    private func coverage(carriedBy range: Range<Int>) -> DotRanges {
        var ranges: [(ReplicaID, ClosedRange<UInt64>)] = []
        ranges.reserveCapacity(range.count)
        for update in updates[range.clamped(to: updates.indices)] {
            _ = update.firstStamp { stamp in
                ranges.append((stamp.dot.replica, stamp.dot.counter...stamp.dot.counter))
                return false
            }
            if !fields.isEmpty, let registers = fields[update.id] {
                ranges += registers.values.map { ($0.stamp.dot.replica, $0.stamp.dot.counter...$0.stamp.dot.counter) }
            }
        }
        for run in deletions[deletionOffsets(in: range)] { ranges.append((run.stamp.dot.replica, run.dotCounters)) }
        return DotRanges(sorting: ranges)
    }
}

extension DotRanges {
    /// Exactly the operations of `ranges`, which may come in any order and overlap.
    /// - Complexity: O(r log r) for r ranges.
    fileprivate init(sorting ranges: [(ReplicaID, ClosedRange<UInt64>)]) {
        self.init()
        for (replica, counters) in ranges.sorted(by: { ($0.0, $0.1.lowerBound) < ($1.0, $1.1.lowerBound) }) {
            insert(counters, of: replica)
        }
    }

    /// The ranges covered here and not in `other`, by replica then counter.
    /// - Complexity: O(r + s) for r and s ranges.
    fileprivate func ranges(notIn other: DotRanges) -> [(ReplicaID, ClosedRange<UInt64>)] {
        entries.flatMap { entry in entry.counters.ranges(notIn: other[entry.replica]).map { (entry.replica, $0) } }
    }
}
