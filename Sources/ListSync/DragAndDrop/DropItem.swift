/// One item of a drop session, as the destination list sees it.
public struct DropItem<Element: DragRepresentable>: Sendable {
    /// Where the item's content is.
    public enum Content: Sendable {
        /// A row dragged inside the app; a row of the destination list itself when `sourceReplica` matches.
        case dragged(DragItem<Element>)
        /// A value at hand from elsewhere in the app.
        case value(Element)
        /// Data at hand, best representation first.
        case data([Representation])
        /// Data to load asynchronously (like an `NSItemProvider`): the identifiers it offers, best first,
        /// and how to load one of them. Loading may throw or be cancelled.
        case provider(typeIdentifiers: [TypeIdentifier], load: @Sendable (TypeIdentifier) async throws -> [UInt8])
    }

    /// The item's content.
    public var content: Content
    /// A value shown by the item's placeholder while it loads (a "Loading..." title, say).
    public var provisionalValue: Element?

    /// An item with `content`; `provisionalValue` is shown while a provider loads.
    public init(_ content: Content, provisionalValue: Element? = nil) {
        self.content = content
        self.provisionalValue = provisionalValue
    }

    /// Whether the item is a row of the list whose replica is `replica` (a move rather than a copy).
    @inlinable
    public func isRow(of replica: ReplicaID) -> Bool {
        if case .dragged(let item) = content { return item.sourceReplica == replica }
        return false
    }

    /// Whether `Element` can read the item: values always, data and providers when they offer a
    /// readable identifier.
    /// - Complexity: O(r × o) for r readable and o offered identifiers; builds no collection.
    public var isReadable: Bool {
        switch content {
        case .dragged, .value: true
        case .data(let representations):
            Element.preferredReadableType(among: representations.lazy.map(\.typeIdentifier)) != nil
        case .provider(let typeIdentifiers, _): Element.preferredReadableType(among: typeIdentifiers) != nil
        }
    }

    /// Whether the content is at hand (no asynchronous load needed).
    public var isAtHand: Bool {
        if case .provider = content { return false }
        return true
    }
}
