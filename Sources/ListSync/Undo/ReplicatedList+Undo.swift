import Foundation

/// Undo and redo of this replica's own edits.
///
/// Once ``enableUndo(limit:)`` is called, every local edit is recorded, grouped by user action: one
/// mutation, or one outermost ``transaction(_:)`` (one drag, one drop, one `SyncPeer.edit`). ``undo()``
/// reverses the last group and ``redo()`` reverses that undo; each is one transaction, so the app gets
/// one batch and peers one change set. Edits merged from other replicas are never undone, and an undo
/// never overrides them:
///
/// - undoing an insert deletes the rows it inserted and withdraws its placeholders still pending (a
///   placeholder committed since is a row by then, and is deleted);
/// - undoing a delete inserts a copy of each row, with its value, where it was (after the row that
///   preceded it, else before the row that followed it, else at its index): the copy has a new
///   ``RowID``, because deletion is final;
/// - undoing a move moves each row back where it was, unless another replica moved it since;
/// - undoing an edit writes the previous value back, unless another replica edited the row since; for
///   a struct row, field by field: each field the edit changed goes back unless another replica edited
///   that field since (the others' fields stay as they are).
///
/// What is not undone is listed in ``UndoResult/skipped``. A new local edit clears the redo stack;
/// merges do not.
extension ReplicatedList {
    /// Starts recording local edits so they can be undone, keeping at most `limit` user actions to undo
    /// (and as many to redo); the oldest are forgotten. Calling it again keeps what was recorded.
    /// - Precondition: `limit > 0`.
    public func enableUndo(limit: Int = 100) {
        guard !recordsUndo else { return }
        undoHistory = UndoHistory(limit: limit)
        recordsUndo = true
    }

    /// Whether there is a user action to undo.
    public var canUndo: Bool { !(undoHistory?.undoGroups.isEmpty ?? true) }

    /// Whether there is an undone user action to redo.
    public var canRedo: Bool { !(undoHistory?.redoGroups.isEmpty ?? true) }

    /// Reverses the last user action not undone yet, as far as no other replica's work stands in the way.
    /// - Returns: the batch (empty when there was nothing to undo) and the rows left as they are.
    /// - Complexity: O(k log n + k s) for k rows in the action and s steps recorded.
    @discardableResult
    public func undo() -> UndoResult { reverse(redoing: false) }

    /// Reverses the last undo, as far as no other replica's work stands in the way; a redone action can
    /// be undone again.
    /// - Returns: the batch (empty when there was nothing to redo) and the rows left as they are.
    /// - Complexity: O(k log n + k s) for k rows in the action and s steps recorded.
    @discardableResult
    public func redo() -> UndoResult { reverse(redoing: true) }

    /// The value version of the visible row `id`: the greatest of its value stamp and its field stamps,
    /// the stamp of the last edit of its value. Nil when it is not visible.
    func valueVersion(ofRow id: RowID) -> Stamp? {
        guard let slot = core.rows.slot(of: id), core.rows.isVisible(slot) else { return nil }
        var version = core.rows.valueStamp(of: slot)
        if !core.fieldRegisters.isEmpty, let registers = core.fieldRegisters[id] {
            for register in registers.values { version = Swift.max(version, register.stamp) }
        }
        return version
    }

    /// The version of field `name` of the visible row `id`: the stamp of its field register, else of the
    /// row's whole value. Nil when the row is not visible.
    func fieldVersion(ofRow id: RowID, field name: String) -> Stamp? {
        guard let slot = core.rows.slot(of: id), core.rows.isVisible(slot) else { return nil }
        if !core.fieldRegisters.isEmpty, let register = core.fieldRegisters[id]?[name] { return register.stamp }
        return core.rows.valueStamp(of: slot)
    }

    /// Undoes (or redoes) the last group: its steps last first, in one transaction.
    private func reverse(redoing: Bool) -> UndoResult {
        guard recordsUndo, canEdit, let group = undoHistory!.beginReversal(redoing: redoing) else {
            return UndoResult()
        }
        var skipped: [UndoResult.Skip] = []
        let change = transaction { list in
            for step in group.indices.reversed() { list.reverseStep(at: step, skipped: &skipped) }
        }.change
        undoHistory!.endReversal(redoing: redoing)
        return UndoResult(change: change, skipped: skipped)
    }

