/// Tentative rows: placeholders shown while their content loads, like UIKit's drop placeholders.
///
/// A placeholder is an entry of this replica's rows (``Row/isPending`` is true) with a position key
/// allocated at once. It never reaches a peer: it is not in ``changes(since:)``, ``snapshot()`` or the
/// version vector, and it uses no operation counter or Lamport time. Merges and local edits around it
/// keep it at its key. ``commitPlaceholder(_:value:)`` turns it into a normal insert where it is now;
/// ``removePlaceholder(_:)`` withdraws it without a trace. Each of the three is reported as a batch.
///
/// ```swift
/// let (ids, change) = list.insertPlaceholders(showing: ["Loading..."], at: 2)  // change.inserted == [2]
/// // ... later, when the data has arrived:
/// let (row, commit) = try list.commitPlaceholder(ids[0], value: "Lisbon")
/// ```
extension ReplicatedList {
    /// Inserts one placeholder per provisional value as a block at `index`, showing those values.
    ///
    /// When rows with equal keys (a rare tie between replicas) surround `index`, the block lands just
    /// after them: a placeholder never displaces replicated rows. ``placeholderIndex(_:)`` says where.
    /// - Returns: the placeholders' IDs, in order, and the batch that shows them.
    /// - Complexity: O(k log n) for k placeholders.
    @inlinable
    public func insertPlaceholders(
        showing provisionalValues: [Element], at index: Int
    ) -> (ids: [PlaceholderID], change: ListChange) {
        let (ids, change) = core.insertPlaceholders(count: provisionalValues.count, at: index)
        let stored = store(change) { provisionalValues[$0] }
        if recordsUndo { noteUndoStep(.inserted(ids.map(ItemID.placeholder)), after: stored) }
        return (ids, stored)
    }

    /// The index of placeholder `id`, or nil when it is no longer pending.
    /// - Complexity: O(log n)
    @inlinable
    public func placeholderIndex(_ id: PlaceholderID) -> Int? { core.index(of: id) }

    /// Whether placeholder `id` is pending.
    public func isPending(_ id: PlaceholderID) -> Bool { core.rows.slot(of: id) != nil }

    /// The number of pending placeholders.
    public var pendingCount: Int { core.rows.placeholders.count }

    /// The confirmed row nearest before the visible row at `index` (placeholders are no neighbours), if any.
    func confirmedRow(before index: Int) -> RowID? {
        var offset = index - 1
        while offset >= 0 {
            if let row = self[offset].rowID { return row }
            offset -= 1
        }
        return nil
    }

    /// The confirmed row nearest after the visible row at `index` (placeholders are no neighbours), if any.
    func confirmedRow(after index: Int) -> RowID? {
        var offset = index + 1
        while offset < count {
            if let row = self[offset].rowID { return row }
            offset += 1
        }
        return nil
    }

    /// Commits placeholder `id` as a new row holding `value`, at the placeholder's current key (a fresh
    /// key between its current neighbours when that key now ties with one of them), so the row lands
    /// exactly where the placeholder is now. The insert gets its operation dot now.
    /// - Returns: the new row's ID and the batch (the placeholder's index removed, the row's inserted).
    /// - Throws: ``PlaceholderError/notPending(_:)`` when `id` was committed or removed already,
    ///   ``PlaceholderError/cannotEdit(_:)`` when the replica cannot edit.
    /// - Complexity: O(log n)
    @inlinable
    public func commitPlaceholder(
        _ id: PlaceholderID, value: Element
    ) throws(PlaceholderError) -> (row: RowID, change: ListChange) {
        guard canEdit else { throw .cannotEdit(id) }
        guard let (row, change) = core.commitPlaceholder(id) else { throw .notPending(id) }
        if recordsUndo { noteUndoCommit(id, as: row) }
        return (row, store(change) { _ in value })
    }

    /// Withdraws placeholder `id`, leaving no trace in the replicated state.
    /// - Returns: the batch that removes it.
    /// - Throws: ``PlaceholderError/notPending(_:)`` when `id` was committed or removed already.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public func removePlaceholder(_ id: PlaceholderID) throws(PlaceholderError) -> ListChange {
        guard let change = core.removePlaceholder(id) else { throw .notPending(id) }
        return store(change) { _ in nil }
    }
}

/// Why a placeholder operation could not be done. Nothing changed.
public enum PlaceholderError: Error, Hashable, Sendable {
    /// The placeholder was committed or removed already (or never existed in this replica).
    case notPending(PlaceholderID)
    /// The placeholder is still pending but the replica cannot make edits (``ReplicatedList/canEdit``).
    case cannotEdit(PlaceholderID)
}
