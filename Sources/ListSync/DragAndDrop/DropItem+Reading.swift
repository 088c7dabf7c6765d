extension DropItem {
    /// The item's value when it is at hand: the dragged or given value, or data decoded from the first
    /// readable representation. Nil for providers and for data `Element` does not read.
    /// - Throws: ``RepresentationError/malformedData(_:reason:)`` when the data does not decode.
    func valueAtHand() throws(RepresentationError) -> Element? {
        switch content {
        case .dragged(let item): return item.value
        case .value(let value): return value
        case .provider: return nil
        case .data(let representations):
            let offered = representations.lazy.map(\.typeIdentifier)
            guard let type = Element.preferredReadableType(among: offered),
                let representation = representations.first(where: { $0.typeIdentifier == type })
            else { return nil }
            return try Element(data: representation.data, typeIdentifier: type)
        }
    }
}