    /// Reverses the step at `offset` of the group under reversal, reading each of its rows afresh (an
    /// earlier row's reversal may have rewritten it), and notes in `skipped` the rows it leaves.
    private func reverseStep(at offset: Int, skipped: inout [UndoResult.Skip]) {
        func step() -> UndoHistory<Element>.Step { undoHistory!.reversing[offset] }
        switch step() {
        case .inserted(let items):
            var offsets = IndexSet()
            for item in items {
                switch item {
                case .row(let id):
                    if let index = index(forRow: id) {
                        offsets.insert(index)
                    } else {
                        skipped.append(.init(id, .deleted))
                    }
                case .placeholder(let id):
                    if isPending(id) { _ = try? removePlaceholder(id) }
                }
            }
            if !offsets.isEmpty { remove(atOffsets: offsets) }
        case .removed(let rows):
            for row in rows.indices {
                guard case .removed(let rows) = step() else { preconditionFailure("a step changed its kind") }
                let removed = rows[row]
                let index = destination(of: removed.place)
                guard !insert(removed.value, at: index).isEmpty, let copy = self[index].rowID,
                    let copyValue = valueVersion(ofRow: copy)
                else { continue }
                // Every field of the copy has the version of its whole value.
                let fields = UndoHistory<Element>.FieldRewrite(
                    named: removed.fieldStamps.mapValues { ($0, copyValue) }, others: (removed.valueStamp, copyValue))
                undoHistory!.rewrite(
                    removed.row, as: copy, position: (removed.positionStamp, core.record(at: index).positionStamp),
                    value: (removed.valueVersion, copyValue), fields: fields)
            }
        case .moved(let rows):
            for row in rows.indices {
                guard case .moved(let rows) = step() else { preconditionFailure("a step changed its kind") }
                let moved = rows[row]
                guard let index = index(forRow: moved.row) else {
                    skipped.append(.init(moved.row, .deleted))
                    continue
                }
                let slot = core.slot(at: index)
                guard core.rows.positionStamp(of: slot) == moved.stamp else {
                    skipped.append(.init(moved.row, .movedSince))
                    continue
                }
                move(fromOffsets: IndexSet(integer: index), toOffset: destination(of: moved.place))
                let stamp = core.rows.positionStamp(of: slot)
                if stamp != moved.stamp {
                    undoHistory!.rewrite(moved.row, as: moved.row, position: (moved.previousStamp, stamp), value: nil)
                }
            }
        case .edited(let edit):
            guard let index = index(forRow: edit.row), let version = valueVersion(ofRow: edit.row) else {
                skipped.append(.init(edit.row, .deleted))
                return
            }
            if let fields = edit.fields {
                return reverseFields(fields, of: edit, at: index, version: version, skipped: &skipped)
            }
            guard version == edit.stamp else {
                skipped.append(.init(edit.row, .editedSince))
                return
            }
            updateValue(edit.previous, at: index)
            if let written = valueVersion(ofRow: edit.row), written != version {
                undoHistory!.rewrite(edit.row, as: edit.row, position: nil, value: (edit.previousStamp, written))
            }
        }
    }

    /// Reverses a field-by-field edit of the struct row at `index`: each field in `fields` whose version
    /// is still the edit's goes back to its value in `edit.previous` (or is removed when it had none);
    /// fields another replica edited since stay, and are noted in `skipped`.
    private func reverseFields(
        _ fields: [String: UndoHistory<Element>.FieldVersions], of edit: UndoHistory<Element>.EditedRow, at index: Int,
        version: Stamp, skipped: inout [UndoResult.Skip]
    ) {
        let standing = fields.filter { fieldVersion(ofRow: edit.row, field: $0.key) == $0.value.stamp }
        guard !standing.isEmpty,
            let value = Self.value(self[index].value, withFields: standing.keys, of: edit.previous)
        else {
            skipped.append(.init(edit.row, .editedSince))
            return
        }
        let editedSince = fields.keys.filter { standing[$0] == nil }.sorted()
        if !editedSince.isEmpty { skipped.append(.init(edit.row, .fieldsEditedSince(editedSince))) }
        updateValue(value, at: index)
        var rewrite = UndoHistory<Element>.FieldRewrite()
        for (name, versions) in standing {
            if let now = fieldVersion(ofRow: edit.row, field: name), now != versions.stamp {
                rewrite.named[name] = (versions.previousStamp, now)
            }
        }
        if let written = valueVersion(ofRow: edit.row), written != version || !rewrite.named.isEmpty {
            undoHistory!.rewrite(
                edit.row, as: edit.row, position: nil, value: (edit.previousStamp, written), fields: rewrite)
        }
    }

