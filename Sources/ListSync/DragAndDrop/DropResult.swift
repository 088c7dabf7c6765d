/// What a performed drop did at once, and what is left to load.
public struct DropResult<Element: DragRepresentable>: Sendable {
    /// The drop's batch: rows moved, rows and placeholders inserted (or the row merged into updated).
    public var change = ListChange()
    /// Rows of this list that moved, in the order of the items.
    public var movedRows: [RowID] = []
    /// Rows inserted at once (values at hand, data decoded), in the order of the items.
    public var insertedRows: [RowID] = []
    /// The row merged into, for the "into" intent.
    public var updatedRow: RowID?
    /// One placeholder per item still loading; pass them to ``ReplicatedList/completeLoads(_:isolation:report:)``.
    public var pendingLoads: [PendingLoad] = []

    /// An empty result.
    public init() {}

    /// A placeholder whose content an item still has to load.
    public struct PendingLoad: Sendable {
        /// The placeholder showing the item.
        public let placeholder: PlaceholderID
        /// The identifier that will be loaded and decoded: the first one `Element` reads.
        public let typeIdentifier: TypeIdentifier
        /// Loads the item's data.
        public let load: @Sendable (TypeIdentifier) async throws -> [UInt8]

        /// Loads and decodes the item: its value, or why it could not be had (cancellation included).
        public func loadValue() async -> Result<Element, any Error> {
            do {
                let data = try await load(typeIdentifier)
                try Task.checkCancellation()
                return .success(try Element(data: data, typeIdentifier: typeIdentifier))
            } catch {
                return .failure(error)
            }
        }
    }
}

/// How one placeholder of a drop ended.
public enum LoadOutcome: Sendable {
    /// Its data arrived and decoded: it became row `row`, where the placeholder was.
    case committed(PlaceholderID, row: RowID)
    /// Loading or decoding threw `error`; the placeholder was withdrawn.
    case failed(PlaceholderID, any Error)
    /// Loading was cancelled (or the placeholder was removed meanwhile); it was withdrawn.
    case cancelled(PlaceholderID)

    /// The placeholder this outcome is about.
    public var placeholder: PlaceholderID {
        switch self {
        case .committed(let id, _), .failed(let id, _), .cancelled(let id): id
        }
    }
}
