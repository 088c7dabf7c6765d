import Foundation

/// Local mutations. Each is one atomic change that returns the batch to apply to a table view.
extension ReplicatedList {
    /// Inserts `value` as a new row at `index`.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public func insert(_ value: Element, at index: Int) -> ListChange {
        let change = store(core.insertRows(count: 1, at: index)) { _ in value }
        if recordsUndo { noteUndoStep(undoStep(inserted: index..<(index + 1)), after: change) }
        return change
    }

    /// Inserts `newValues` as a block of new rows starting at `index`, in order.
    /// - Complexity: O(k log n) for k values.
    @inlinable @discardableResult
    public func insert<C: Collection>(contentsOf newValues: C, at index: Int) -> ListChange where C.Element == Element {
        let elements = Array(newValues)
        let change = store(core.insertRows(count: elements.count, at: index)) { elements[$0] }
        if recordsUndo { noteUndoStep(undoStep(inserted: index..<(index + elements.count)), after: change) }
        return change
    }

    /// Appends `value` as a new row at the end.
    @inlinable @discardableResult
    public func append(_ value: Element) -> ListChange { insert(value, at: count) }

    /// Appends `newValues` as a block of new rows at the end.
    @inlinable @discardableResult
    public func append<C: Collection>(contentsOf newValues: C) -> ListChange where C.Element == Element {
        insert(contentsOf: newValues, at: count)
    }

    /// Moves the rows at `source` as one block, in their current order, to just before the row that is at
    /// `destination` now (`count` for the end), as SwiftUI's `move(fromOffsets:toOffset:)` does.
    /// - Complexity: O(k log n) for k rows.
    @inlinable @discardableResult
    public func move(fromOffsets source: IndexSet, toOffset destination: Int) -> ListChange {
        let offsets = Self.offsets(source)
        return recordingUndo(undoStep(moving: offsets)) { recorded(core.moveRows(at: offsets, to: destination)) }
    }

    /// Moves the row at `source` so that it ends up at `destination` in the new rows, as a table view
    /// reports a reorder (`tableView(_:moveRowAt:to:)`): the same as inserting `remove(at: source)` at
    /// `destination`.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public func move(from source: Int, to destination: Int) -> ListChange {
        recordingUndo(undoStep(moving: CompactArray(single: source))) {
            recorded(core.moveRow(from: source, to: destination))
        }
    }

    /// Deletes the row at `index`.
    @inlinable @discardableResult
    public func remove(at index: Int) -> ListChange {
        remove(offsets: CompactArray(single: index))
    }

    /// Deletes the rows at `offsets`.
    /// - Complexity: O(k log n) for k rows.
    @inlinable @discardableResult
    public func remove(atOffsets offsets: IndexSet) -> ListChange {
        remove(offsets: Self.offsets(offsets))
    }

    /// Deletes the rows at `offsets` (ascending, unique).
    @inlinable
    func remove(offsets: CompactArray<Int>) -> ListChange {
        recordingUndo(undoStep(removing: offsets)) { store(core.removeRows(at: offsets)) { _ in nil } }
    }

    /// Replaces the value of the row at `index`.
    ///
    /// When the element is a `Codable` struct (a JSON object) and so is the row's value, the edit records
    /// only the top-level fields that `value` changes, in one operation, so a concurrent edit of other
    /// fields elsewhere survives, and fields this version of the element type does not know are kept; an
    /// edit that changes no field changes nothing and returns an empty batch. Other values are replaced
    /// whole. See docs/field-registers.md.
    /// - Complexity: O(log n), plus O(b) for a struct's b bytes
    @inlinable @discardableResult
    public func updateValue(_ value: Element, at index: Int) -> ListChange {
        recordingUndo(undoStep(editing: index)) {
            if Self.hasFields, let fields = updateFields(value, at: index) { return fields }
            return store(core.updateRow(at: index)) { _ in value }
        }
    }

    /// Edits the value of the row at `index` in place, as in `list.modifyValue(at: 2) { $0.done = true }`.
    ///
    /// The same as ``updateValue(_:at:)`` with the value `body` leaves, so a struct row records only the
    /// fields `body` changed. When `body` throws, nothing changes.
    /// - Complexity: O(log n) plus `body`'s, and O(b) for a struct's b bytes
    @inlinable @discardableResult
    public func modifyValue<Failure: Error>(
        at index: Int, _ body: (inout Element) throws(Failure) -> Void
    ) throws(Failure) -> ListChange {
        var value = self[index].value
        try body(&value)
        return updateValue(value, at: index)
    }

    /// Replaces the value of the visible row `id`; returns nil (and changes nothing) when it is not visible.
    /// - Complexity: O(log n)
    @inlinable @discardableResult
    public func updateValue(_ value: Element, forRow id: RowID) -> ListChange? {
        index(forRow: id).map { updateValue(value, at: $0) }
    }

    /// The offsets in `indexes`, ascending, read range by range (reading a Foundation `IndexSet` index by
    /// index is several times slower).
    @usableFromInline
    static func offsets(_ indexes: IndexSet) -> CompactArray<Int> {
        var offsets = CompactArray<Int>()
        for range in indexes.rangeView { offsets.append(contentsOf: range) }
        return offsets
    }
}
