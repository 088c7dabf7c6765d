/// Combining change sets: one merge instead of many (replaying a log, catching up a long backlog).
extension ChangeSet {
    /// One change set whose merge has the effect of merging every one of `changeSets` in turn.
    ///
    /// Per row it keeps the greatest stamp of each register (with its key, value or field) and, for a deleted
    /// row, only the least delete stamp, as tombstones do; the coverage is the union of theirs. A
    /// replica that merges the result ends with the same rows, tombstones and version vector as one
    /// that merged them one by one (validation is of the whole: an operation one change set does not
    /// account for may be accounted for by another).
    ///
    /// ```swift
    /// let backlog = ChangeSet(combining: received)  // many small change sets
    /// try list.merge(backlog)                        // one tree search per row at most, not per change set
    /// ```
    /// - Complexity: O(u + k log k) for u updates in all and k distinct rows.
    public init(combining changeSets: some Sequence<ChangeSet>) {
        var combination = Combination()
        for changes in changeSets { combination.add(changes) }
        self = combination.combined()
    }

    /// ``init(combining:)`` one change set at a time, so that a caller decoding many (a log being
    /// replayed) keeps only their combination, not all of them.
    package struct Combination: Sendable {
        private var coverage = DotRanges()
        /// The offset of each row's update in ``updates`` (a list's rows are Int32-indexed too).
        private var offsets = RowIDIndex()
        private var updates: [RowUpdate] = []
        private var payloads: [Payload?] = []
        private var fields: [RowID: FieldRegisters] = [:]
        /// The deleted rows, with their least delete stamps.
        private var deletions = Tombstones()
        /// The change set ``add(decoding:)`` decoded last (its storage is reused for the next).
        private var decoded = ChangeSet.Decoded()

        /// An empty combination.
        package init() {}

        /// Adds `changes`.
        /// - Complexity: O(u) for u updates, O(r) for r ranges in the coverage, and the deletions'
        ///   (``Tombstones/insert(contentsOf:)``).
        package mutating func add(_ changes: ChangeSet) {
            add(
                coverage: changes.coverage, updates: changes.updates, payloads: changes.payloads,
                fields: changes.fields,
                deletions: changes.deletions)
        }

        /// Adds everything `other` holds, as if each change set added to it were added here.
        package mutating func add(_ other: Combination) {
            add(
                coverage: other.coverage, updates: other.updates, payloads: other.payloads, fields: other.fields,
                deletions: other.deletions.deletions(notCoveredBy: nil))
        }

        /// Adds the change set encoded in `bytes` (``ChangeSet/encoded()``) without making a change set of
        /// it; adds nothing when it does not decode.
        /// - Throws: what ``ChangeSet/init(decoding:)`` throws.
        package mutating func add(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
            try decoded.decode(bytes)
            add(
                coverage: decoded.coverage, updates: decoded.updates, payloads: decoded.payloads,
                fields: decoded.fields,
                deletions: decoded.deletions)
        }

        private mutating func add(
            coverage addedCoverage: DotRanges, updates addedUpdates: [RowUpdate], payloads addedPayloads: [Payload?],
            fields addedFields: [RowID: FieldRegisters], deletions addedDeletions: [DeletionRun]
        ) {
            coverage.formUnion(addedCoverage)
            deletions.insert(contentsOf: addedDeletions)
            for (row, registers) in addedFields {
                // The greater stamp per field; a merge drops those a whole value replaced.
                _ = fields[row, default: [:]].merge(registers, newerThan: .none)
            }
            for (update, payload) in zip(addedUpdates, addedPayloads) {
                let offset = Int32(updates.count)
                if let existing = offsets.insert(offset, for: update.id, unlessPresent: { updates[Int($0)].id }) {
                    ChangeSet.combine(&updates[Int(existing)], &payloads[Int(existing)], with: update, payload: payload)
                } else {
                    updates.append(update)
                    payloads.append(payload)
                }
            }
        }

        /// The one change set whose merge has the effect of merging every one added, in turn. Consuming:
        /// the arrays are edited in place, not copied.
        /// - Complexity: O(k log k) for k distinct rows.
        package consuming func combined() -> ChangeSet {
            if !deletions.isEmpty {
                // A deleted row is a tombstone whatever else happened to it.
                var kept = 0
                for offset in updates.indices {
                    guard deletions[updates[offset].id] == nil else {
                        fields[updates[offset].id] = nil
                        continue
                    }
                    updates.swapAt(kept, offset)
                    payloads.swapAt(kept, offset)
                    kept += 1
                }
                updates.removeSubrange(kept...)
                payloads.removeSubrange(kept...)
            }
            return ChangeSet(
                coverage: coverage, updates: updates, payloads: payloads, fields: fields,
                deletions: deletions.deletions(notCoveredBy: nil))
        }
    }

    /// Folds `update` (and its value) into `target`, an update of the same row.
    fileprivate static func combine(
        _ target: inout RowUpdate, _ targetPayload: inout Payload?, with update: RowUpdate, payload: Payload?
    ) {
        if update.positionStamp > target.positionStamp {
            target.position = update.position
            target.positionStamp = update.positionStamp
        }
        if update.valueStamp > target.valueStamp {
            target.valueStamp = update.valueStamp
            targetPayload = payload
        }
    }
}
