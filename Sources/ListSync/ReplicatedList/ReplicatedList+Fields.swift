/// Rows whose values are JSON objects: field registers, the exact bytes of whole values, and the
/// visible value assembled from both (docs/field-registers.md).
extension ReplicatedList {
    /// Whether this element type's values are JSON, whose objects have fields.
    @inlinable
    static var hasFields: Bool { ValueCoding.isJSON(Element.self) }

    /// The whole-value register of the row in `slot` as it travels: its exact bytes when kept
    /// (``wholeValues``), else as received when it did not decode, else its value encoded.
    @usableFromInline
    func wholePayload(
        inSlot slot: Int32, typeIdentifier: String = ValueCoding.typeIdentifier(of: Element.self)
    ) -> ChangeSet.Payload {
        keptPayload(inSlot: slot)
            ?? ChangeSet.Payload(typeIdentifier: typeIdentifier, bytes: ValueCoding.encode(value(inSlot: slot))[...])
    }

    /// The whole-value register of the row in `slot` when it is kept as bytes (``wholeValues``, or the
    /// value of a row that did not decode); nil when it is its value encoded.
    @inlinable
    func keptPayload(inSlot slot: Int32) -> ChangeSet.Payload? {
        if !wholeValues.isEmpty, let kept = wholeValues[slot] { return kept }
        if !undecodable.isEmpty, let kept = undecodable[slot] { return kept.payload }
        return nil
    }

    /// The JSON whole value `bytes` of a row, to keep as bytes when they are not what encoding `value`,
    /// decoded from them, gives (fields this version does not know); nil when encoding gives them back.
    @usableFromInline
    static func keptWhole(of value: Element, bytes: ArraySlice<UInt8>) -> ChangeSet.Payload? {
        guard ValueCoding.encode(value)[...] != bytes else { return nil }
        return ChangeSet.Payload(typeIdentifier: ValueCoding.json, bytes: Array(bytes)[...])
    }

    /// The visible value of a row whose whole value is `whole` and whose field registers are `registers`.
    private static func visiblePayload(of whole: ChangeSet.Payload, _ registers: FieldRegisters?) -> ChangeSet.Payload {
        guard let registers, whole.typeIdentifier == ValueCoding.json else { return whole }
        return ChangeSet.Payload(
            typeIdentifier: whole.typeIdentifier, bytes: registers.visibleValue(of: whole.bytes)[...])
    }

    /// The value of a row loaded from a snapshot with field registers `registers` and whole value `whole`,
    /// kept in ``wholeValues``; nil when its visible value does not decode, kept in ``undecodable``.
    @usableFromInline
    func loadValue(whole: ChangeSet.Payload, registers: FieldRegisters, inSlot slot: Int32) -> Element? {
        let whole = ChangeSet.Payload(typeIdentifier: whole.typeIdentifier, bytes: Array(whole.bytes)[...])
        wholeValues[slot] = whole
        switch ValueCoding.decode(Self.visiblePayload(of: whole, registers), as: Element.self) {
        case .success(let value): return value
        case .failure(let value):
            undecodable[slot] = value
            return nil
        }
    }

    /// Stores the values of a merge of `changes` into a list of a JSON element type, `change` being what
    /// the core's merge did, and shows or hides rows by their visible values; returns the whole batch.
    ///
    /// For each row whose value changed: the whole value is the change set's, when the row took it, or
    /// the one kept; its visible value is that with the row's field registers applied. Whole values
    /// with fields this version does not know are kept as bytes, so they travel on unchanged.
    @usableFromInline
    func storeWithFields(_ change: ListChange, from changes: ChangeSet, decoded: DecodedValues<Element>) -> ListChange {
        var newValues = decoded.values
        var newUndecodable = decoded.undecodable
        var wholes: [Int: ChangeSet.Payload] = [:]
        let freed = Set(core.touched.freedSlots)
        for (offset, slot) in core.touched.valueSlots.enumerated() {
            guard let slot else { continue }
            let valueStamp = core.rows.valueStamp(of: slot)
            let registers = core.fieldRegisters.isEmpty ? nil : core.fieldRegisters[core.rows.id(of: slot)]
            let tookWhole = changes.payloads[offset] != nil && changes.updates[offset].valueStamp == valueStamp
            if tookWhole && registers == nil {
                // A whole value alone: decoded as before; kept as bytes when it has fields unknown here.
                if let value = decoded.values[offset], let payload = changes.payloads[offset] {
                    wholes[offset] = Self.keptWhole(of: value, bytes: payload.bytes)
                }
                continue
            }
            let whole: ChangeSet.Payload?
            if tookWhole, let payload = changes.payloads[offset] {
                whole = ChangeSet.Payload(typeIdentifier: payload.typeIdentifier, bytes: Array(payload.bytes)[...])
            } else {
                // A slot freed by this merge held another row; a row waiting for its insert has no value yet.
                whole = freed.contains(slot) || !valueStamp.isSet ? nil : wholePayload(inSlot: slot)
            }
            guard let whole else {
                newValues[offset] = nil
                newUndecodable[offset] = nil
                continue
            }
            wholes[offset] = whole
            switch ValueCoding.decode(Self.visiblePayload(of: whole, registers), as: Element.self) {
            case .success(let value):
                newValues[offset] = value
                newUndecodable[offset] = nil
            case .failure(let undecodable):
                newValues[offset] = nil
                newUndecodable[offset] = undecodable
            }
        }
        let stored = store(change, values: { newValues[$0] }, undecodable: newUndecodable, wholes: wholes)
        var visibility: [(slot: Int32, hides: Bool)] = []
        for slot in core.touched.valueSlots {
            guard let slot, core.rows.valueStamp(of: slot).isSet else { continue }
            let hides = undecodable[slot] != nil
            if hides != core.rows.hidden.contains(slot) { visibility.append((slot, hides)) }
        }
        guard !visibility.isEmpty else { return stored }
        let settled = core.setHidden(visibility)
        return stored.followed(by: recorded(settled))
    }

    /// Edits the visible row at `index` to `value` as field edits (docs/field-registers.md, "A local
    /// edit"); nil when its whole value or `value` is not a JSON object, so the edit is a whole write.
    @usableFromInline
    func updateFields(_ value: Element, at index: Int) -> ListChange? {
        let slot = core.slot(at: index)
        guard core.rows.placeholder(of: slot) == nil else { return nil }
        // What this version makes of the row now; it is the whole value too unless that is kept as bytes.
        let current = ValueCoding.encode(self.value(inSlot: slot))
        let whole: ChangeSet.Payload
        if let kept = keptPayload(inSlot: slot) {
            guard kept.typeIdentifier == ValueCoding.json, JSONFields.split(kept.bytes) != nil else { return nil }
            whole = kept
        } else {
            whole = ChangeSet.Payload(typeIdentifier: ValueCoding.json, bytes: current[...])
        }
        guard let writes = JSONFields.edits(from: current, to: ValueCoding.encode(value)) else { return nil }
        if writes.isEmpty { return ListChange() }  // nothing this version knows changed
        let change = core.updateFields(at: index, writes)
        guard !change.isEmpty else { return change }  // no operation counters left (``canEdit``)
        return store(change, values: { _ in value }, wholes: [0: whole])
    }
}
