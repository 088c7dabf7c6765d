/// Loading the placeholders of a drop, concurrently, and committing or withdrawing each.
extension ReplicatedList where Element: DragRepresentable {
    /// Loads every pending item of a drop concurrently; as each finishes, commits its placeholder with
    /// the decoded value (a row where the placeholder is now) or withdraws it when loading or decoding
    /// throws or the task is cancelled, and calls `report` with the outcome and its batch.
    ///
    /// Runs on the caller's actor (the list stays there); only the loads run elsewhere. Cancelling the
    /// calling task cancels the loads still running and withdraws their placeholders.
    public func completeLoads(
        _ loads: [DropResult<Element>.PendingLoad], isolation: isolated (any Actor)? = #isolation,
        report: (LoadOutcome, ListChange) -> Void
    ) async {
        await withTaskGroup(of: (Int, Result<Element, any Error>).self) { group in
            for (offset, pending) in loads.enumerated() {
                group.addTask { (offset, await pending.loadValue()) }
            }
            for await (offset, result) in group {
                let (outcome, change) = finishLoad(loads[offset].placeholder, with: result)
                report(outcome, change)
            }
        }
    }

    /// Ends placeholder `id` with the result of its load: commits the value where the placeholder is
    /// now, or withdraws it when loading failed or was cancelled (or it was removed meanwhile).
    ///
    /// ``completeLoads(_:isolation:report:)`` calls it for each item; a host whose list lives behind a
    /// lock (a sync peer, a store) runs ``DropResult/PendingLoad/loadValue()`` outside the lock and
    /// calls this inside.
    /// - Returns: how the placeholder ended and the batch for the table.
    /// - Complexity: O(log n)
    public func finishLoad(
        _ id: PlaceholderID, with result: Result<Element, any Error>
    ) -> (outcome: LoadOutcome, change: ListChange) {
        do throws(PlaceholderError) {
            switch result {
            case .success(let value):
                let (row, change) = try commitPlaceholder(id, value: value)
                return (.committed(id, row: row), change)
            case .failure(let error):
                let change = try removePlaceholder(id)
                return (error is CancellationError ? .cancelled(id) : .failed(id, error), change)
            }
        } catch .cannotEdit {
            // The value cannot become a row here: withdraw the placeholder rather than leave it pending.
            let change = (try? removePlaceholder(id)) ?? ListChange()
            return (.failed(id, PlaceholderError.cannotEdit(id)), change)
        } catch {
            return (.cancelled(id), ListChange())  // removed meanwhile: nothing left to do
        }
    }
}
