/// Tentative rows: placeholders that live only in this replica.
///
/// A placeholder has a position key allocated at once and sits in the order among the rows, but it has
/// no operation dot, no Lamport time and no row ID: nothing of it is in the version vector, a change
/// set or a snapshot. Merges and local edits never move it (its key stays; see ``OrderIndex/Bound`` for
/// equal keys). Committing it makes a normal insert at its current key; removing it leaves no trace.
extension ListCore {
    /// Inserts `count` placeholders as a block at `index` (or, when rows with equal keys surround
    /// `index`, just after them: a placeholder cannot displace replicated rows).
    /// - Returns: the placeholders' IDs and the change; `touched.valueSlots[i]` is the i-th one's slot.
    /// - Complexity: O(k log n)
    @usableFromInline
    mutating func insertPlaceholders(count: Int, at index: Int) -> (ids: [PlaceholderID], change: ListChange) {
        precondition(index >= 0 && index <= self.count, "insert index \(index) out of range 0...\(self.count)")
        touched.removeAll()
        guard count > 0 else { return ([], ListChange()) }
        var destination = index
        let lower = index > 0 ? record(at: index - 1).key : .empty
        while destination < self.count, record(at: destination).key == lower { destination += 1 }
        let upper = destination < self.count ? record(at: destination).key : .empty
        // A copy of the allocator: a placeholder that is withdrawn leaves no trace in the run state either.
        var scratch = allocator
        var keys: [PositionKey] = []
        scratch.allocate(count: count, after: lower, before: upper, into: &keys)
        var ids: [PlaceholderID] = []
        for (offset, key) in keys.enumerated() {
            let id = PlaceholderID(rawValue: nextPlaceholder)
            nextPlaceholder += 1
            let slot = rows.addPlaceholder(id, key: key)
            order.insert(slot, bound: rows.bound(of: slot), at: destination + offset, rows: rows)
            ids.append(id)
            touched.valueSlots.append(slot)
        }
        return (ids, ListChange(inserting: destination..<(destination + count)))
    }

    /// Puts placeholder `id` back with `key` (one a list rebuilt from the same rows had): it lands where
    /// that key puts it, as it was; later placeholders get IDs above it.
    /// - Returns: the change; `touched.valueSlots[0]` is its slot.
    /// - Complexity: O(log n)
    mutating func restorePlaceholder(_ id: PlaceholderID, key: PositionKey) -> ListChange {
        precondition(rows.slot(of: id) == nil, "\(id) is pending already")
        touched.removeAll()
        let slot = rows.addPlaceholder(id, key: key)
        let index = order.lowerBound(rows.bound(of: slot), rows: rows)
        order.insert(slot, bound: rows.bound(of: slot), at: index, rows: rows)
        nextPlaceholder = Swift.max(nextPlaceholder, id.rawValue + 1)
        touched.valueSlots.append(slot)
        return ListChange(.inserted(index))
    }

    /// The index of placeholder `id`, or nil when it is not pending.
    /// - Complexity: O(log n)
    @usableFromInline
    func index(of id: PlaceholderID) -> Int? {
        rows.slot(of: id).map { order.lowerBound(rows.bound(of: $0), rows: rows) }
    }

    /// Withdraws placeholder `id`; nil when it is not pending.
    /// - Returns: the change (the placeholder's index removed; its slot freed in ``touched``).
    /// - Complexity: O(log n)
    @usableFromInline
    mutating func removePlaceholder(_ id: PlaceholderID) -> ListChange? {
        touched.removeAll()
        guard let index = index(of: id), let slot = rows.removePlaceholder(id) else { return nil }
        order.remove(at: index)
        touched.freedSlots.append(slot)
        return ListChange(.removed(index))
    }

    /// Turns placeholder `id` into a new row at the placeholder's current key, or, when that key is no
    /// longer strictly between its neighbours' keys, at a fresh key between them; nil when it is not pending.
    /// - Returns: the new row's ID and the change; `touched.valueSlots[0]` is the new row's slot, and the
    ///   placeholder's slot is among `touched.freedSlots` (it may be the row's slot too: freed slots are
    ///   cleared before values are stored).
    /// - Complexity: O(log n)
    @usableFromInline
    mutating func commitPlaceholder(_ id: PlaceholderID) -> (row: RowID, change: ListChange)? {
        guard let slot = rows.slot(of: id), let index = index(of: id) else { return nil }
        let key = rows.key(of: slot)
        guard removePlaceholder(id) != nil else { return nil }
        let fitsBefore = index == 0 || record(at: index - 1).key < key
        let fitsAfter = index == count || key < record(at: index).key
        let inserted = fitsBefore && fitsAfter ? insertRow(key: key, at: index) : insertRows(count: 1, at: index)
        touched.freedSlots.append(slot)
        guard let rowSlot = touched.valueSlots.first ?? nil else { preconditionFailure("commit inserted no row") }
        return (rows.id(of: rowSlot), inserted.afterRemoval(at: index))
    }
}

extension ListChange {
    /// This batch, made for the rows after the row at `index` was removed, as one batch for the rows
    /// before that removal.
    func afterRemoval(at index: Int) -> ListChange {
        func old(_ intermediate: Int) -> Int { intermediate >= index ? intermediate + 1 : intermediate }
        return ListChange(
            removed: CompactArray((removed.map(old) + [index]).sorted()), inserted: inserted,
            moved: CompactArray(moved.map { Move(from: old($0.from), to: $0.to) }), updated: updated)
    }
}
