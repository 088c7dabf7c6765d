/// Structural self-checks, called by tests after every step.
extension ListCore {
    /// Traps when an invariant does not hold: keys valid and strictly ordered (ties broken by row ID),
    /// every visible row in the order exactly once, row table and tombstones disjoint and consistent,
    /// every stamp in the state covered by what the replica has seen, the clock above every stamp and
    /// within ``Stamp/maximumLamport``, and every counter within ``Dot/maximumCounter``;
    /// every placeholder in the order exactly once, without stamps, and never in the row table's lookup;
    /// field registers only of live rows, newer than their value, covered and within the clock.
    func checkInvariants() {
        order.checkStructure(rows: rows)
        let seen = self.seen
        precondition(clock <= Stamp.maximumLamport, "clock \(clock) above the maximum")
        for entry in seen.entries {
            precondition(
                entry.counters.upperBound <= Dot.maximumCounter, "counters of \(entry.replica) above the maximum")
        }
        var previous: OrderIndex.Bound?
        var ordered = Set<Int32>()
        order.forEachInOrder { slot in
            let record = rows[slot]
            if let placeholder = record.placeholder {
                precondition(rows.slot(of: placeholder) == slot, "placeholder lookup of \(placeholder)")
                precondition(
                    !record.positionStamp.isSet && !record.valueStamp.isSet, "\(placeholder) carries an operation")
                precondition(placeholder.rawValue < nextPlaceholder, "\(placeholder) not handed out yet")
            } else {
                precondition(rows.isVisible(slot), "invisible row \(record.id) in the order")
            }
            precondition(PositionKey.isValid(record.key.bytes), "invalid key \(record.key) of \(record.id)")
            let bound = rows.bound(of: slot)
            if let previous { precondition(previous < bound, "order not strictly increasing at \(record.id)") }
            previous = bound
            precondition(ordered.insert(slot).inserted, "slot \(slot) twice in the order")
        }
        var visible = 0
        rows.forEachSlot { slot in
            let record = rows[slot]
            precondition(rows.slot(of: record.id) == slot, "row table lookup of \(record.id)")
            precondition(tombstones[record.id] == nil, "row \(record.id) is both live and deleted")
            if rows.isVisible(slot) { visible += 1 }
            for stamp in [record.positionStamp, record.valueStamp] where stamp.isSet {
                precondition(
                    seen.contains(stamp.dot), "operation \(stamp.dot) of \(record.id) not in the version vector")
                precondition(stamp.lamport <= clock, "stamp \(stamp) above the clock \(clock)")
            }
        }
        for slot in rows.hidden {
            precondition(rows.slot(of: rows.id(of: slot)) == slot, "hidden slot \(slot) holds no row")
        }
        for (placeholder, slot) in rows.placeholders {
            precondition(ordered.contains(slot), "\(placeholder) missing from the order")
            precondition(rows.placeholder(of: slot) == placeholder, "\(placeholder) lookup names another record")
        }
        precondition(
            visible + rows.placeholders.count == order.count,
            "\(visible) visible rows and \(rows.placeholders.count) placeholders but \(order.count) in the order")
        for run in tombstones.deletions(notCoveredBy: nil) {
            let deleter = run.stamp.dot.replica
            precondition(
                seen[deleter]?.contains(run.dotCounters) == true,
                "deletes \(deleter):\(run.dotCounters) of \(run.replica):\(run.first)..<\(run.end) not in the version vector"
            )
            precondition(run.maxLamport <= clock, "delete stamps of \(run) above the clock \(clock)")
            precondition(rows.slots(in: [run]).isEmpty, "a deleted row of \(run) is live")
        }
        for (id, registers) in fieldRegisters {
            guard let slot = rows.slot(of: id) else { preconditionFailure("field registers of \(id), not a live row") }
            precondition(!registers.isEmpty, "an empty field register entry for \(id)")
            for (name, register) in registers {
                precondition(register.stamp > rows.valueStamp(of: slot), "field \(name) of \(id) not newer than its value")
                precondition(
                    seen.contains(register.stamp.dot), "field edit \(register.stamp.dot) not in the version vector")
                precondition(register.stamp.lamport <= clock, "field stamp \(register.stamp) above the clock \(clock)")
            }
        }
    }
}
