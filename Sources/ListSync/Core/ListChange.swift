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

    /// A change of one row, kept inline: a batch of one change holds no reference, so making and
    /// dropping it costs no reference counting.
    @usableFromInline
    enum Single: Sendable {
        case removed(Int)
        case inserted(Int)
        case moved(Move)
        case updated(Int)
    }

    /// The four lists of a batch that is not one ``Single`` change, shared by copies of the batch
    /// until one of them is edited.
    @usableFromInline
    final class Lists: @unchecked Sendable {
        // Sendable because a `Lists` is written only through `ListChange`'s `_modify` accessors, after
        // `isKnownUniquelyReferenced` found the batch being edited its only holder (otherwise the batch
        // gets a copy first): lists that another batch, and so another thread, can reach are never written.
        @usableFromInline var removed: CompactArray<Int>
        @usableFromInline var inserted: CompactArray<Int>
        @usableFromInline var moved: CompactArray<Move>
        @usableFromInline var updated: CompactArray<Int>

        /// The four lists.
        @inlinable
        init(
            removed: CompactArray<Int>, inserted: CompactArray<Int>, moved: CompactArray<Move>,
            updated: CompactArray<Int>
        ) {
            self.removed = removed
            self.inserted = inserted
            self.moved = moved
            self.updated = updated
        }

        /// The lists of `single`, or empty lists.
        @inlinable
        convenience init(_ single: Single?) {
            self.init(removed: [], inserted: [], moved: [], updated: [])
            switch single {
            case .removed(let index): removed = CompactArray(single: index)
            case .inserted(let index): inserted = CompactArray(single: index)
            case .moved(let move): moved = CompactArray(single: move)
            case .updated(let index): updated = CompactArray(single: index)
            case nil: break
            }
        }
    }

    /// The batch when it is one change; nil when `lists` holds it or it is empty.
    @usableFromInline var single: Single?
    /// The batch when it is neither empty nor one change (or a list of it was edited).
    @usableFromInline var lists: Lists?

    /// Creates a batch.
    @inlinable
    public init(
        removed: CompactArray<Int> = [], inserted: CompactArray<Int> = [], moved: CompactArray<Move> = [],
        updated: CompactArray<Int> = []
    ) {
        single = nil
        lists = nil
        switch (removed.count, inserted.count, moved.count, updated.count) {
        case (0, 0, 0, 0): break
        case (1, 0, 0, 0): single = .removed(removed[0])
        case (0, 1, 0, 0): single = .inserted(inserted[0])
        case (0, 0, 1, 0): single = .moved(moved[0])
        case (0, 0, 0, 1): single = .updated(updated[0])
        default: lists = Lists(removed: removed, inserted: inserted, moved: moved, updated: updated)
        }
    }

    /// A batch of one change.
    @inlinable
    init(_ single: Single) {
        self.single = single
        lists = nil
    }

    /// A batch that inserts the rows at `indexes` (cheaper than the general initializer for one row).
    init(inserting indexes: Range<Int>) {
        self =
            indexes.count == 1 ? ListChange(.inserted(indexes.lowerBound)) : ListChange(inserted: CompactArray(indexes))
    }

    /// A batch that removes the rows at `offsets` (cheaper than the general initializer for one row).
    init(removing offsets: CompactArray<Int>) {
        self = offsets.count == 1 ? ListChange(.removed(offsets[0])) : ListChange(removed: offsets)
    }

    /// A batch that moves rows (cheaper than the general initializer for one row).
    init(moving moves: CompactArray<Move>) {
        self = moves.count == 1 ? ListChange(.moved(moves[0])) : ListChange(moved: moves)
    }

    /// Makes `lists` hold the batch and be this batch's alone, so that a list can be edited in place.
    @inlinable
    mutating func makeUniqueLists() {
        guard lists != nil else {
            lists = Lists(single)
            single = nil
            return
        }
        // Checked before binding the box to a name, which would hold a second reference.
        guard !isKnownUniquelyReferenced(&lists) else { return }
        let shared = lists!
        lists = Lists(removed: shared.removed, inserted: shared.inserted, moved: shared.moved, updated: shared.updated)
    }

    /// Indexes in the old rows of rows that disappeared, ascending.
    public var removed: CompactArray<Int> {
        get {
            if let lists { return lists.removed }
            guard case .removed(let index)? = single else { return [] }
            return CompactArray(single: index)
        }
        _modify {
            makeUniqueLists()
            yield &lists!.removed
        }
    }

    /// Indexes in the new rows of rows that appeared, ascending.
    public var inserted: CompactArray<Int> {
        get {
            if let lists { return lists.inserted }
            guard case .inserted(let index)? = single else { return [] }
            return CompactArray(single: index)
        }
        _modify {
            makeUniqueLists()
            yield &lists!.inserted
        }
    }

    /// Rows that changed place, by ascending old index.
    public var moved: CompactArray<Move> {
        get {
            if let lists { return lists.moved }
            guard case .moved(let move)? = single else { return [] }
            return CompactArray(single: move)
        }
        _modify {
            makeUniqueLists()
            yield &lists!.moved
        }
    }

    /// Indexes in the new rows of rows whose value changed, ascending.
    public var updated: CompactArray<Int> {
        get {
            if let lists { return lists.updated }
            guard case .updated(let index)? = single else { return [] }
            return CompactArray(single: index)
        }
        _modify {
            makeUniqueLists()
            yield &lists!.updated
        }
    }

    /// Whether nothing visible changed.
    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

    /// Whether both batches hold the same lists, however each is stored.
    public static func == (lhs: ListChange, rhs: ListChange) -> Bool {
        lhs.removed == rhs.removed && lhs.inserted == rhs.inserted && lhs.moved == rhs.moved
            && lhs.updated == rhs.updated
    }

    /// Hashes the four lists.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(removed)
        hasher.combine(inserted)
        hasher.combine(moved)
        hasher.combine(updated)
    }

    /// `-[...] +[...] ~[from>to ...] *[...]`.
    public var description: String {
        "-\(removed) +\(inserted) ~[\(moved.map { "\($0.from)>\($0.to)" }.joined(separator: ", "))] *\(updated)"
    }
}
