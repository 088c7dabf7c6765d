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
    @discardableResult
    public func merge(_ changes: ChangeSet) throws(MergeError) -> ListChange {
        try core.validate(changes.updates, coverage: changes.coverage)
        let expectedType = ValueCoding.typeIdentifier(of: Element.self)
        var decoded: [Element?] = []
        decoded.reserveCapacity(changes.updates.count)
        for (update, payload) in zip(changes.updates, changes.payloads) {
            guard let payload else {
                decoded.append(nil)
                continue
            }
            guard payload.typeIdentifier == expectedType else {
                throw .typeMismatch(row: update.id, expected: expectedType, found: payload.typeIdentifier)
            }
            do {
                decoded.append(try ValueCoding.decode(payload.bytes, as: Element.self))
            } catch {
                throw .undecodableValue(row: update.id, reason: String(describing: error))
            }
        }
        core.markSeen(changes.coverage)
        return store(core.apply(changes.updates)) { decoded[$0] }
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
