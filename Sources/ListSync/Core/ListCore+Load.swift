/// Merging into a replica that knows nothing yet: loading a snapshot, or a new replica's first sync.
extension ListCore {
    /// Whether the replica holds no rows, tombstones or placeholders and its row table never used a slot
    /// (a withdrawn placeholder leaves a free one), so ``applyToEmpty(_:)`` applies.
    var isEmpty: Bool { rows.slotCount == 0 && tombstones.isEmpty }

    /// Rows being added to an empty replica: the visible ones, and whether they came in order.
    private struct BulkLoad {
        var visible: [Int32] = []
        var sorted = true
    }

    /// Adds one update of a bulk load, its ID not indexed yet (``finishIndexing()``); returns the slot
    /// whose value it sets, if any. `hides`: its value is one the owner cannot show.
    ///
    /// Every update is new here, so no register is compared: a row is added with the registers it
    /// carries.
    private mutating func add(
        _ update: consuming RowUpdate, fields: FieldRegisters? = nil, hides: Bool = false, to load: inout BulkLoad
    ) -> Int32? {
        clock = max(clock, update.maxLamport)
        if let fields {
            for register in fields.values { clock = max(clock, register.stamp.lamport) }
            fieldRegisters[update.id] = fields
        }
        guard update.positionStamp.isSet || update.valueStamp.isSet || fields != nil else { return nil }
        // The key moves from the update into the record (no copy of its bytes to count or release).
        let position = update.positionStamp.isSet ? update.position.take()! : RowRecord.unsetKey
        let slot = rows.addUnindexed(
            id: update.id, key: position, positionStamp: update.positionStamp, valueStamp: update.valueStamp)
        if hides { rows.setHidden(true, slot) }
        if update.positionStamp.isSet && update.valueStamp.isSet && !hides {
            if let previous = load.visible.last, !rows.precedes(previous, slot) { load.sorted = false }
            load.visible.append(slot)
        }
        return update.valueStamp.isSet ? slot : nil
    }

    /// Adds the deleted rows of a bulk load, not indexed yet (``finishIndexing()``).
    private mutating func add(_ deletions: [DeletionRun]) {
        for run in deletions {
            clock = max(clock, run.maxLamport)
            tombstones.insertUnindexed(run)
        }
    }

    /// Indexes the IDs of the rows and tombstones of a bulk load; returns false when two share an ID.
    private mutating func finishIndexing() -> Bool {
        rows.indexUnindexedRows() && tombstones.indexUnindexed(unlessIn: rows)
    }

    /// Builds the order index from a finished bulk load, whose visible rows are then the list's first
    /// `load.visible.count` (the only rows).
    private mutating func finish(_ load: consuming BulkLoad) {
        if !load.sorted { load.visible.sort { rows.bound(of: $0) < rows.bound(of: $1) } }
        order = OrderIndex(sorted: load.visible, reservingFor: Self.withHeadroom(load.visible.count), rows: rows)
    }

    /// Merges `updates` (unique row IDs) and `deletions` (ordered, disjoint runs of other rows) into an
    /// empty replica in bulk; the same result as ``apply(_:deletions:fields:placeholderKeys:hiding:)``.
    ///
    /// The visible rows, which come sorted in the canonical order of a change set, make the order index
    /// bottom-up.
    /// - Precondition: ``isEmpty``.
    /// - Complexity: O(k + d) for k updates in canonical order and d runs, O(k log k + d) otherwise.
    mutating func applyToEmpty(_ updates: [RowUpdate], deletions: [DeletionRun], hiding: Set<Int>) -> ListChange {
        precondition(isEmpty, "bulk merge into a replica that holds rows")
        touched.removeAll()
        touched.valueSlots.reserveCapacity(updates.count)
        rows.reserveCapacity(adding: Self.withHeadroom(updates.count))
        var load = BulkLoad()
        load.visible.reserveCapacity(updates.count)
        for (offset, update) in updates.enumerated() {
            let hides = !hiding.isEmpty && hiding.contains(offset) && update.valueStamp.isSet
            touched.valueSlots.append(add(update, hides: hides, to: &load))
        }
        add(deletions)
        let unique = finishIndexing()
        precondition(unique, "bulk merge of a row twice")
        let inserted = load.visible.count
        finish(load)
        return ListChange(inserted: CompactArray(0..<inserted))
    }

