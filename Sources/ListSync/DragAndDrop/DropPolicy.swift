/// The app's rules for drops into one list.
public struct DropPolicy<Element: DragRepresentable>: Sendable {
    /// The value a placeholder shows while its item loads, unless the item brings its own.
    public var loadingValue: Element
    /// How many items one drop may carry; other counts are forbidden.
    public var acceptedItemCounts: ClosedRange<Int>
    /// Merges a dropped value into a row's value for the "into" intent (nil: this row does not take it);
    /// without it, every drop inserts.
    public var mergeIntoRow: (@Sendable (_ row: Element, _ dropped: Element) -> Element?)?

    /// A policy; by default any number of items, and no drops into rows.
    public init(
        loadingValue: Element, acceptedItemCounts: ClosedRange<Int> = 1...Int.max,
        mergeIntoRow: (@Sendable (_ row: Element, _ dropped: Element) -> Element?)? = nil
    ) {
        self.loadingValue = loadingValue
        self.acceptedItemCounts = acceptedItemCounts
        self.mergeIntoRow = mergeIntoRow
    }
}
