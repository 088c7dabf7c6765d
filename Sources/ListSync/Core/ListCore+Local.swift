/// Local operations: each is one atomic change whose operations get consecutive dots of this replica and
/// one Lamport time. They edit the order by index directly; only when rows with keys equal to the
/// destination's neighbour must be displaced do they build row updates and go through ``apply(_:)``.
extension ListCore {
    /// A local change under construction: one Lamport time, consecutive counters.
    private struct LocalChange {
        let replica: ReplicaID
        let lamport: UInt64
        let firstCounter: UInt64
        var used: UInt64 = 0
    }

    /// Whether local changes can get stamps: a Lamport time above the clock within
    /// ``Stamp/maximumLamport``, and counters, of which fewer than 2^32 left below ``Dot/maximumCounter``
    /// (more than any change uses) count as none. Only a peer or file that forges times or this
    /// replica's counters near the maximum brings that about; honest ones take 2^62 operations.
    @usableFromInline var canMakeOperations: Bool {
        clock < Stamp.maximumLamport && nextCounter <= Dot.maximumCounter - (1 << 32)
    }

    /// Starts a local change, or returns nil, changing nothing, when no counters are left
    /// (``canMakeOperations``); empties ``touched`` for it.
    ///
    /// Its Lamport time is one above the clock, so it wins over every register it overwrites.
    private mutating func beginChange() -> LocalChange? {
        touched.removeAll()
        guard canMakeOperations else { return nil }
        return LocalChange(replica: replica, lamport: clock + 1, firstCounter: nextCounter)
    }

    /// The stamp of `change`'s next operation, on `row` (nil: a new row, whose ID is the stamp's dot),
    /// noted in the journal.
    private mutating func nextStamp(_ change: inout LocalChange, for row: RowID? = nil) -> Stamp {
        let stamp = Stamp(
            lamport: change.lamport, dot: Dot(replica: change.replica, counter: change.firstCounter + change.used))
        change.used += 1
        journal.touch(row ?? stamp.dot)
        return stamp
    }

    private mutating func commit(_ change: LocalChange) {
        guard change.used > 0 else { return }
        let counters = change.firstCounter...(change.firstCounter + change.used - 1)
        // `beginChange` left at least 2^32 counters, more than any change uses.
        assert(counters.upperBound <= Dot.maximumCounter, "replica \(replica) used every operation counter")
        markLocal(counters, lamport: change.lamport)
        journal.record(counters)
    }

    /// Inserts `count` new rows as a block at `index`; their IDs are consecutive dots of this replica.
    /// - Returns: the change; `touched.valueSlots[i]` is the slot of the i-th new row.
    /// - Complexity: O(k log n)
    @usableFromInline
    mutating func insertRows(count: Int, at index: Int) -> ListChange {
        precondition(index >= 0 && index <= self.count, "insert index \(index) out of range 0...\(self.count)")
        guard var change = beginChange() else { return ListChange() }
        guard count > 0 else { return ListChange() }
        let displaced = place(count: count, at: index)
        if displaced.isEmpty {
            touched.valueSlots.reserveCapacity(count)
            for offset in 0..<count {
                let stamp = nextStamp(&change)
                let key = takePlacedKey(offset)
                let head = key.head
                let slot = rows.add(id: stamp.dot, key: consume key, positionStamp: stamp, valueStamp: stamp)
                putInOrder(slot, head: head, at: index + offset)
                touched.valueSlots.append(slot)
                typedCounter = stamp.dot.counter
            }
            commit(change)
            return ListChange(inserting: index..<(index + count))
        }
        var updates: [RowUpdate] = []
        for key in placedKeys.prefix(count) {
            let stamp = nextStamp(&change)
            updates.append(RowUpdate(id: stamp.dot, position: key, positionStamp: stamp, valueStamp: stamp))
        }
        let placeholderKeys = appendMoves(
            of: displaced, keys: placedKeys.dropFirst(count), to: &updates, change: &change)
        commit(change)
        return apply(updates, placeholderKeys: placeholderKeys)
    }

