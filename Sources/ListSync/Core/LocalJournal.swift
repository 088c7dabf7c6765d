/// The rows touched by this replica's latest local changes, by operation counter.
///
/// When a peer lacks only recent local operations (the common case in live sync and for a durable
/// store logging each change), ``ListCore/updates(since:)`` visits just these rows instead of every row.
/// Changes are kept in two generations of flat arrays: when the current one holds more than
/// ``capacity`` rows it becomes the previous one, whose arrays are emptied and reused. So recording a
/// change allocates nothing once warm and never moves what is kept.
struct LocalJournal {
    /// How many row touches it remembers at least (up to twice as many).
    static let capacity = 4096

    /// Changes in recording order and the rows they touched.
    private struct Generation {
        /// Each recorded change: its counters and the end of its rows in `rows`.
        var entries: [(counters: ClosedRange<UInt64>, end: Int)] = []
        /// The rows of every recorded change, then those of the change being made.
        var rows: [RowID] = []

        /// Where the rows of entry `index` start in `rows`.
        func start(of index: Int) -> Int { index == 0 ? 0 : entries[index - 1].end }
    }

    /// The changes recorded before ``current`` (empty until the first turnover).
    private var previous = Generation()
    /// The latest changes, and the rows of the change being made.
    private var current = Generation()

    /// Notes that the change being made touches `row`.
    mutating func touch(_ row: RowID) {
        current.rows.append(row)
    }

    /// Records the change being made: its counters and the rows touched since the last record.
    mutating func record(_ counters: ClosedRange<UInt64>) {
        current.entries.append((counters, current.rows.count))
        guard current.rows.count > Self.capacity else { return }
        swap(&previous, &current)
        current.entries.removeAll(keepingCapacity: true)
        current.rows.removeAll(keepingCapacity: true)
    }

    /// The rows touched by the operations `counters` (and possibly by later ones), if the journal still
    /// holds every one of them.
    func rows(touchedBy counters: ClosedRange<UInt64>) -> [RowID]? {
        guard let last = current.entries.last ?? previous.entries.last, last.counters.upperBound >= counters.upperBound
        else { return nil }
        var next = last.counters.upperBound + 1
        var rows: [RowID] = []
        // The latest changes first: the current generation, then the previous one.
        for generation in [current, previous] {
            for (index, entry) in generation.entries.enumerated().reversed() {
                guard entry.counters.upperBound + 1 == next else { return nil }
                if entry.counters.lowerBound <= counters.lowerBound {
                    let recorded = generation.entries.last!.end
                    return Array(generation.rows[generation.start(of: index)..<recorded]) + rows
                }
                next = entry.counters.lowerBound
            }
            rows = Array(generation.rows[..<(generation.entries.last?.end ?? 0)]) + rows
        }
        return nil
    }
}
