/// Merging into a replica that knows nothing yet: loading a snapshot, or a new replica's first sync.
extension ListCore {
    /// Whether the replica holds no rows, tombstones or placeholders, so ``applyToEmpty(_:)`` applies.
    var isEmpty: Bool { rows.count == 0 && tombstones.count == 0 && order.count == 0 }

    /// Merges `updates` (unique row IDs) into an empty replica in bulk; the same result as ``apply(_:placeholderKeys:)``.
    ///
    /// Every update is new here, so no register is compared: each row is added with the registers it
    /// carries, each deletion becomes a tombstone, and the visible rows, which come sorted in the
    /// canonical order of a change set, make the order index bottom-up.
    /// - Precondition: ``isEmpty``.
    /// - Complexity: O(k) for k updates in canonical order, O(k log k) otherwise.
    mutating func applyToEmpty(_ updates: [RowUpdate]) -> Applied {
        precondition(isEmpty, "bulk merge into a replica that holds rows")
        var applied = Applied()
        applied.valueSlots.reserveCapacity(updates.count)
        let deletions = updates.lazy.filter(\.deletion.isSet).count
        tombstones.reserveCapacity(deletions)
        rows.reserveCapacity(adding: updates.count - deletions)
        var visible: [Int32] = []
        visible.reserveCapacity(updates.count - deletions)
        var previous: OrderIndex.Bound?
        var sorted = true
        for update in updates {
            clock = max(clock, update.maxLamport)
            if update.deletion.isSet {
                tombstones.insert(update.id, deletedBy: update.deletion)
                applied.valueSlots.append(nil)
                continue
            }
            guard update.positionStamp.isSet || update.valueStamp.isSet else {
                applied.valueSlots.append(nil)
                continue
            }
            let position = update.positionStamp.isSet ? update.position! : RowRecord.unsetKey
            let slot = rows.add(
                RowRecord(
                    id: update.id, key: position, positionStamp: update.positionStamp, valueStamp: update.valueStamp))
            applied.valueSlots.append(update.valueStamp.isSet ? slot : nil)
            guard update.positionStamp.isSet && update.valueStamp.isSet else { continue }
            let bound = OrderIndex.Bound(key: position, id: update.id)
            if let previous, !(previous < bound) { sorted = false }
            previous = bound
            visible.append(slot)
        }
        if !sorted { visible.sort { rows.bound(of: $0) < rows.bound(of: $1) } }
        order = OrderIndex(sorted: visible, rows: rows)
        applied.change.inserted = Array(visible.indices)
        return applied
    }
}