    /// Inserts one new row with `key`, which lies strictly between the keys of the entries around `index`.
    /// - Returns: the change; `touched.valueSlots[0]` is the new row's slot.
    /// - Complexity: O(log n)
    mutating func insertRow(key: PositionKey, at index: Int) -> ListChange {
        guard var change = beginChange() else { return ListChange() }
        let stamp = nextStamp(&change)
        let slot = rows.add(id: stamp.dot, key: key, positionStamp: stamp, valueStamp: stamp)
        order.insert(slot, bound: rows.bound(of: slot), at: index, rows: rows)
        commit(change)
        touched.valueSlots.append(slot)
        return ListChange(.inserted(index))
    }

    /// Moves the visible row at `source` so that it ends up at `destination` in the new rows (a table
    /// view's reorder); the one-row case of ``moveRows(at:to:)`` without its lists.
    /// - Complexity: O(log n)
    @usableFromInline
    mutating func moveRow(from source: Int, to destination: Int) -> ListChange {
        precondition(source >= 0 && source < count, "move source \(source) out of range 0..<\(count)")
        precondition(destination >= 0 && destination < count, "destination \(destination) out of range 0..<\(count)")
        guard var change = beginChange() else { return ListChange() }
        let slot = order.fingerSlot(at: source)
        rows.prefetch(slot)  // read when the row lands, after the descent and the key allocation
        precondition(!rows.isPlaceholder(slot), "a placeholder cannot be moved")
        guard source != destination else { return ListChange() }
        order.remove(at: source)
        let displaced = place(count: 1, at: destination)
        guard displaced.isEmpty else {
            order.insert(slot, bound: rows.bound(of: slot), at: source, rows: rows)
            return mergeMoves(of: [slot] + displaced, change: &change)
        }
        fingerBeforeLanding(at: destination)
        land(slot, key: takePlacedKey(0), at: destination, change: &change)
        commit(change)
        return ListChange(.moved(ListChange.Move(from: source, to: destination)))
    }

    /// Moves the visible rows at `offsets` (ascending, unique) as a block so they land before the row
    /// that was at `destination` (an index in the original rows, as in SwiftUI's `move(fromOffsets:toOffset:)`).
    /// - Complexity: O(k log n)
    @usableFromInline
    mutating func moveRows(at offsets: CompactArray<Int>, to destination: Int) -> ListChange {
        precondition(destination >= 0 && destination <= count, "destination \(destination) out of range 0...\(count)")
        guard var change = beginChange() else { return ListChange() }
        guard let first = offsets.first, let last = offsets.last else { return ListChange() }
        precondition(first >= 0 && last < count, "move offsets out of range 0..<\(count)")
        let moving = order.fingerSlots(at: offsets)
        for slot in moving { rows.prefetch(slot) }
        precondition(moving.allSatisfy { !rows.isPlaceholder($0) }, "a placeholder cannot be moved")
        // Already contiguous and landing where they are: nothing to do.
        if last - first + 1 == offsets.count && destination >= first && destination <= last + 1 { return ListChange() }
        // Take the rows out first (the finger is in the leaf of the last one), then place them among the
        // remaining rows.
        order.remove(atOffsets: offsets)
        let target = destination - offsets.lazy.filter { $0 < destination }.count
        let displaced = place(count: offsets.count, at: target)
        guard displaced.isEmpty else {
            // Rows must be displaced: put the moving rows back where they were and merge the moves.
            for (offset, slot) in zip(offsets, moving) {
                order.insert(slot, bound: rows.bound(of: slot), at: offset, rows: rows)
            }
            return mergeMoves(of: moving + displaced, change: &change)
        }
        fingerBeforeLanding(at: target)
        var moved = CompactArray<ListChange.Move>()
        moved.reserveCapacity(offsets.count)
        for offset in moving.indices {  // by index: zipping the keys in costs a generic tuple destroy per row
            land(moving[offset], key: takePlacedKey(offset), at: target + offset, change: &change)
            moved.append(ListChange.Move(from: offsets[offset], to: target + offset))
        }
        moved.sort { $0.from < $1.from }
        commit(change)
        return ListChange(moving: moved)
    }

