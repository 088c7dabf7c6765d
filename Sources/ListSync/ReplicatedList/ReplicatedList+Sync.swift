/// Exchanging changes with other replicas.
extension ReplicatedList {
    /// Everything a replica that has seen `vector` lacks: inserts, moves, edits and deletes.
    ///
    /// Send it to the peer, which merges it with ``merge(_:)``. `changes(since: VersionVector())` is
    /// the whole state.
    /// - Complexity: O(n + k log k) for n rows and k rows in the result.
    public func changes(since vector: VersionVector) -> ChangeSet {
        let (coverage, list) = core.updates(since: vector)
        let typeIdentifier = ValueCoding.typeIdentifier(of: Element.self)
        return ChangeSet(
            coverage: coverage,
            updates: list.updates,
            payloads: list.valueSlots.map { slot in
                slot.map {
                    ChangeSet.Payload(typeIdentifier: typeIdentifier, bytes: ValueCoding.encode(value(inSlot: $0))[...])
                }
            })
    }

    /// Merges a change set from another replica (or this one) and returns what changed in the rows.
    ///
    /// Idempotent, commutative and associative: change sets may arrive duplicated, late and in any order.
    /// - Throws: ``MergeError`` when the change set is inconsistent or its values do not decode as
    ///   `Element`; nothing is applied then.
    /// - Complexity: O(k log n) for k rows in the change set.
    @inlinable
    @discardableResult
    public func merge(_ changes: ChangeSet) throws(MergeError) -> ListChange {
        try core.validate(changes)
        let decoded = try changes.decodedValues(as: Element.self)
        return store(core.merge(changes)) { decoded[$0] }
    }

    /// The whole replicated state (rows, tombstones, what has been seen) in the binary format.
    ///
    /// Load it with ``init(snapshot:replicaID:)``.
    public func snapshot() -> [UInt8] {
        changes(since: VersionVector()).encoded(as: .snapshot)
    }

    /// Traps when an internal invariant does not hold (for tests): sorted keys, unique row IDs, index
    /// consistent with the order, version vector covering every operation, a value for every visible row.
    public func _checkInvariants() {
        core.checkInvariants()
        core.rows.forEachSlot { slot in
            if core.rows[slot].isVisible {
                precondition(Int(slot) < values.count && values[Int(slot)] != nil, "visible row without a value")
            }
        }
        for slot in core.rows.placeholders.values {
            precondition(Int(slot) < values.count && values[Int(slot)] != nil, "placeholder without a value")
        }
    }
}
