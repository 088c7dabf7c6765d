/// What a list holds that never reaches a peer or a file: its pending placeholders and its undo
/// history. A store that rolls back a change it could not log rebuilds the list from its files and puts
/// this state back, as it was before the change.
extension ReplicatedList {
    /// A list's local state, taken by ``localState`` and put back by ``restore(_:)``.
    package struct LocalState {
        fileprivate let placeholders: [PendingPlaceholder]
        fileprivate let undoHistory: UndoHistory<Element>?
    }

    /// A pending placeholder as a rebuilt list needs it back.
    fileprivate struct PendingPlaceholder {
        let id: PlaceholderID
        /// In portable form.
        let key: PositionKey
        let value: Element
    }

    /// The pending placeholders, with their keys and provisional values, and the undo history.
    /// - Complexity: O(p) for p placeholders (the history is copied on write).
    package var localState: LocalState {
        LocalState(
            placeholders: core.rows.placeholders.map { id, slot in
                PendingPlaceholder(id: id, key: core.labels.widened(core.rows.key(of: slot)), value: value(inSlot: slot))
            },
            undoHistory: undoHistory)
    }

    /// Puts `state`, taken from a list with the same rows, back: the placeholders where they were, with
    /// their IDs, and the undo history.
    /// - Complexity: O(p log n) for p placeholders.
    package func restore(_ state: LocalState) {
        for placeholder in state.placeholders {
            // The rebuilt list may label replicas differently: the key travels in portable form.
            let key = core.labels.narrowed(placeholder.key)
            _ = store(core.restorePlaceholder(placeholder.id, key: key)) { _ in placeholder.value }
        }
        undoHistory = state.undoHistory
        recordsUndo = state.undoHistory != nil
    }
}
