import ListSync

/// Finding, in a list's current rows, what a table that may lag behind it points at.
extension ReplicatedList {
    /// The index of item `id` (a row or a placeholder), or nil when it is no longer visible.
    /// - Complexity: O(log n)
    func index(ofItem id: ItemID) -> Int? {
        switch id {
        case .row(let row): index(forRow: row)
        case .placeholder(let placeholder): placeholderIndex(placeholder)
        }
    }

    /// The gap just after the last of `shown` (the rows a table shows before one of its gaps) that is
    /// still visible here, as an offset into these rows; 0 when none is.
    /// - Complexity: O(k log n) for the k rows looked at, from the last one back.
    func gap(after shown: some BidirectionalCollection<Row<Element>>) -> Int {
        for row in shown.reversed() {
            if let index = index(ofItem: row.id) { return index + 1 }
        }
        return 0
    }

    /// What `target`, a place in a table showing `shown`, is among these rows: the same gap (after the
    /// same row) or the same row; nil when it is outside the table.
    /// - Complexity: O(k log n) for the k rows looked at.
    func target(_ target: DropTarget?, shownAs shown: [Row<Element>]) -> DropTarget? {
        switch target {
        case .gap(let gap) where (0...shown.count).contains(gap):
            return .gap(self.gap(after: shown[..<gap]))
        case .row(let index) where shown.indices.contains(index):
            return self.index(ofItem: shown[index].id).map(DropTarget.row) ?? .gap(gap(after: shown[..<index]))
        default:
            return nil
        }
    }
}
