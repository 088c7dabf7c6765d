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
                let type = pending.typeIdentifier
                let load = pending.load
                group.addTask {
                    do {
                        let data = try await load(type)
                        try Task.checkCancellation()
                        return (offset, .success(try Element(data: data, typeIdentifier: type)))
                    } catch {
                        return (offset, .failure(error))
                    }
                }
            }
            for await (offset, result) in group {
                let id = loads[offset].placeholder
                do throws(PlaceholderError) {
                    switch result {
                    case .success(let value):
                        let (row, change) = try commitPlaceholder(id, value: value)
                        report(.committed(id, row: row), change)
                    case .failure(let error):
                        let change = try removePlaceholder(id)
                        report(error is CancellationError ? .cancelled(id) : .failed(id, error), change)
                    }
                } catch {
                    report(.cancelled(id), ListChange())  // removed meanwhile: nothing left to do
                }
            }
        }
    }
}
