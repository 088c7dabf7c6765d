/// The rows of a drag in progress, in the order they were added.
///
/// Beginning a drag on a selected row drags every selected row (in list order); on any other row, that
/// row alone, as `UITableViewDragDelegate` does. Rows can join a live session (``add(rowAt:of:)``).
/// Pending placeholders cannot be dragged.
public struct DragSession<Element: DragRepresentable & Codable>: Sendable {
    /// The dragged items, in order.
    public private(set) var items: [DragItem<Element>] = []

    /// The rows being dragged, in order.
    public var rows: [RowID] { items.map(\.row) }

    /// Begins a drag on the row at `index` of `list`, where `selection` holds the selected indexes.
    ///
    /// Nil when `index` is out of range or holds a placeholder (nothing to drag).
    /// - Complexity: O(k log n) for k dragged rows.
    public init?(beginningAt index: Int, selection: Set<Int>, of list: ReplicatedList<Element>) {
        guard list.indices.contains(index), !list[index].isPending else { return nil }
        let indexes = selection.contains(index) ? selection.sorted() : [index]
        for selected in indexes where list.indices.contains(selected) { add(rowAt: selected, of: list) }
    }

    /// Adds the row at `index` of `list` to the session (a tap on another row during the drag).
    /// - Returns: the new item, or nil when the row is already dragged, is a placeholder or does not exist.
    /// - Complexity: O(k + log n) for k dragged rows.
    @discardableResult
    public mutating func add(rowAt index: Int, of list: ReplicatedList<Element>) -> DragItem<Element>? {
        guard list.indices.contains(index) else { return nil }
        let row = list[index]
        guard let id = row.rowID, !items.contains(where: { $0.row == id }) else { return nil }
        let item = DragItem(sourceReplica: list.replicaID, row: id, value: row.value)
        items.append(item)
        return item
    }
}
