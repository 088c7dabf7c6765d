/// The rows touched by this replica's latest local changes, by operation counter.
///
/// When a peer lacks only recent local operations (the common case in live sync and for a durable
/// store logging each change), ``ListCore/updates(since:)`` visits just these rows instead of every row.
/// Rows are kept in one flat array, so recording a change allocates nothing.
struct LocalJournal {
    /// How many row touches it remembers at least (up to twice as many between trims).
    static let capacity = 4096

    /// Each recorded change: its counters and the end of its rows in `rows`.
    private var entries: [(counters: ClosedRange<UInt64>, end: Int)] = []
    /// The rows of every recorded change, then those of the change being made.
    private var rows: [RowID] = []

    /// Notes that the change being made touches `row`.
    mutating func touch(_ row: RowID) {
        rows.append(row)
    }

    /// Records the change being made: its counters and the rows touched since the last record.
    mutating func record(_ counters: ClosedRange<UInt64>) {
        entries.append((counters, rows.count))
        // Trim in bulk once twice over capacity, so recording stays O(1) amortized.
        guard rows.count > 2 * Self.capacity else { return }
        var dropped = 0
        while dropped < entries.count - 1 && rows.count - start(of: dropped) > Self.capacity { dropped += 1 }
        let droppedRows = start(of: dropped)
        entries.removeFirst(dropped)
        rows.removeFirst(droppedRows)
        for index in entries.indices { entries[index].end -= droppedRows }
    }

    /// Where the rows of entry `index` start in `rows`.
    private func start(of index: Int) -> Int { index == 0 ? 0 : entries[index - 1].end }

    /// The rows touched by the operations `counters` (and possibly by later ones), if the journal still
    /// holds every one of them.
    func rows(touchedBy counters: ClosedRange<UInt64>) -> [RowID]? {
        guard let last = entries.last, last.counters.upperBound >= counters.upperBound else { return nil }
        var next = last.counters.upperBound + 1
        for (index, entry) in entries.enumerated().reversed() {
            guard entry.counters.upperBound + 1 == next else { return nil }
            if entry.counters.lowerBound <= counters.lowerBound {
                return Array(rows[start(of: index)..<last.end])
            }
            next = entry.counters.lowerBound
        }
        return nil
    }
}
