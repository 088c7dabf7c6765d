/// A replica's state and merge rules, independent of the element type.
///
/// Holds the rows (registers by slot), the tombstones of deleted rows, the visible order, what the
/// replica has seen (exact dot ranges) and its Lamport clock. Every state change, local or merged,
/// goes through ``apply(_:)`` (merges, and local operations that must displace rows with equal keys) or a
/// local fast path that edits the order by index; both compute the change batch. Pure and synchronous:
/// no I/O, no clock, no randomness beyond what it derives from its inputs.
///
/// A struct so that its owner mutates it in place without per-access exclusivity checks; it holds the
/// order index's nodes by reference, so it must never be copied: exactly one ``ReplicatedList`` owns it.
@usableFromInline
struct ListCore {
    /// This replica's identity.
    let replica: ReplicaID
    /// The Lamport clock: the highest Lamport time seen or made.
    var clock: UInt64 = 0
    /// Every operation seen, exactly, but for the latest local counters (``localRun``).
    private var seenBeforeLocalRun = DotRanges()
    /// This replica's latest consecutive counters, kept out of ``seenBeforeLocalRun`` so that recording a
    /// local change is a comparison instead of an update of nested arrays.
    private var localRun: ClosedRange<UInt64>?
    /// Rows known and not deleted.
    @usableFromInline var rows = RowTable()
    /// Visible rows in order.
    @usableFromInline var order = OrderIndex()
    /// Deleted rows and the stamp of (the least) delete; a deletion is final.
    var tombstones = Tombstones()
    /// The field registers of rows whose values are JSON objects, each newer than its row's value stamp
    /// (docs/field-registers.md); rows without any have no entry.
    @usableFromInline var fieldRegisters: [RowID: FieldRegisters] = [:]
    /// The labels of the replicas this replica's keys name (keys enter and leave in portable form).
    var labels: ReplicaLabels
    /// Local run state for position keys.
    var allocator: KeyAllocator
    /// The keys the latest local insert or move placed, in a buffer kept between operations so that
    /// placing allocates nothing.
    var placedKeys: [PositionKey] = []
    /// The counter of the row a local insert placed last, while no allocation has been made since (0:
    /// none): while that row keeps the key its insert gave it, the key is one of the allocator's latest
    /// run, so typing after it continues that run without the key being read
    /// (``KeyAllocator/continueRun(count:before:into:)``).
    var typedCounter: UInt64 = 0
    /// The rows touched by the latest local changes, so the change set of a recent local change is
    /// cheap to make.
    var journal = LocalJournal()
    /// The number of the next placeholder; local, never replicated.
    var nextPlaceholder: UInt64 = 1
    /// The slots the latest change touched, for the owner to update the values it keeps by slot.
    @usableFromInline var touched = TouchedSlots()

    /// Creates an empty replica.
    init(replica: ReplicaID) {
        self.replica = replica
        labels = ReplicaLabels(replica: replica)
        allocator = KeyAllocator(tag: labels.label(of: replica))
    }

    /// The number of visible rows, placeholders included.
    @usableFromInline var count: Int { order.count }

    /// The room reserved for `count` rows, tombstones or index entries built in bulk (a load, a large
    /// merge): an eighth more, so that the first edits after opening a large list do not grow every table
    /// at once (a later growth copies a table, as usual, in amortized O(1)).
    static func withHeadroom(_ count: Int) -> Int { count + count / 8 }

    /// The slot of the visible row or placeholder at `index`.
    @usableFromInline func slot(at index: Int) -> Int32 { order.slot(at: index) }

    /// The record of the visible row at `index`.
    func record(at index: Int) -> RowRecord { rows[order.slot(at: index)] }

    /// The index of the visible row `id`.
    /// - Complexity: O(log n)
    func index(of id: RowID) -> Int? {
        guard let slot = rows.slot(of: id), rows.isVisible(slot) else { return nil }
        return order.lowerBound(rows.bound(of: slot), rows: rows)
    }

    /// Starts loading the buckets that looking up `id` among the tombstones and the rows reads.
    private func prefetchLookups(of id: RowID) {
        tombstones.prefetchLookup(of: id)
        rows.prefetchLookup(of: id)
    }

    /// Whether the row `id` was deleted.
    func isDeleted(_ id: RowID) -> Bool { tombstones[id] != nil }

    /// The counter the next local operation gets: above every counter of this replica ever seen, so a
    /// replica that lost state and hears of its own older operations never reuses a dot, and at least
    /// the floor set by ``raiseNextCounter(to:)``. Kept up to date by every change to ``seen``.
    private(set) var nextCounter: UInt64 = 1

