/// One visible row of a replicated list: its stable identity and its value.
public struct Row<Element>: Identifiable {
    /// The row's identity, stable across moves and edits and across replicas.
    public let id: RowID
    /// The row's value.
    public let value: Element

    /// Creates a row.
    public init(id: RowID, value: Element) {
        self.id = id
        self.value = value
    }
}

extension Row: Equatable where Element: Equatable {}
extension Row: Hashable where Element: Hashable {}
extension Row: Sendable where Element: Sendable {}