    /// Moves the order's finger to the row at `index - 1`, after which moving rows land: placing them may
    /// have moved it on to the next leaf, and inserting in the finger's leaf needs no descent.
    private mutating func fingerBeforeLanding(at index: Int) {
        if index > 0 { _ = order.fingerSlot(at: index - 1) }
    }

    /// Gives the moving row in `slot`, taken out of the order, the position `key` (from ``place(count:at:)``)
    /// and puts it back in at `index`.
    @inline(__always)
    private mutating func land(_ slot: Int32, key: consuming PositionKey, at index: Int, change: inout LocalChange) {
        let head = key.head
        rows.setPosition(key, stamp: nextStamp(&change, for: rows.id(of: slot)), of: slot)
        putInOrder(slot, head: head, at: index)
    }

    /// Inserts the row in `slot`, whose key has the head `head`, in the order at `index`: in the finger's
    /// leaf when it holds the place, else with a descent, after which the finger is in the row's leaf,
    /// so that the next rows of a block go in without one.
    @inline(__always)
    private mutating func putInOrder(_ slot: Int32, head: UInt64, at index: Int) {
        guard !order.insertAtFinger(slot, head: head, at: index) else { return }
        order.insert(slot, bound: rows.bound(of: slot), at: index, rows: rows)
        _ = order.fingerSlot(at: index)
    }

    /// The key at `offset` of ``placedKeys``, moved out (an empty key left in its place) rather than
    /// copied: a copy of a key went through the generic value witness of its optional tail, about 80
    /// instructions a row on every local insert and move.
    private mutating func takePlacedKey(_ offset: Int) -> PositionKey {
        var key = PositionKey(word0: 0, word1: 0, word2: 0, tail: nil, count: 0)
        swap(&key, &placedKeys[offset])
        return key
    }

    /// Commits moves of the rows in `slots` (back in the order where they were) to ``placedKeys`` through
    /// ``apply(_:placeholderKeys:)``, for moves that displace rows with equal keys.
    private mutating func mergeMoves(of slots: [Int32], change: inout LocalChange) -> ListChange {
        var updates: [RowUpdate] = []
        let placeholderKeys = appendMoves(of: slots, keys: placedKeys[...], to: &updates, change: &change)
        commit(change)
        return apply(updates, placeholderKeys: placeholderKeys)
    }

    /// Deletes the visible rows at `offsets` (ascending, unique).
    /// - Complexity: O(k log n)
    @usableFromInline
    mutating func removeRows(at offsets: CompactArray<Int>) -> ListChange {
        guard var change = beginChange() else { return ListChange() }
        guard !offsets.isEmpty else { return ListChange() }
        precondition(offsets.first! >= 0 && offsets.last! < count, "remove offsets out of range 0..<\(count)")
        let removing = order.fingerSlots(at: offsets)
        precondition(!removing.contains { rows.isPlaceholder($0) }, "remove a placeholder with removePlaceholder")
        order.remove(atOffsets: offsets)
        for slot in removing {
            let id = rows.id(of: slot)
            tombstones.insertNew(id, deletedBy: nextStamp(&change, for: id))
            if !fieldRegisters.isEmpty { fieldRegisters[id] = nil }
            rows.remove(slot)
            touched.freedSlots.append(slot)
        }
        commit(change)
        return ListChange(removing: offsets)
    }

    /// Sets a new value stamp on the visible row at `index` (the caller stores the value).
    /// - Returns: the change; `touched.valueSlots[0]` is the row's slot.
    /// - Complexity: O(log n)
    @usableFromInline
    mutating func updateRow(at index: Int) -> ListChange {
        precondition(index >= 0 && index < count, "update index \(index) out of range 0..<\(count)")
        let slot = order.slot(at: index)
        precondition(rows.placeholder(of: slot) == nil, "a placeholder's value comes with its commit")
        guard var change = beginChange() else { return ListChange() }
        let id = rows.id(of: slot)
        rows.setValueStamp(nextStamp(&change, for: id), of: slot)
        if !fieldRegisters.isEmpty { fieldRegisters[id] = nil }  // older than the new whole value
        commit(change)
        touched.valueSlots.append(slot)
        return ListChange(.updated(index))
    }

