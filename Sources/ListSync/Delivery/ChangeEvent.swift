/// One change to a list's rows as an app receives it: the batch for its table view, where it came
/// from, and the rows the batch inserts or updates, so the app's own copy of the rows stays exact.
///
/// ```swift
/// var rows = events.initialRows
/// for await event in events {
///     event.apply(to: &rows)   // rows now equal the list's at this event
///     // then give the table view event.change in performBatchUpdates (or let SwiftUI diff `rows`)
/// }
/// ```
public struct ChangeEvent<Element: Sendable>: Sendable {
    /// The batch, for the rows as the previous event (or ``ChangeEvents/initialRows``) left them.
    public let change: ListChange
    /// Whose edits these are.
    public let origin: ChangeOrigin
    /// The number of rows after the change.
    public let count: Int
    /// The rows at `change.inserted`, in that order.
    public let insertedRows: [Row<Element>]
    /// The rows at `change.updated` (their new values), in that order.
    public let updatedRows: [Row<Element>]

    /// Applies the change to `rows`, the rows before it: afterwards they equal the list's rows at this event.
    /// - Precondition: `rows` are the rows the change was made for.
    /// - Complexity: O(n + k log k) for n rows and k changed rows.
    public func apply(to rows: inout [Row<Element>]) {
        var inserted = insertedRows.makeIterator()
        change.apply(to: &rows) { _ in inserted.next()! }
        for (index, row) in zip(change.updated, updatedRows) { rows[index] = row }
        precondition(rows.count == count, "event applied to rows it was not made for")
    }

    /// One event with the effect of this one followed by `next` (``ListChange/followed(by:)``).
    /// - Complexity: O(k log k) for k entries in both.
    public func followed(by next: ChangeEvent) -> ChangeEvent {
        let change = self.change.followed(by: next.change)
        var rows: [Int: Row<Element>] = [:]
        let destinations = next.change.destinations(ofOld: self.change.inserted + self.change.updated)
        for (row, destination) in zip(insertedRows + updatedRows, destinations) {
            if let destination { rows[destination] = row }
        }
        for (index, row) in zip(next.change.inserted + next.change.updated, next.insertedRows + next.updatedRows) {
            rows[index] = row
        }
        return ChangeEvent(
            change: change, origin: origin.combined(with: next.origin), count: next.count,
            insertedRows: change.inserted.map { rows[$0]! }, updatedRows: change.updated.map { rows[$0]! })
    }
}

extension ChangeEvent where Element: Codable {
    /// The event for `change`, which `list` has just made, reading the inserted and updated rows.
    /// - Complexity: O(k log n) for k inserted and updated rows.
    public init(_ change: ListChange, origin: ChangeOrigin, in list: ReplicatedList<Element>) {
        self.change = change
        self.origin = origin
        count = list.count
        insertedRows = change.inserted.map { list[$0] }
        updatedRows = change.updated.map { list[$0] }
    }
}
