import ListSync
import ListSyncUI
import TestSupport

/// A table view that shows a model's rows only through the updates the model hands it: each update is
/// applied as `performBatchUpdates` does (``BatchMirror``, which throws on a batch UIKit rejects) and
/// checked as a diffable data source sees it (unique identifiers; no item deleted and inserted again).
@MainActor
final class RecordingTable<Replica: SyncReplica> where Replica.Value: Equatable {
    /// The model shown.
    weak var model: TableModel<Replica>?
    /// The rows the table shows, by item identifier, as the updates left them.
    private(set) var mirror = BatchMirror<Replica.Value>()
    /// Every update shown, in order.
    private(set) var updates: [TableUpdate] = []
    /// What went wrong, in order.
    private(set) var failures: [String] = []
    /// Items that left the table: a diffable data source would treat one coming back as a new item.
    private var gone: Set<ItemID> = []

    /// Starts showing `model`'s rows as they are now (the table's first `reloadData`).
    func load(_ model: TableModel<Replica>) {
        self.model = model
        mirror = BatchMirror(cells(of: model))
    }

    /// The model's rows as cells: each with its item identifier and value.
    func cells(of model: TableModel<Replica>) -> [Row<Replica.Value>] {
        model.rows.indices.map { Row(id: model.itemIdentifier(at: $0), value: model.rows[$0].value) }
    }

    /// The table's own reorder (the user dragged a row), before it tells the data source.
    func userMovesRow(from source: Int, to destination: Int) {
        var rows = mirror.rows
        rows.insert(rows.remove(at: source), at: destination)
        mirror = BatchMirror(rows)
    }

    /// Shows `update`, as the model's `show` handler.
    func show(_ update: TableUpdate) {
        updates.append(update)
        guard let model else { return failures.append("an update after the model was released") }
        let cells = cells(of: model)
        let old = mirror.rows
        let removed = update.change.removed.compactMap { old.indices.contains($0) ? old[$0].id : nil }
        let inserted = update.change.inserted.compactMap { cells.indices.contains($0) ? cells[$0].id : nil }
        do {
            try mirror.apply(update.change, from: cells)
        } catch {
            failures.append("update \(updates.count) \(update.change): \(error)")
        }
        if Set(cells.map(\.id)).count != cells.count { failures.append("duplicate item identifiers") }
        if update.count != cells.count { failures.append("update says \(update.count) rows, model has \(cells.count)") }
        let reconfigured = update.change.updated.compactMap { cells.indices.contains($0) ? cells[$0].id : nil }
        if reconfigured != update.reconfiguredItems {
            failures.append("reconfigured items \(update.reconfiguredItems), updated rows hold \(reconfigured)")
        }
        let reborn = Set(inserted).intersection(gone.union(removed))
        if !reborn.isEmpty { failures.append("items \(reborn) deleted and inserted again (not stable)") }
        gone.formUnion(removed)
    }
}
