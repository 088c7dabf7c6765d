/// Exchanging changes with other replicas.
extension ReplicatedList {
    /// Everything a replica that has seen `vector` lacks: inserts, moves, edits and deletes.
    ///
    /// Send it to the peer, which merges it with ``merge(_:)``. `changes(since: VersionVector())` is
    /// the whole state.
    /// - Complexity: O(n + k log k) for n rows and k rows in the result.
    public func changes(since vector: VersionVector) -> ChangeSet {
        let (coverage, list, deletions) = core.updates(since: vector)
        let typeIdentifier = ValueCoding.typeIdentifier(of: Element.self)
        return ChangeSet(
            coverage: coverage,
            updates: list.updates,
            payloads: list.valueSlots.map { slot in
                slot.map { wholePayload(inSlot: $0, typeIdentifier: typeIdentifier) }
            },
            fields: list.fields,
            deletions: deletions)
    }

    /// Merges a change set from another replica (or this one) and returns what changed in the rows.
    ///
    /// Idempotent, commutative and associative: change sets may arrive duplicated, late and in any order.
    /// A value that does not decode as `Element` never blocks the rest: its row is kept with the value's
    /// bytes, relayed as they are, and hidden from the visible rows (``undecodableRows``).
    /// - Throws: ``MergeError`` when the change set is inconsistent; nothing is applied then.
    /// - Complexity: O(k log n) for k rows in the change set.
    @inlinable
    @discardableResult
    public func merge(_ changes: ChangeSet) throws(MergeError) -> ListChange {
        try core.validate(changes)
        let decoded = changes.decodedValues(as: Element.self)
        let change = core.merge(changes, hiding: decoded.undecodable.isEmpty ? [] : Set(decoded.undecodable.keys))
        guard Self.hasFields else {
            return store(change, values: { decoded.values[$0] }, undecodable: decoded.undecodable)
        }
        return storeWithFields(change, from: changes, decoded: decoded)
    }

    /// The whole replicated state (rows, tombstones, what has been seen) in the binary format.
    ///
    /// Load it with ``init(snapshot:replicaID:)``.
    public func snapshot() -> [UInt8] {
        changes(since: VersionVector()).encoded(as: .snapshot)
    }

    /// Traps when an internal invariant does not hold (for tests): sorted keys, unique row IDs, index
    /// consistent with the order, version vector covering every operation, a value for every visible row,
    /// the bytes of every value that did not decode, and those rows hidden, and the whole value of every
    /// row with field registers.
    public func _checkInvariants() {
        core.checkInvariants()
        core.rows.forEachSlot { slot in
            if core.rows.isVisible(slot) {
                precondition(Int(slot) < values.count && values[Int(slot)] != nil, "visible row without a value")
            }
        }
        precondition(Set(undecodable.keys) == core.rows.hidden, "undecodable values and hidden rows differ")
        for slot in undecodable.keys { precondition(values[Int(slot)] == nil, "undecodable row with a value") }
        for id in core.fieldRegisters.keys {
            guard let slot = core.rows.slot(of: id), core.rows.valueStamp(of: slot).isSet else { continue }
            precondition(wholeValues[slot] != nil, "row \(id) with field registers but no whole value kept")
        }
        for slot in wholeValues.keys {
            precondition(core.rows.valueStamp(of: slot).isSet, "a whole value kept for slot \(slot) without one")
        }
        for slot in core.rows.placeholders.values {
            precondition(Int(slot) < values.count && values[Int(slot)] != nil, "placeholder without a value")
        }
    }
}