    /// Makes local operations use counters from `counter` up (durable storage after a restart).
    mutating func raiseNextCounter(to counter: UInt64) {
        nextCounter = max(nextCounter, counter)
    }

    /// Every operation seen, exactly.
    var seen: DotRanges {
        guard let localRun else { return seenBeforeLocalRun }
        var seen = seenBeforeLocalRun
        seen.insert(localRun, of: replica)
        return seen
    }

    /// The version vector: exactly the operations seen.
    var versionVector: VersionVector { seen.versionVector }

    /// Merges `updates` (unique row IDs) and `deletions` (ordered, disjoint runs of other rows) into the
    /// state and reports the change to the visible rows; the slots it touched are in ``touched``.
    ///
    /// Per register the greater stamp wins; a deletion removes the row for good. Rows that move or
    /// leave are taken out of the order first, then rows that move or appear are put in by key, so
    /// old indexes refer to the old order and new indexes to the new one. Placeholders keep their keys,
    /// except those in `placeholderKeys` (slot and new key): a local operation that must displace a
    /// placeholder with a key equal to its new neighbour's re-keys it locally, reported as a move.
    /// The updates at offsets in `hiding` carry values the owner cannot show: a row whose value one of
    /// them sets is hidden (it leaves the order, reported as removed), and shown again, reported as
    /// inserted, when a value the owner can show replaces it. `fields` holds field registers by row: each
    /// is merged into the row's (``FieldRegisters/merge(_:newerThan:)``), and a row whose registers
    /// change counts as taking a value (its slot is in ``touched``, its index among the updated), while
    /// its hiding is left to the owner (``setHidden(_:)``).
    /// - Complexity: O(k log n) for k updates and deleted rows; O(k) into an empty replica
    ///   (``applyToEmpty(_:deletions:hiding:)``).
    mutating func apply(
        _ updates: [RowUpdate], deletions: [DeletionRun] = [], fields: [RowID: FieldRegisters] = [:],
        placeholderKeys: [(slot: Int32, key: PositionKey)] = [], hiding: Set<Int> = []
    ) -> ListChange {
        if placeholderKeys.isEmpty && fields.isEmpty && isEmpty {
            return applyToEmpty(updates, deletions: deletions, hiding: hiding)
        }
        touched.removeAll()
        struct Plan {
            var slot: Int32?
            var wasVisible = false
            var oldIndex = -1
            var takesPosition = false
            /// Whether the row's visible value changes: it takes the whole value or its field registers change.
            var takesValue = false
            var takesWhole = false
            /// Whether the value it takes is one the owner cannot show.
            var hides = false
        }
        var plans: [Plan] = []
        plans.reserveCapacity(updates.count)
        rows.reserveCapacity(adding: updates.count)
        let distance = Int(RowIDIndex.prefetchDistance)
        for (offset, update) in updates.enumerated() {
            // The lookups below are cache misses: start those of a later update now.
            if offset + distance < updates.count { prefetchLookups(of: updates[offset + distance].id) }
            clock = max(clock, update.maxLamport)
            let incomingFields = fields.isEmpty ? nil : fields[update.id]
            if let incomingFields {
                for register in incomingFields.values { clock = max(clock, register.stamp.lamport) }
            }
            // A live row is never a tombstone: the tombstones are looked up only for the others.
            let slot = rows.slot(of: update.id)
            if slot == nil, tombstones[update.id] != nil {
                plans.append(Plan())
                continue
            }
            var plan = Plan(slot: slot)
            let valueStamp = plan.slot.map(rows.valueStamp(of:)) ?? .none
            plan.wasVisible = plan.slot.map(rows.isVisible) ?? false
            plan.takesPosition = update.positionStamp > (plan.slot.map(rows.positionStamp(of:)) ?? .none)
            plan.takesWhole = update.valueStamp > valueStamp
            plan.takesValue = plan.takesWhole
            plan.hides = plan.takesWhole && !hiding.isEmpty && hiding.contains(offset)
            if incomingFields != nil || (plan.takesWhole && !fieldRegisters.isEmpty) {
                let whole = plan.takesWhole ? update.valueStamp : valueStamp
                if mergeFields(of: update.id, incomingFields ?? [:], whole: whole) { plan.takesValue = true }
            }
            if plan.wasVisible && (plan.takesPosition || plan.hides) {
                plan.oldIndex = order.lowerBound(rows.bound(of: plan.slot!), rows: rows)
            }
            plans.append(plan)
        }
        for (slot, _) in placeholderKeys {
            let oldIndex = order.lowerBound(rows.bound(of: slot), rows: rows)
            plans.append(Plan(slot: slot, wasVisible: true, oldIndex: oldIndex, takesPosition: true))
        }
        // The rows the deletions remove, with their indexes before (-1 for rows not visible).
        var deleted: [(slot: Int32, oldIndex: Int)] = []
        for run in deletions { clock = max(clock, run.maxLamport) }
        for slot in rows.slots(in: deletions) {
            deleted.append((slot, rows.isVisible(slot) ? order.lowerBound(rows.bound(of: slot), rows: rows) : -1))
        }

        for oldIndex in (plans.lazy.map(\.oldIndex) + deleted.lazy.map(\.oldIndex)).filter({ $0 >= 0 }).sorted(by: >) {
            order.remove(at: oldIndex)
        }
        for (slot, _) in deleted {
            if !fieldRegisters.isEmpty { fieldRegisters[rows.id(of: slot)] = nil }
            rows.remove(slot)
            touched.freedSlots.append(slot)
        }
        tombstones.insert(contentsOf: deletions)

        touched.valueSlots.reserveCapacity(updates.count)
        for (offset, update) in updates.enumerated() {
            var plan = plans[offset]
            if plan.slot == nil && (plan.takesPosition || plan.takesValue) {
                plan.slot = rows.add(
                    id: update.id, key: RowRecord.unsetKey, positionStamp: .none, valueStamp: .none)
                plans[offset].slot = plan.slot
            }
            if plan.takesPosition, let slot = plan.slot {
                rows.setPosition(update.position!, stamp: update.positionStamp, of: slot)
            }
            if plan.takesWhole, let slot = plan.slot {
                rows.setValueStamp(update.valueStamp, of: slot)
                rows.setHidden(plan.hides, slot)
            }
            touched.valueSlots.append(plan.takesValue ? plan.slot : nil)
        }
        for (slot, key) in placeholderKeys { rows.setPlaceholderKey(key, of: slot) }

        var entered: [Int] = []  // offsets of rows put into the order
        for (offset, plan) in plans.enumerated() {
            guard let slot = plan.slot, rows.isVisible(slot) || rows.placeholder(of: slot) != nil else { continue }
            guard plan.oldIndex >= 0 || !plan.wasVisible else { continue }
            entered.append(offset)
        }
        // Many rows at once (loading a snapshot, a long-offline peer): sort them and rebuild the order
        // in O(n log n) instead of searching for each one.
        var indexOfSlot: [Int]?
        if entered.count > 256 && entered.count > order.count / 2 {
            var slots = entered.map { plans[$0].slot! }
            slots.sort { rows.bound(of: $0) < rows.bound(of: $1) }
            var merged: [Int32] = []
            merged.reserveCapacity(order.count + slots.count)
            var pending = slots[...]
            order.forEachInOrder { existing in
                let bound = rows.bound(of: existing)
                while let next = pending.first, rows.bound(of: next) < bound {
                    merged.append(next)
                    pending = pending.dropFirst()
                }
                merged.append(existing)
            }
            merged.append(contentsOf: pending)
            order = OrderIndex(sorted: merged, reservingFor: Self.withHeadroom(merged.count), rows: rows)
            var positions = [Int](repeating: -1, count: rows.slotCount)
            for (index, slot) in merged.enumerated() { positions[Int(slot)] = index }
            indexOfSlot = positions
        } else {
            for offset in entered {
                let slot = plans[offset].slot!
                let bound = rows.bound(of: slot)
                order.insert(slot, bound: bound, at: order.lowerBound(bound, rows: rows), rows: rows)
            }
        }
        func newIndex(of slot: Int32) -> Int {
            indexOfSlot?[Int(slot)] ?? order.lowerBound(rows.bound(of: slot), rows: rows)
        }

        // The lists are built apart and handed to the batch at the end: editing a batch's lists in
        // place goes through its shared box, with an access check per element.
        var removed = CompactArray<Int>()
        var inserted = CompactArray<Int>()
        var moved = CompactArray<ListChange.Move>()
        var updated = CompactArray<Int>()
        for plan in plans where plan.oldIndex >= 0 && plan.hides { removed.append(plan.oldIndex) }
        for (_, oldIndex) in deleted where oldIndex >= 0 { removed.append(oldIndex) }
        for offset in entered {
            let plan = plans[offset]
            if plan.wasVisible {
                moved.append(ListChange.Move(from: plan.oldIndex, to: newIndex(of: plan.slot!)))
            } else {
                inserted.append(newIndex(of: plan.slot!))
            }
        }
        for plan in plans where plan.takesValue && plan.wasVisible && !plan.hides {
            updated.append(newIndex(of: plan.slot!))
        }
        removed.sort()
        inserted.sort()
        moved.sort { $0.from < $1.from }
        updated.sort()
        return ListChange(removed: removed, inserted: inserted, moved: moved, updated: updated)
    }