    /// `current` with the fields `names` as they are in `previous` (removed where it has none); nil when
    /// either is not a JSON object, or when the mix does not decode (a value this version wrote, with
    /// fields it wrote, decodes, but a type whose decoding checks across fields may refuse the mix: the
    /// edit is then left as another replica's edit would leave it).
    private static func value(_ current: Element, withFields names: some Sequence<String>, of previous: Element)
        -> Element?
    {
        guard let now = JSONFields.split(ValueCoding.encode(current)[...]),
            let before = JSONFields.split(ValueCoding.encode(previous)[...])
        else { return nil }
        var members = Dictionary(uniqueKeysWithValues: now.map { ($0.name, $0.fragment) })
        let old = Dictionary(uniqueKeysWithValues: before.map { ($0.name, $0.fragment) })
        for name in names { members[name] = old[name] }
        let joined = JSONFields.join(members.map { JSONFields.Member(name: $0.key, fragment: $0.value) })
        return try? ValueCoding.decode(joined[...], as: Element.self)
    }

    /// The index a row that was at `place` goes back to, as a destination of ``move(fromOffsets:toOffset:)``
    /// or an index of ``insert(_:at:)``: after the row that preceded it, else before the row that followed
    /// it, else its index (within the rows now).
    private func destination(of place: UndoHistory<Element>.Place) -> Int {
        if let after = place.after, let index = index(forRow: after) { return index + 1 }
        if let before = place.before, let index = index(forRow: before) { return index }
        return Swift.min(Swift.max(place.index, 0), count)
    }
}

/// Recording: the mutations call these when ``recordsUndo`` is set (a flag, so that a list without undo
/// pays one test per edit).
extension ReplicatedList {
    /// Where the visible row at `index` is: the confirmed rows around it (placeholders are no
    /// neighbours) and the index.
    private func place(ofRowAt index: Int) -> UndoHistory<Element>.Place {
        UndoHistory.Place(after: confirmedRow(before: index), before: confirmedRow(after: index), index: index)
    }

    /// The undo step of moving the visible rows at `offsets`, before the move (their new stamps come
    /// with ``noteUndoStep(_:after:)``).
    @usableFromInline
    func undoStep(moving offsets: CompactArray<Int>) -> UndoHistory<Element>.Step {
        .moved(
            offsets.compactMap { index in
                let record = core.record(at: index)
                guard record.placeholder == nil else { return nil }
                return UndoHistory.MovedRow(
                    row: record.id, stamp: .none, previousStamp: record.positionStamp, place: place(ofRowAt: index))
            })
    }

    /// The undo step of deleting the visible rows at `offsets`, before the delete.
    @usableFromInline
    func undoStep(removing offsets: CompactArray<Int>) -> UndoHistory<Element>.Step {
        .removed(
            offsets.compactMap { index in
                let record = core.record(at: index)
                guard record.placeholder == nil, let version = valueVersion(ofRow: record.id) else { return nil }
                return UndoHistory.RemovedRow(
                    row: record.id, value: self[index].value, place: place(ofRowAt: index),
                    positionStamp: record.positionStamp, valueVersion: version,
                    fieldStamps: registerStamps(ofRow: record.id), valueStamp: record.valueStamp)
            })
    }

    /// The undo step of editing the visible row at `index`, before the edit; nil for a placeholder.
    @usableFromInline
    func undoStep(editing index: Int) -> UndoHistory<Element>.Step? {
        guard let row = self[index].rowID, let version = valueVersion(ofRow: row) else { return nil }
        let fields =
            Self.hasFields
            ? registerStamps(ofRow: row).mapValues {
                UndoHistory<Element>.FieldVersions(stamp: .none, previousStamp: $0)
            }
            : nil
        return .edited(
            .init(row: row, stamp: .none, previousStamp: version, previous: self[index].value, fields: fields))
    }

    /// The stamps of row `id`'s field registers, by field name.
    private func registerStamps(ofRow id: RowID) -> [String: Stamp] {
        guard !core.fieldRegisters.isEmpty, let registers = core.fieldRegisters[id] else { return [:] }
        return registers.mapValues(\.stamp)
    }

