/// Deciding what a drop would do, on every movement of the finger.
extension ReplicatedList where Element: DragRepresentable {
    /// The proposal for dropping `items` at `target` (nil: outside the list).
    ///
    /// *Cancel* without a target or items; *forbidden* when no item is readable, the target is out of
    /// range, or the item count is not in ``DropPolicy/acceptedItemCounts``; *move* when every item is a
    /// row of this list, else *copy*. Over the middle of a confirmed row, one item at hand is merged
    /// into it when the policy has ``DropPolicy/mergeIntoRow``; otherwise the items go before that row.
    /// - Complexity: O(k) for k items (times a handful of type identifiers); builds no collection.
    public func dropProposal(
        for items: [DropItem<Element>], at target: DropTarget?, policy: DropPolicy<Element>
    ) -> DropProposal {
        guard let target, !items.isEmpty else { return DropProposal(operation: .cancel) }
        guard policy.acceptedItemCounts.contains(items.count) else { return DropProposal(operation: .forbidden) }
        var allRows = true
        var anyReadable = false
        for item in items {
            if !item.isRow(of: replicaID) { allRows = false }
            if !anyReadable && item.isReadable { anyReadable = true }
        }
        guard anyReadable else { return DropProposal(operation: .forbidden) }
        let operation: DropProposal.Operation = allRows ? .move : .copy
        switch target {
        case .gap(let index):
            guard index >= 0 && index <= count else { return DropProposal(operation: .forbidden) }
            return DropProposal(operation: operation, destination: index)
        case .row(let index):
            guard index >= 0 && index < count else { return DropProposal(operation: .forbidden) }
            let merges =
                policy.mergeIntoRow != nil && items.count == 1 && items[0].isAtHand && items[0].isReadable
                && !items[0].isRow(of: replicaID) && !self[index].isPending
            return DropProposal(
                operation: merges ? .copy : operation, intent: merges ? .insertIntoDestination : .insertAtDestination,
                destination: index)
        }
    }
}
