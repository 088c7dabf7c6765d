/// Local operations: each builds the row updates of one atomic change, stamped with fresh dots and one
/// Lamport time, and applies them like any merged change.
extension ListCore {
    /// A local change under construction: one Lamport time, consecutive counters.
    private struct LocalChange {
        let lamport: UInt64
        let firstCounter: UInt64
        var updates: [RowUpdate] = []

        /// The stamp of the next operation.
        mutating func nextStamp(replica: ReplicaID) -> Stamp {
            Stamp(lamport: lamport, dot: Dot(replica: replica, counter: firstCounter + UInt64(updates.count)))
        }
    }

    private func beginChange() -> LocalChange {
        LocalChange(lamport: clock + 1, firstCounter: nextCounter)
    }

    private func commit(_ change: LocalChange) -> Applied {
        guard !change.updates.isEmpty else { return Applied() }
        markLocal(
            change.firstCounter...(change.firstCounter + UInt64(change.updates.count) - 1), lamport: change.lamport)
        return apply(change.updates)
    }

    /// Inserts `count` new rows as a block at `index`; their IDs are consecutive dots of this replica.
    /// - Returns: the applied change; `valueSlots[i]` is the slot of the i-th new row.
    func insertRows(count: Int, at index: Int) -> Applied {
        precondition(index >= 0 && index <= self.count, "insert index \(index) out of range 0...\(self.count)")
        guard count > 0 else { return Applied() }
        var change = beginChange()
        let placement = place(count: count, at: index, skipping: [], jitterSeed: change.firstCounter)
        for key in placement.keys.prefix(count) {
            let stamp = change.nextStamp(replica: replica)
            change.updates.append(RowUpdate(id: stamp.dot, position: key, positionStamp: stamp, valueStamp: stamp))
        }
        appendMoves(of: placement.displaced, keys: placement.keys.dropFirst(count), to: &change)
        return commit(change)
    }

    /// Moves the visible rows at `offsets` (ascending, unique) as a block so they land before the row
    /// that was at `destination` (an index in the original rows, as in SwiftUI's `move(fromOffsets:toOffset:)`).
    func moveRows(at offsets: [Int], to destination: Int) -> Applied {
        precondition(destination >= 0 && destination <= count, "destination \(destination) out of range 0...\(count)")
        guard let first = offsets.first, let last = offsets.last else { return Applied() }
        precondition(first >= 0 && last < count, "move offsets out of range 0..<\(count)")
        // Already contiguous and landing where they are: nothing to do.
        if last - first + 1 == offsets.count && destination >= first && destination <= last + 1 { return Applied() }
        var change = beginChange()
        let placement = place(count: offsets.count, at: destination, skipping: offsets, jitterSeed: change.firstCounter)
        let moving = offsets.map { rows[order.slot(at: $0)].id }
        appendMoves(of: moving + placement.displaced, keys: placement.keys[...], to: &change)
        return commit(change)
    }

    /// Deletes the visible rows at `offsets` (unique).
    func removeRows(at offsets: [Int]) -> Applied {
        var change = beginChange()
        for offset in offsets {
            precondition(offset >= 0 && offset < count, "remove offset \(offset) out of range 0..<\(count)")
            let id = rows[order.slot(at: offset)].id
            change.updates.append(RowUpdate(id: id, deletion: change.nextStamp(replica: replica)))
        }
        return commit(change)
    }

    /// Sets a new value stamp on the visible row at `index` (the caller stores the value).
    func updateRow(at index: Int) -> Applied {
        precondition(index >= 0 && index < count, "update index \(index) out of range 0..<\(count)")
        var change = beginChange()
        let id = rows[order.slot(at: index)].id
        change.updates.append(RowUpdate(id: id, valueStamp: change.nextStamp(replica: replica)))
        return commit(change)
    }

    private func appendMoves(of ids: [RowID], keys: ArraySlice<PositionKey>, to change: inout LocalChange) {
        for (id, key) in zip(ids, keys) {
            change.updates.append(RowUpdate(id: id, position: key, positionStamp: change.nextStamp(replica: replica)))
        }
    }

    /// Keys for `count` rows placed before the row at `destination`, ignoring the rows at `skipping`
    /// (ascending), which are the rows being moved.
    ///
    /// Keys of two rows can be equal (two replicas allocated the same key concurrently; the row ID
    /// breaks the tie). No key lies strictly between equal keys, so rows right after the destination
    /// that share the key of the row before it are displaced: they get keys after the new ones.
    private func place(
        count: Int, at destination: Int, skipping: [Int], jitterSeed: UInt64
    ) -> (keys: [PositionKey], displaced: [RowID]) {
        func isSkipped(_ index: Int) -> Bool {
            var low = 0
            var high = skipping.count
            while low < high {
                let middle = (low + high) / 2
                if skipping[middle] < index { low = middle + 1 } else { high = middle }
            }
            return low < skipping.count && skipping[low] == index
        }
        var lowerIndex = destination - 1
        while lowerIndex >= 0 && isSkipped(lowerIndex) { lowerIndex -= 1 }
        var upperIndex = destination
        while upperIndex < self.count && isSkipped(upperIndex) { upperIndex += 1 }
        let lower = lowerIndex >= 0 ? record(at: lowerIndex).key : nil
        var displaced: [RowID] = []
        while upperIndex < self.count, let lower, record(at: upperIndex).key == lower {
            displaced.append(record(at: upperIndex).id)
            upperIndex += 1
            while upperIndex < self.count && isSkipped(upperIndex) { upperIndex += 1 }
        }
        let upper = upperIndex < self.count ? record(at: upperIndex).key : nil
        let keys = allocator.allocate(
            count: count + displaced.count, after: lower, before: upper,
            jitter: SplitMix64.mix(replica.rawValue ^ jitterSeed))
        return (keys, displaced)
    }
}
