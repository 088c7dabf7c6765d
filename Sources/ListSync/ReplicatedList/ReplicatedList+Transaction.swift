/// Transactions: several edits that the UI sees as one change.
extension ReplicatedList {
    /// Runs `body` on this list and returns its result with one batch for everything it changed.
    ///
    /// The batch is the combination of every edit's batch (``ListChange/followed(by:)``), exact for the
    /// rows as they were before `body`; the edits' operations travel to peers together. A transaction
    /// inside another adds to the outer one's batch.
    ///
    /// ```swift
    /// let (_, change) = list.transaction { list in
    ///     list.append("Eggs")
    ///     list.move(from: list.count - 1, to: 0)
    ///     list.remove(at: 3)
    /// }
    /// tableView.performBatchUpdates(change)   // one animation for the three edits
    /// ```
    /// An edit `body` made before it threw stays made (an in-memory list keeps no undo); its batch is
    /// added to the outer transaction, if any. A ``DurableReplica`` rolls such edits back.
    /// - Complexity: the edits', plus O(k log k) per edit for k entries in the batch so far.
    public func transaction<Result>(
        _ body: (ReplicatedList) throws -> Result
    ) rethrows -> (result: Result, change: ListChange) {
        let outer = transactionChange
        transactionChange = ListChange()
        let groupsUndo = recordsUndo  // the outermost transaction is one user action to undo
        if groupsUndo { undoHistory!.beginTransaction() }
        defer {
            if groupsUndo { undoHistory!.endTransaction() }
            let inner = transactionChange ?? ListChange()
            transactionChange = outer.map { $0.followed(by: inner) }
        }
        let result = try body(self)
        return (result, transactionChange ?? ListChange())
    }
}
