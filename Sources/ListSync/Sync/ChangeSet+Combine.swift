/// Combining change sets: one merge instead of many (replaying a log, catching up a long backlog).
extension ChangeSet {
    /// One change set whose merge has the effect of merging every one of `changeSets` in turn.
    ///
    /// Per row it keeps the greatest stamp of each register (with its key, value or field) and, for a deleted
    /// row, only the least delete stamp, as a tombstone does; the coverage is the union of theirs. A
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
        var coverage = DotRanges()
        var offsets: [RowID: Int] = [:]
        var updates: [RowUpdate] = []
        var payloads: [Payload?] = []
        var fields: [RowID: FieldRegisters] = [:]
        for changes in changeSets {
            coverage.formUnion(changes.coverage)
            for (row, registers) in changes.fields {
                // The greater stamp per field; a merge drops those a whole value replaced.
                _ = fields[row, default: [:]].merge(registers, newerThan: .none)
            }
            for (update, payload) in zip(changes.updates, changes.payloads) {
                if let offset = offsets[update.id] {
                    Self.combine(&updates[offset], &payloads[offset], with: update, payload: payload)
                } else {
                    offsets[update.id] = updates.count
                    updates.append(update)
                    payloads.append(payload)
                }
            }
        }
        for offset in updates.indices where updates[offset].deletion.isSet {
            // A deleted row is a tombstone whatever else happened to it.
            updates[offset] = RowUpdate(id: updates[offset].id, deletion: updates[offset].deletion)
            payloads[offset] = nil
            fields[updates[offset].id] = nil
        }
        self.init(coverage: coverage, updates: updates, payloads: payloads, fields: fields)
    }

    /// Folds `update` (and its value) into `target`, an update of the same row.
    private static func combine(
        _ target: inout RowUpdate, _ targetPayload: inout Payload?, with update: RowUpdate, payload: Payload?
    ) {
        if update.deletion.isSet && (!target.deletion.isSet || update.deletion < target.deletion) {
            target.deletion = update.deletion
        }
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
