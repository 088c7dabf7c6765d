/// Tentative rows: placeholders that live only in this replica.
///
/// A placeholder has a position key allocated at once and sits in the order among the rows, but it has
/// no operation dot, no Lamport time and no row ID: nothing of it is in the version vector, a change
/// set or a snapshot. Merges and local edits never move it (its key stays; see ``OrderIndex/Bound`` for
/// equal keys). Committing it makes a normal insert at its current key; removing it leaves no trace.
extension ListCore {
    /// Inserts `count` placeholders as a block at `index` (or, when rows with equal keys surround
    /// `index`, just after them: a placeholder cannot displace replicated rows).
    /// - Returns: the placeholders' IDs and the applied change; `valueSlots[i]` is the i-th one's slot.
    /// - Complexity: O(k log n)
    @usableFromInline
    mutating func insertPlaceholders(count: Int, at index: Int) -> (ids: [PlaceholderID], applied: Applied) {
        precondition(index >= 0 && index <= self.count, "insert index \(index) out of range 0...\(self.count)")
        guard count > 0 else { return ([], Applied()) }
        var destination = index
        let lower = index > 0 ? record(at: index - 1).key : nil
        while destination < self.count, let lower, record(at: destination).key == lower { destination += 1 }
        let upper = destination < self.count ? record(at: destination).key : nil
        // A copy of the allocator: a placeholder that is withdrawn leaves no trace in the run state either.
        var scratch = allocator
        var keys: [PositionKey] = []
        scratch.allocate(
            count: count, after: lower, before: upper,
            jitter: SplitMix64.mix(replica.rawValue ^ nextCounter ^ (nextPlaceholder << 32)), into: &keys)
        var ids: [PlaceholderID] = []
        var applied = Applied()
        for (offset, key) in keys.enumerated() {
            let id = PlaceholderID(rawValue: nextPlaceholder)
            nextPlaceholder += 1
            let slot = rows.addPlaceholder(id, key: key)
            order.insert(slot, bound: rows.bound(of: slot), at: destination + offset, rows: rows)
            ids.append(id)
            applied.valueSlots.append(slot)
        }
        applied.change.inserted = Array(destination..<(destination + count))
        return (ids, applied)
    }

    /// The index of placeholder `id`, or nil when it is not pending.
    /// - Complexity: O(log n)
    @usableFromInline
    func index(of id: PlaceholderID) -> Int? {
        rows.slot(of: id).map { order.lowerBound(rows.bound(of: $0), rows: rows) }
    }

    /// Withdraws placeholder `id`; nil when it is not pending.
    /// - Returns: the applied change (the placeholder's index removed; its slot freed).
    /// - Complexity: O(log n)
    @usableFromInline
    mutating func removePlaceholder(_ id: PlaceholderID) -> Applied? {
        guard let index = index(of: id), let slot = rows.removePlaceholder(id) else { return nil }
        order.remove(at: index)
        var applied = Applied()
        applied.freedSlots = [slot]
        applied.change.removed = [index]
        return applied
    }

    /// Turns placeholder `id` into a new row at the placeholder's current key, or, when that key is no
    /// longer strictly between its neighbours' keys, at a fresh key between them; nil when it is not pending.
    /// - Returns: the new row's ID and the applied change; `valueSlots[0]` is the new row's slot.
    /// - Complexity: O(log n)
    @usableFromInline
    mutating func commitPlaceholder(_ id: PlaceholderID) -> (row: RowID, applied: Applied)? {
        guard let slot = rows.slot(of: id), let index = index(of: id) else { return nil }
        let key = rows[slot].key
        guard let withdrawn = removePlaceholder(id) else { return nil }
        let fitsBefore = index == 0 || record(at: index - 1).key < key
        let fitsAfter = index == count || key < record(at: index).key
        var inserted = fitsBefore && fitsAfter ? insertRow(key: key, at: index) : insertRows(count: 1, at: index)
        inserted.change = inserted.change.afterRemoval(at: index)
        inserted.freedSlots = withdrawn.freedSlots + inserted.freedSlots
        guard let rowSlot = inserted.valueSlots.first ?? nil else { preconditionFailure("commit inserted no row") }
        return (rows[rowSlot].id, inserted)
    }
}

extension ListChange {
    /// This batch, made for the rows after the row at `index` was removed, as one batch for the rows
    /// before that removal.
    func afterRemoval(at index: Int) -> ListChange {
        func old(_ intermediate: Int) -> Int { intermediate >= index ? intermediate + 1 : intermediate }
        return ListChange(
            removed: (removed.map(old) + [index]).sorted(), inserted: inserted,
            moved: moved.map { Move(from: old($0.from), to: $0.to) }, updated: updated)
    }
}
