/// The identity of one entry of a replica's rows: a replicated row, or a local placeholder.
public enum ItemID: Hashable, Sendable, CustomStringConvertible {
    /// A confirmed, replicated row.
    case row(RowID)
    /// A pending placeholder, visible only in the replica that made it.
    case placeholder(PlaceholderID)

    /// The row's ID, or nil for a placeholder.
    @inlinable
    public var rowID: RowID? {
        if case .row(let id) = self { return id }
        return nil
    }

    /// The placeholder's ID, or nil for a row.
    @inlinable
    public var placeholderID: PlaceholderID? {
        if case .placeholder(let id) = self { return id }
        return nil
    }

    /// The row ID or the placeholder's description.
    public var description: String {
        switch self {
        case .row(let id): id.description
        case .placeholder(let id): id.description
        }
    }
}
