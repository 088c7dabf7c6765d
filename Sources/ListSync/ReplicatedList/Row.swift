/// One entry of a replicated list's rows: its identity and its value.
///
/// Most entries are confirmed rows (``ItemID/row(_:)``). A pending placeholder
/// (``ItemID/placeholder(_:)``) shows the provisional value it was inserted with, for the UI to draw as
/// "Loading...", until it is committed or removed.
public struct Row<Element>: Identifiable {
    /// The entry's identity: a row ID, stable across moves and edits and across replicas, or a local
    /// placeholder ID.
    public let id: ItemID
    /// The row's value, or a placeholder's provisional value.
    public let value: Element

    /// Creates a row.
    @inlinable
    public init(id: ItemID, value: Element) {
        self.id = id
        self.value = value
    }

    /// Creates a confirmed row.
    @inlinable
    public init(id: RowID, value: Element) {
        self.init(id: .row(id), value: value)
    }

    /// The row's ID, or nil for a placeholder.
    @inlinable
    public var rowID: RowID? { id.rowID }

    /// Whether this is a pending placeholder rather than a confirmed row.
    @inlinable
    public var isPending: Bool { id.placeholderID != nil }
}

extension Row: Equatable where Element: Equatable {}
extension Row: Hashable where Element: Hashable {}
extension Row: Sendable where Element: Sendable {}