    /// Merges `incoming` into the field registers of row `id`, whose whole-value register has stamp
    /// `whole` (after this merge); returns whether they changed.
    private mutating func mergeFields(of id: RowID, _ incoming: FieldRegisters, whole: Stamp) -> Bool {
        var registers = fieldRegisters[id] ?? [:]
        let dropped = registers.dropRegisters(notNewerThan: whole)
        let merged = registers.merge(incoming, newerThan: whole)
        fieldRegisters[id] = registers.isEmpty ? nil : registers
        return dropped || merged
    }

    /// Hides (`true`) or shows again (`false`) the rows in `slots`, as the owner decided from their
    /// visible values after a merge of field registers; returns the change: a visible row that hides is
    /// removed, a hidden row that shows is inserted (once its position and value are known).
    /// - Complexity: O(k log n) for k slots.
    @usableFromInline
    mutating func setHidden(_ slots: [(slot: Int32, hides: Bool)]) -> ListChange {
        var removed: [Int] = []
        for (slot, hides) in slots where hides && rows.isVisible(slot) {
            removed.append(order.lowerBound(rows.bound(of: slot), rows: rows))
        }
        removed.sort(by: >)
        for index in removed { order.remove(at: index) }
        var shown: [Int32] = []
        for (slot, hides) in slots {
            let wasHidden = rows.hidden.contains(slot)
            rows.setHidden(hides, slot)
            if !hides && wasHidden && rows.isVisible(slot) {
                let bound = rows.bound(of: slot)
                order.insert(slot, bound: bound, at: order.lowerBound(bound, rows: rows), rows: rows)
                shown.append(slot)
            }
        }
        let inserted = shown.map { order.lowerBound(rows.bound(of: $0), rows: rows) }.sorted()
        return ListChange(removed: CompactArray(removed.reversed()), inserted: CompactArray(inserted))
    }

