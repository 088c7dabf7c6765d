/// One batch of changes to the visible rows, in the form `UITableView.performBatchUpdates` expects.
///
/// Apply it to the old rows as UIKit does: remove the rows at `removed` and the sources of `moved`
/// (old indexes), then place the rows at `inserted` and the destinations of `moved` (new indexes);
/// every other row keeps its relative order and fills the remaining places. Rows whose value changed
/// are listed in `updated` by their new index (reconfigure them after the batch); a row can be both
/// moved and updated.
public struct ListChange: Hashable, Sendable, CustomStringConvertible {
    /// A row that stays visible but changes place.
    public struct Move: Hashable, Sendable {
        /// Index in the old rows.
        public var from: Int
        /// Index in the new rows.
        public var to: Int

        /// Creates a move.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Indexes in the old rows of rows that disappeared, ascending.
    public var removed: CompactArray<Int>
    /// Indexes in the new rows of rows that appeared, ascending.
    public var inserted: CompactArray<Int>
    /// Rows that changed place, by ascending old index.
    public var moved: CompactArray<Move>
    /// Indexes in the new rows of rows whose value changed, ascending.
    public var updated: CompactArray<Int>

    /// Creates a batch.
    @inlinable
    public init(
        removed: CompactArray<Int> = [], inserted: CompactArray<Int> = [], moved: CompactArray<Move> = [],
        updated: CompactArray<Int> = []
    ) {
        self.removed = removed
        self.inserted = inserted
        self.moved = moved
        self.updated = updated
    }

    /// Whether nothing visible changed.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

    /// `-[...] +[...] ~[from>to ...] *[...]`.
    public var description: String {
        "-\(removed) +\(inserted) ~[\(moved.map { "\($0.from)>\($0.to)" }.joined(separator: ", "))] *\(updated)"
    }
}