    /// The fields an edit stamped `stamp` wrote on row `id`, with their versions before (`before`: the
    /// stamps of the row's registers before it; a field without one had the whole value's); nil when the
    /// edit wrote the whole value.
    private func writtenFields(
        ofRow id: RowID, stamp: Stamp, before: [String: UndoHistory<Element>.FieldVersions]
    ) -> [String: UndoHistory<Element>.FieldVersions]? {
        guard let slot = core.rows.slot(of: id), core.rows.valueStamp(of: slot) != stamp,
            let registers = core.fieldRegisters[id]
        else { return nil }
        var written: [String: UndoHistory<Element>.FieldVersions] = [:]
        for (name, register) in registers where register.stamp == stamp {
            written[name] = .init(
                stamp: stamp, previousStamp: before[name]?.previousStamp ?? core.rows.valueStamp(of: slot))
        }
        return written.isEmpty ? nil : written
    }

    /// The undo step of inserting the rows now at `indexes`.
    @usableFromInline
    func undoStep(inserted indexes: Range<Int>) -> UndoHistory<Element>.Step {
        .inserted(indexes.map { self[$0].id })
    }

    /// Placeholder `id` was committed as the row `row`: undoing its insert deletes the row.
    @usableFromInline
    func noteUndoCommit(_ id: PlaceholderID, as row: RowID) {
        undoHistory!.committed(id, as: row)
    }

    /// Makes the edit `edit` and returns its batch; when undo is on, records the undo step `step`, taken
    /// before the edit (nil for none), as ``noteUndoStep(_:after:)`` does.
    ///
    /// Without undo, no step is made: an optional step, even nil, is destroyed through the runtime's
    /// generic value witnesses (about a hundred instructions an edit).
    @inlinable
    func recordingUndo(
        _ step: @autoclosure () -> UndoHistory<Element>.Step?, _ edit: () -> ListChange
    ) -> ListChange {
        guard recordsUndo else { return edit() }
        let step = step()
        let change = edit()
        if let step { noteUndoStep(step, after: change) }
        return change
    }

    /// Records `step`, with the stamps its edit gave (read now), when that edit, whose batch is `change`,
    /// changed anything.
    @usableFromInline
    func noteUndoStep(_ step: UndoHistory<Element>.Step, after change: ListChange) {
        guard !change.isEmpty else { return }
        switch step {
        case .moved(var rows):
            for offset in rows.indices {
                rows[offset].stamp = core.rows.slot(of: rows[offset].row).map { core.rows.positionStamp(of: $0) } ?? .none
            }
            undoHistory!.record(.moved(rows))
        case .edited(var edit):
            edit.stamp = valueVersion(ofRow: edit.row) ?? .none
            if let before = edit.fields {
                edit.fields = writtenFields(ofRow: edit.row, stamp: edit.stamp, before: before)
            }
            undoHistory!.record(.edited(edit))
        case .inserted, .removed:
            undoHistory!.record(step)
        }
    }
}

/// What an ``ReplicatedList/undo()`` or ``ReplicatedList/redo()`` did.
public struct UndoResult: Hashable, Sendable {
    /// A row an undo or redo left as it is, and why.
    public struct Skip: Hashable, Sendable {
        /// Why a row was left as it is.
        public enum Reason: Hashable, Sendable {
            /// The row was deleted (or is hidden) meanwhile.
            case deleted
            /// Another replica moved the row after the edit being reversed.
            case movedSince
            /// Another replica edited the row's value after the edit being reversed (for a struct row: every
            /// field the edit changed).
            case editedSince
            /// Another replica edited these fields of a struct row after the edit being reversed; they
            /// were left as they are, and the edit's other fields were reversed.
            case fieldsEditedSince([String])
        }

        /// The row left as it is.
        public let row: RowID
        /// Why.
        public let reason: Reason

        /// Creates a skip.
        public init(_ row: RowID, _ reason: Reason) {
            self.row = row
            self.reason = reason
        }
    }

    /// The batch for the table: empty when nothing could be undone or there was nothing to undo.
    public var change: ListChange
    /// The rows left as they are, in the order met.
    public var skipped: [Skip]

    /// Creates a result.
    public init(change: ListChange = ListChange(), skipped: [Skip] = []) {
        self.change = change
        self.skipped = skipped
    }
}