    /// Sets field registers on the visible row at `index`: one operation, whose stamp every register in
    /// `writes` (a fragment, or nil for a removed field) gets; the caller stores the new visible value.
    /// - Returns: the change; `touched.valueSlots[0]` is the row's slot.
    /// - Complexity: O(log n + k) for k fields.
    @usableFromInline
    mutating func updateFields(at index: Int, _ writes: [String: [UInt8]?]) -> ListChange {
        precondition(index >= 0 && index < count, "update index \(index) out of range 0..<\(count)")
        let slot = order.slot(at: index)
        precondition(rows.placeholder(of: slot) == nil, "a placeholder's value comes with its commit")
        guard var change = beginChange() else { return ListChange() }
        let id = rows.id(of: slot)
        let stamp = nextStamp(&change, for: id)
        var registers = fieldRegisters[id] ?? [:]
        for (name, fragment) in writes { registers[name] = FieldRegister(stamp: stamp, fragment: fragment) }
        fieldRegisters[id] = registers
        commit(change)
        touched.valueSlots.append(slot)
        return ListChange(.updated(index))
    }

    /// Appends a move of each row in `slots` to its key; returns the placeholders among them with their
    /// new keys, which are re-keyed locally without an operation.
    private mutating func appendMoves(
        of slots: [Int32], keys: ArraySlice<PositionKey>, to updates: inout [RowUpdate], change: inout LocalChange
    ) -> [(slot: Int32, key: PositionKey)] {
        var placeholderKeys: [(slot: Int32, key: PositionKey)] = []
        for (slot, key) in zip(slots, keys) {
            guard rows.placeholder(of: slot) == nil else {
                placeholderKeys.append((slot, key))
                continue
            }
            let id = rows.id(of: slot)
            updates.append(RowUpdate(id: id, position: key, positionStamp: nextStamp(&change, for: id)))
        }
        return placeholderKeys
    }

    /// Puts in ``placedKeys`` the keys for `count` rows placed before the row at `destination`, and
    /// returns the rows displaced.
    ///
    /// Keys of two rows can be equal (two replicas allocated the same key concurrently; the row ID
    /// breaks the tie). No key lies strictly between equal keys, so rows right after the destination
    /// that share the key of the row before it are displaced (by slot): they get keys after the new ones.
    /// A displaced placeholder is re-keyed locally; it stays right after the new rows.
    ///
    /// Right after the row a local insert placed last, with the key it was given (typing on), the
    /// allocator continues its run without that row's key being read.
    private mutating func place(count: Int, at destination: Int) -> [Int32] {
        // Neighbours are usually in one leaf: the order's finger descends only when leaving the last leaf
        // read (where the caller then inserts without a descent).
        let typed = typedCounter
        typedCounter = 0
        let typingOn =
            typed != 0 && destination > 0
            && rows.hasInsertedKey(order.fingerSlot(at: destination - 1), id: RowID(replica: replica, counter: typed))
        var upperIndex = destination
        var upper = upperIndex < self.count ? order.fingerKey(at: upperIndex, rows: rows) : .empty
        placedKeys.removeAllKeepingSmallBuffer()
        // Typing on after the row typed last: its key is not read.
        if typingOn && allocator.continueRun(count: count, before: upper, into: &placedKeys) { return [] }
        let lower = destination > 0 ? order.fingerKey(at: destination - 1, rows: rows) : .empty
        var displaced: [Int32] = []
        while upper.count > 0 && upper == lower {
            displaced.append(order.fingerSlot(at: upperIndex))
            upperIndex += 1
            upper = upperIndex < self.count ? order.fingerKey(at: upperIndex, rows: rows) : .empty
        }
        allocator.allocate(count: count + displaced.count, after: lower, before: upper, into: &placedKeys)
        return displaced
    }
}
