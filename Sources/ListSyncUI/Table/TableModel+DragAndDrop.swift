import ListSync

/// Drags from the table and drops into it, in the table's indexes, with placeholders for items that load.
extension TableModel where Replica.Value: DragRepresentable {
    /// The items of a drag that begins on the table row at `index`, where `selection` holds the selected
    /// rows: every selected row when the touched one is selected, else that row (``DragSession``);
    /// none for a placeholder.
    /// - Complexity: O(k log n) for k selected rows.
    public func dragItems(beginningAt index: Int, selection: Set<Int>) -> [DragItem<Element>] {
        guard rows.indices.contains(index) else { return [] }
        let touched = rows[index].id
        let selected = selection.filter(rows.indices.contains).map { rows[$0].id }
        return peer.read { list in
            guard let start = list.index(ofItem: touched) else { return [] }
            let indexes = Set(selected.compactMap(list.index(ofItem:)))
            return DragSession(beginningAt: start, selection: indexes, of: list)?.items ?? []
        }
    }

    /// The item for the table row at `index` joining a drag that carries `dragged` rows already (a tap
    /// during the drag); nil when it is dragged already, a placeholder, or gone.
    /// - Complexity: O(log n)
    public func dragItem(addingRowAt index: Int, to dragged: Set<RowID>) -> DragItem<Element>? {
        guard rows.indices.contains(index), let row = rows[index].rowID, !dragged.contains(row) else { return nil }
        return dragItems(beginningAt: index, selection: []).first
    }

    /// What dropping `items` at `target`, a place in the table (nil: outside it), would do.
    ///
    /// The proposal's ``DropProposal/destination`` is an index of the list's rows, which may be ahead
    /// of the table's; its operation and intent are what the table's drop proposal says.
    /// - Complexity: O(k) for k items, plus finding the target.
    public func dropProposal(
        for items: [DropItem<Element>], at target: DropTarget?, policy: DropPolicy<Element>
    ) -> DropProposal {
        let shown = rows
        return peer.read { list in
            list.dropProposal(for: items, at: list.target(target, shownAs: shown), policy: policy)
        }
    }

    /// Drops `items` at `target`, a place in the table (``ReplicatedList/performDrop(_:proposal:policy:)``),
    /// and shows the drop (placeholders included) at once, as `tableView(_:performDropWith:)` must.
    /// - Returns: what the drop did (its batch is the list's; the table has been told through `show`);
    ///   pass its ``DropResult/pendingLoads`` to ``completeLoads(_:failed:)``.
    /// - Throws: ``TableEditError/undecodableDrop(_:)`` when data at hand does not decode, or
    ///   ``TableEditError/notKept(_:)`` when the replica could not keep the drop; nothing changed then.
    /// - Complexity: O(n + k log n) for n rows and k items.
    public func performDrop(
        _ items: [DropItem<Element>], at target: DropTarget?, policy: DropPolicy<Element>
    ) throws(TableEditError) -> DropResult<Element> {
        let shown = rows
        defer { showUnshown() }
        let result = try edit { list in
            let proposal = list.dropProposal(for: items, at: list.target(target, shownAs: shown), policy: policy)
            return Result { () throws(RepresentationError) in
                try list.performDrop(items, proposal: proposal, policy: policy)
            }
        }
        return try result.mapError(TableEditError.undecodableDrop).get()
    }

    /// Loads the drop's pending items concurrently; as each finishes, commits its placeholder (the
    /// table reconfigures that item, which keeps its identifier) or withdraws it, and shows the change.
    ///
    /// Runs on the main actor; only the loads run elsewhere. Cancelling the calling task cancels the
    /// loads still running and withdraws their placeholders.
    /// - Parameter failed: called with each item that did not become a row: a load or decoding that
    ///   failed (``TableEditError/loadFailed(placeholder:_:)``), or a commit the replica could not keep
    ///   (``TableEditError/notKept(_:)``; its placeholder is then withdrawn, unless the replica refuses
    ///   that edit too: it stays, drawn as loading, until ``removeRow(at:)`` can withdraw it). Not for
    ///   cancelled loads.
    public func completeLoads(_ loads: [DropResult<Element>.PendingLoad], failed: (TableEditError) -> Void) async {
        await withTaskGroup(of: (Int, Result<Element, any Error>).self) { group in
            for (offset, load) in loads.enumerated() {
                group.addTask { (offset, await load.loadValue()) }
            }
            for await (offset, result) in group {
                if let error = finishLoad(loads[offset].placeholder, with: result) { failed(error) }
            }
        }
    }

    /// Commits or withdraws `placeholder` with its load's `result`, shows the change, and says why the
    /// item did not become a row (nil when it did, or its load was cancelled).
    private func finishLoad(_ placeholder: PlaceholderID, with result: Result<Element, any Error>) -> TableEditError? {
        let outcome: LoadOutcome
        do {
            outcome = try edit { list in list.finishLoad(placeholder, with: result).outcome }
        } catch {
            // The commit was not kept, so the placeholder is still pending: withdraw it rather than leave it.
            _ = try? edit { list in (try? list.removePlaceholder(placeholder)) != nil }
            showUnshown()
            return error
        }
        switch outcome {
        case .committed(let placeholder, let row):
            showUnshown(committed: [placeholder: row])
            return nil
        case .failed(let placeholder, let error):
            showUnshown()
            return .loadFailed(placeholder: placeholder, error)
        case .cancelled:
            showUnshown()
            return nil
        }
    }
}
