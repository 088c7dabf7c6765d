/// The registers one operation or change sets on one row that is not deleted: the unit of merge.
///
/// A row's position and value are last-writer-wins registers, each carrying the stamp of the operation
/// that set it; merge keeps the greater stamp per register. So merging updates is commutative,
/// associative and idempotent by construction. Deletions, which are final, travel apart, in runs
/// (``DeletionRun``).
struct RowUpdate: Hashable, Sendable {
    var id: RowID
    /// The new position and the stamp of the insert or move that set it.
    var position: PositionKey?
    var positionStamp: Stamp = .none
    /// The stamp of the insert or edit that set the value (the value itself travels beside).
    var valueStamp: Stamp = .none

    /// The highest Lamport time of the update's stamps.
    var maxLamport: UInt64 { max(positionStamp.lamport, valueStamp.lamport) }

    /// Whether every stamp set in this update satisfies `condition`; returns the first that does not.
    func firstStamp(where condition: (Stamp) -> Bool) -> Stamp? {
        if positionStamp.isSet && condition(positionStamp) { return positionStamp }
        if valueStamp.isSet && condition(valueStamp) { return valueStamp }
        return nil
    }

    /// The canonical order of a change set's updates: updates with a position by (key, row ID), so
    /// neighbouring keys share prefixes; then the others by (value stamp, row ID), so runs of edits line
    /// up. Equal states give equal orders, hence equal bytes.
    static func canonicallyPrecedes(_ a: RowUpdate, _ b: RowUpdate) -> Bool {
        switch (a.position, b.position) {
        case (let keyA?, let keyB?): return keyA < keyB || (keyA == keyB && a.id < b.id)
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return (a.valueStamp, a.id) < (b.valueStamp, b.id)
        }
    }
}