    /// Hides the values of the rows in `slots`, which the owner cannot show: visible ones leave the
    /// order (a snapshot's values are decoded after its rows are loaded).
    /// - Complexity: O(k log n) for k slots.
    @usableFromInline
    mutating func hide(_ slots: [Int32]) {
        for slot in slots {
            if rows.isVisible(slot) { order.remove(at: order.lowerBound(rows.bound(of: slot), rows: rows)) }
            rows.setHidden(true, slot)
        }
    }

    /// The values of a loaded snapshot, still encoded: for each, the slot it belongs to.
    @usableFromInline
    struct EncodedValues {
        /// The slot of each value.
        @usableFromInline var slots: [Int32] = []
        /// Each value's type (an index into `types`) and bytes (a range of the snapshot).
        @usableFromInline var values: [EncodedUpdates.Value] = []
        /// The type identifiers of the snapshot.
        @usableFromInline var types: [String] = []
    }

    /// Loads a snapshot into this empty replica, reading its updates straight into the rows, the
    /// tombstones and the order index; returns the values for the caller to decode.
    ///
    /// Checks what merging the decoded change set would check: a well-formed encoding, unique row IDs,
    /// every operation accounted for. On error the replica is left half-loaded: discard it.
    /// - Precondition: ``isEmpty``.
    /// - Complexity: O(k) for k updates in canonical order.
    @usableFromInline
    mutating func load(snapshot bytes: [UInt8]) throws(MergeError) -> EncodedValues {
        precondition(isEmpty, "loading a snapshot into a replica that holds rows")
        return try bytes.withUnsafeBufferPointer { buffer throws(MergeError) in try load(reading: buffer) }
    }

    /// ``load(snapshot:)`` reading the snapshot's memory, `buffer`.
    private mutating func load(reading buffer: UnsafeBufferPointer<UInt8>) throws(MergeError) -> EncodedValues {
        var values = EncodedValues()
        do {
            var encoded = try EncodedUpdates(buffer, as: .snapshot)
            values.types = encoded.types
            // An empty replica labels replicas as the snapshot ranks them: its keys are then taken as they are.
            labels = ReplicaLabels(ranksOf: encoded.replicas, and: replica)
            allocator = KeyAllocator(tag: labels.label(of: replica))
            encoded.labelKeys(with: encoded.replicas.map { labels.label(of: $0).bytes })
            LargeTables.reserve(&values.slots, capacity: encoded.count)
            LargeTables.reserve(&values.values, capacity: encoded.count)
            // Before version 6, deleted rows are entries of the update columns too.
            let deletedEntries = try encoded.deletionCount()
            rows.reserveCapacity(adding: Self.withHeadroom(encoded.count - deletedEntries))
            tombstones.reserveCapacity(Self.withHeadroom(deletedEntries))
            var coverage = CoverageCheck(coverage: encoded.coverage, seen: seen)
            var load = BulkLoad()
            LargeTables.reserve(&load.visible, capacity: encoded.count - deletedEntries)
            for _ in 0..<encoded.count {
                var value: EncodedUpdates.Value?
                guard let update = try encoded.next(value: &value) else { continue }
                if let stamp = coverage.firstUncovered(in: update) {
                    throw MergeError.uncoveredOperation(row: update.id, operation: stamp.dot)
                }
                let fields = encoded.fields
                if let fields {
                    for register in fields.values where !coverage.isAccounted(register.stamp.dot) {
                        throw MergeError.uncoveredOperation(row: update.id, operation: register.stamp.dot)
                    }
                }
                keepCountersAbove(update.id)  // merge does it for the other callers of add
                let slot = add(update, fields: fields, to: &load)
                if let slot, let value {
                    values.slots.append(slot)
                    values.values.append(value)
                }
            }
            try encoded.expectEnd()
            let deletions = try encoded.deletions()
            for run in deletions {
                if let (row, stamp) = coverage.firstUncovered(in: run) {
                    throw MergeError.uncoveredOperation(row: row, operation: stamp.dot)
                }
                keepCountersAbove(RowID(replica: run.replica, counter: run.end - 1))
            }
            add(deletions)
            guard finishIndexing() else { throw BinaryDecodingError.notCanonical(offset: encoded.rowIDsOffset) }
            markSeen(encoded.coverage)
            finish(load)
        } catch let error as MergeError {
            throw error
        } catch let error as BinaryDecodingError {
            throw .malformed(error)
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
        return values
    }
}
