import ListSync

/// A batch a table view would reject, or one that does not reproduce the replica's rows.
public struct BatchError: Error, CustomStringConvertible {
    /// What was wrong.
    public let description: String
}

/// Throws a ``BatchError`` saying `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(BatchError) {
    if !condition { throw BatchError(description: message()) }
}

/// A plain array of rows kept in step with a replica by applying its change batches exactly as
/// `UITableView.performBatchUpdates` does, so a test can check that every batch is exact.
public struct BatchMirror<Element: Equatable> {
    /// The mirrored rows.
    public private(set) var rows: [Row<Element>]

    /// A mirror of `rows`.
    public init(_ rows: [Row<Element>] = []) { self.rows = rows }

    /// Applies `change`, taking inserted rows and updated values from `source` (the new rows), the way a
    /// table view's data source answers for them. Throws on a batch UIKit would reject
    /// or that leaves the mirror different from `source`.
    public mutating func apply(
        _ change: ListChange, from source: some RandomAccessCollection<Row<Element>>
    ) throws(BatchError) {
        let newRows = Array(source)
        rows = try Self.applying(change, to: rows) { newRows[$0] }
        for index in change.updated {
            try require(index >= 0 && index < rows.count, "updated index \(index) out of range")
            try require(rows[index].id == newRows[index].id, "updated index \(index) holds another row")
            rows[index] = newRows[index]
        }
        try require(rows.map(\.id) == newRows.map(\.id), "batch \(change) does not reproduce the row order")
        try require(rows == newRows, "batch \(change) misses a value update")
    }

    /// The rows after `change`, with inserted rows from `inserted` (by new index).
    public static func applying<T>(
        _ change: ListChange, to old: [T], inserted: (Int) -> T
    ) throws(BatchError) -> [T] {
        let movedFrom = Set(change.moved.map(\.from))
        let removed = Set(change.removed)
        try require(removed.count == change.removed.count, "duplicate removed index")
        try require(movedFrom.count == change.moved.count, "duplicate move source")
        try require(removed.isDisjoint(with: movedFrom), "row both removed and moved")
        try require((removed.union(movedFrom)).allSatisfy { $0 >= 0 && $0 < old.count }, "old index out of range")
        let newCount = old.count - change.removed.count + change.inserted.count
        var placed = [T?](repeating: nil, count: newCount)
        for index in change.inserted {
            try require(index >= 0 && index < newCount && placed[index] == nil, "bad inserted index \(index)")
            placed[index] = inserted(index)
        }
        for move in change.moved {
            try require(move.to >= 0 && move.to < newCount && placed[move.to] == nil, "bad move destination \(move.to)")
            placed[move.to] = old[move.from]
        }
        var remaining = old.indices.lazy.filter { !removed.contains($0) && !movedFrom.contains($0) }.makeIterator()
        for index in 0..<newCount where placed[index] == nil {
            guard let next = remaining.next() else { throw BatchError(description: "batch leaves a hole at \(index)") }
            placed[index] = old[next]
        }
        try require(remaining.next() == nil, "batch leaves rows over")
        return placed.map { $0! }
    }
}
