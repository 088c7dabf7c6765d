/// The rows touched by this replica's latest local changes, by operation counter.
///
/// When a peer lacks only recent local operations (the common case in live sync and for a durable
/// store logging each change), ``ListCore/updates(since:)`` visits just these rows instead of every row.
struct LocalJournal {
    /// How many row touches it remembers at least (up to twice as many between trims).
    static let capacity = 4096

    private var entries: [(counters: ClosedRange<UInt64>, rows: [RowID])] = []
    private var rowCount = 0

    /// Records a local change: its counters and the rows it touched.
    mutating func record(_ counters: ClosedRange<UInt64>, rows: [RowID]) {
        entries.append((counters, rows))
        rowCount += rows.count
        // Trim in bulk once twice over capacity, so recording stays O(1) amortized.
        guard rowCount > 2 * Self.capacity else { return }
        var dropped = 0
        while rowCount > Self.capacity && dropped < entries.count - 1 {
            rowCount -= entries[dropped].rows.count
            dropped += 1
        }
        entries.removeFirst(dropped)
    }

    /// The rows touched by the operations `counters` (and possibly by later ones), if the journal still
    /// holds every one of them.
    func rows(touchedBy counters: ClosedRange<UInt64>) -> [RowID]? {
        guard let last = entries.last, last.counters.upperBound >= counters.upperBound else { return nil }
        var result: [RowID] = []
        var next = last.counters.upperBound + 1
        for entry in entries.reversed() {
            guard entry.counters.upperBound + 1 == next else { return nil }
            result += entry.rows
            if entry.counters.lowerBound <= counters.lowerBound { return result }
            next = entry.counters.lowerBound
        }
        return nil
    }
}
