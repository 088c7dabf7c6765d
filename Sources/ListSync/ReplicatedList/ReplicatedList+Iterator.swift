/// Reading every row in order.
extension ReplicatedList {
    /// Iterates over the rows in order, one leaf of the order index at a time, so a full pass is O(n)
    /// instead of n lookups by index.
    ///
    /// Like any collection's iterator, it must not outlive a mutation of the list.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let list: ReplicatedList
        @usableFromInline var index = 0
        /// The current leaf of the order index and the indexes it covers.
        @usableFromInline var leaf: (leaf: Int32, start: Int, end: Int) = (0, 0, 0)

        @inlinable
        init(_ list: ReplicatedList) { self.list = list }

        /// The next row, or nil after the last.
        /// - Complexity: amortised O(1); O(log n) once per leaf.
        @inlinable
        public mutating func next() -> Row<Element>? {
            guard index < list.core.count else { return nil }
            if index >= leaf.end { leaf = list.core.order.leaf(containing: index) }
            let slot = list.core.order.slot(inLeaf: leaf.leaf, at: index - leaf.start)
            index += 1
            return list.row(inSlot: slot)
        }
    }

    /// An iterator over the rows in order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(self) }
}