    /// Records operations as seen.
    mutating func markSeen(_ ranges: DotRanges) {
        seenBeforeLocalRun.formUnion(ranges)
        nextCounter = max(nextCounter, seenBeforeLocalRun.upperBound(of: replica) + 1)
    }

    /// Keeps local counters above `id`'s when it is a row ID of this replica: a change set or snapshot
    /// may carry such a row whose insert this replica never saw (an edit, move or delete of it, from a
    /// buggy or hostile peer), and a later local insert must not take its ID.
    @inline(__always)
    mutating func keepCountersAbove(_ id: RowID) {
        // Decoded counters are at most Dot.maximumCounter; the min keeps any other value from trapping.
        if id.replica == replica && id.counter >= nextCounter { nextCounter = min(id.counter, Dot.maximumCounter) + 1 }
    }

    /// Records this replica's counters `counters` as seen and advances the clock to `lamport`.
    mutating func markLocal(_ counters: ClosedRange<UInt64>, lamport: UInt64) {
        if let run = localRun, counters.lowerBound == run.upperBound &+ 1 {
            localRun = ClosedRange(uncheckedBounds: (run.lowerBound, counters.upperBound))
        } else {
            if let run = localRun { seenBeforeLocalRun.insert(run, of: replica) }
            localRun = counters
        }
        nextCounter = max(nextCounter, counters.upperBound + 1)
        clock = max(clock, lamport)
    }
}

/// The slots one change touched: where values were set and which slots were freed. Kept in the replica
/// between changes, so that a change allocates nothing for them.
@usableFromInline
struct TouchedSlots {
    /// For each update (or new row) of the change, in order, the slot whose value register it set; nil
    /// when its value lost or was absent.
    @usableFromInline var valueSlots: [Int32?] = []
    /// Slots released by deletes and withdrawn placeholders.
    @usableFromInline var freedSlots: [Int32] = []

    /// Empties both lists for a new change.
    mutating func removeAll() {
        valueSlots.removeAllKeepingSmallBuffer()
        freedSlots.removeAllKeepingSmallBuffer()
    }
}

extension Array {
    /// Removes every element of a buffer reused from change to change, keeping the buffer unless it
    /// grew past 1,024 elements (a large batch), which is released instead.
    ///
    /// One at a time: `removeAll(keepingCapacity:)` takes a generic path several times slower, and
    /// most buffers emptied here hold one or a few elements.
    @inline(__always)
    mutating func removeAllKeepingSmallBuffer() {
        guard !isEmpty else { return }
        guard capacity <= 1024 else {
            self = []
            return
        }
        while !isEmpty { removeLast() }
    }
}
