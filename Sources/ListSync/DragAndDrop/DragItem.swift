/// One dragged row: its data in every representation, and, inside the app, the row itself (the fast
/// path, like `UIDragItem.localObject`).
public struct DragItem<Element: DragRepresentable>: Sendable {
    /// The replica the row was dragged from.
    public let sourceReplica: ReplicaID
    /// The dragged row.
    public let row: RowID
    /// The row's value when the drag began.
    public let value: Element
    /// The value's data, best representation first, for destinations outside the app.
    public let representations: [Representation]

    /// An item for `row`, holding `value`, dragged from replica `sourceReplica`.
    public init(sourceReplica: ReplicaID, row: RowID, value: Element) {
        self.sourceReplica = sourceReplica
        self.row = row
        self.value = value
        self.representations = value.representations()
    }
}
