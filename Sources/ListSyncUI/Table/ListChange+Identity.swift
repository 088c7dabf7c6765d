import ListSync

/// Rewriting a batch so that a table keeps an item where the list replaced it: a committed placeholder
/// stays the same item (updated, not removed and inserted), and a move the table already shows is no
/// move at all.
extension ListChange {
    /// This batch with the removal of the old row at `old` and the insertion of the new row at `new`
    /// replaced by that item moving from `old` to `new` and being updated (reconfigured) there; the move
    /// is left out when the item lands there anyway.
    /// - Precondition: `old` is in ``removed`` and `new` in ``inserted``.
    /// - Complexity: O(n + k log k) for n rows and k entries.
    func keepingItem(from old: Int, to new: Int, oldItems: [ItemID], newItems: [ItemID]) -> ListChange {
        precondition(removed.contains(old) && inserted.contains(new), "the item is not replaced by \(self)")
        let kept = ListChange(
            removed: CompactArray(removed.filter { $0 != old }), inserted: CompactArray(inserted.filter { $0 != new }),
            moved: CompactArray((moved + [Move(from: old, to: new)]).sorted { $0.from < $1.from }),
            updated: CompactArray((updated + [new]).sorted()))
        return kept.withoutNeedlessMove(to: new, oldItems: oldItems, newItems: newItems)
    }

    /// This batch without its move to `destination` when the rows end the same without it (the moved row
    /// then lands at `destination` among the rows that keep their order); the batch itself otherwise.
    /// - Complexity: O(n + k log k) for n rows and k entries.
    func withoutNeedlessMove(to destination: Int, oldItems: [ItemID], newItems: [ItemID]) -> ListChange {
        guard let offset = moved.firstIndex(where: { $0.to == destination }) else { return self }
        var moves = Array(moved)
        moves.remove(at: offset)
        let lighter = ListChange(removed: removed, inserted: inserted, moved: CompactArray(moves), updated: updated)
        var items = oldItems
        lighter.apply(to: &items) { newItems[$0] }
        return items == newItems ? lighter : self
    }
}
