import Foundation
import ListSync

/// Edits made in the table: a reorder (which the table already shows) and a deletion.
extension TableModel {
    /// Whether the table lets the row at `index` be reordered (`tableView(_:canMoveRowAt:)`): a
    /// placeholder cannot move.
    public func canMoveRow(at index: Int) -> Bool { rows.indices.contains(index) && !rows[index].isPending }

    /// Applies a reorder the table made and already shows (`tableView(_:moveRowAt:to:)`): the row moves
    /// in the list to just after the row the table shows before it, and the model's rows are the
    /// table's at once, without telling the table anything.
    ///
    /// When other changes were arriving meanwhile (or the row was deleted, or is a placeholder, which
    /// cannot move), the table is told about them, and about where the row is in the list, on the next
    /// main-actor turn: not inside UIKit's callback.
    /// - Throws: ``TableEditError/notKept(_:)`` when the replica could not keep the move; the row then
    ///   goes back to its place in the list on the next main-actor turn.
    /// - Precondition: both indexes are rows the table shows.
    /// - Complexity: O(n + k log k) for n rows and k changes taken.
    public func moveRow(at source: Int, to destination: Int) throws(TableEditError) {
        precondition(rows.indices.contains(source) && rows.indices.contains(destination), "no such table row")
        guard source != destination else { return }
        let item = rows[source].id
        recordShownMove(from: source, to: destination)
        let before = rows[..<destination]
        var failure: TableEditError?
        do {
            try edit { list in
                guard let row = item.rowID, let from = list.index(forRow: row) else { return }
                list.move(fromOffsets: IndexSet(integer: from), toOffset: list.gap(after: before))
            }
        } catch {
            failure = error
        }
        if !adoptUnshownIfShown() {
            Task { @MainActor [weak self] in self?.showUnshown() }
        }
        if let failure { throw failure }
    }

    /// Deletes the row at `index` of the table (`tableView(_:commit:forRowAt:)`), or withdraws it when it
    /// is a placeholder (its load then ends as cancelled), and shows the change.
    /// - Throws: ``TableEditError/notKept(_:)`` when the replica could not keep the deletion; nothing
    ///   changed then.
    /// - Precondition: `index` is a row the table shows.
    /// - Complexity: O(n + k log k) for n rows and k changes taken.
    public func removeRow(at index: Int) throws(TableEditError) {
        precondition(rows.indices.contains(index), "no such table row")
        let item = rows[index].id
        defer { showUnshown() }
        try edit { list in
            guard let current = list.index(ofItem: item) else { return }
            if case .placeholder(let placeholder) = item {
                _ = try? list.removePlaceholder(placeholder)  // pending: it was found just now
            } else {
                list.remove(at: current)
            }
        }
    }
}
