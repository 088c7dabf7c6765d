import ListSync

/// What to tell a table view about rows that changed: one batch for `performBatchUpdates`, or the
/// identifiers to reconfigure in an `NSDiffableDataSourceSnapshot`.
///
/// ```swift
/// tableView.performBatchUpdates {
///     tableView.deleteRows(at: paths(update.change.removed), with: .automatic)
///     tableView.insertRows(at: paths(update.change.inserted), with: .automatic)
///     for move in update.change.moved { tableView.moveRow(at: path(move.from), to: path(move.to)) }
/// }
/// tableView.reconfigureRows(at: paths(update.change.updated))
/// ```
/// A committed placeholder is an update of its item (its cell is reconfigured, it is not deleted and
/// inserted), so a cell keeps its place and a diffable data source keeps its item.
public struct TableUpdate: Hashable, Sendable {
    /// The batch, for the rows the table showed before (``ListChange``'s contract); the rows at
    /// `updated` (new indexes) are to be reconfigured after it.
    public let change: ListChange
    /// The item identifiers of the rows at `change.updated`, in that order, for
    /// `NSDiffableDataSourceSnapshot.reconfigureItems(_:)`.
    public let reconfiguredItems: [ItemID]
    /// The number of rows after the update.
    public let count: Int
}
