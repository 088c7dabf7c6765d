/// The registers one operation or change sets on one row: the unit of merge.
///
/// A row's position, value and deletion are last-writer-wins registers, each carrying the stamp of the
/// operation that set it; merge keeps the greater stamp per register, and a deletion is final. So
/// merging updates is commutative, associative and idempotent by construction.
struct RowUpdate: Hashable, Sendable {
    var id: RowID
    /// The new position and the stamp of the insert or move that set it.
    var position: PositionKey?
    var positionStamp: Stamp = .none
    /// The stamp of the insert or edit that set the value (the value itself travels beside).
    var valueStamp: Stamp = .none
    /// The stamp of the delete, if the row is deleted.
    var deletion: Stamp = .none

    /// The highest Lamport time of the update's stamps.
    var maxLamport: UInt64 { max(positionStamp.lamport, valueStamp.lamport, deletion.lamport) }

    /// Whether every stamp set in this update satisfies `condition`; returns the first that does not.
    func firstStamp(where condition: (Stamp) -> Bool) -> Stamp? {
        if positionStamp.isSet && condition(positionStamp) { return positionStamp }
        if valueStamp.isSet && condition(valueStamp) { return valueStamp }
        if deletion.isSet && condition(deletion) { return deletion }
        return nil
    }

    /// The canonical order of a change set's updates: updates with a position by (key, row ID), so
    /// neighbouring keys share prefixes; then the others by (delete or value stamp, row ID), so runs of
    /// deletes line up. Equal states give equal orders, hence equal bytes.
    static func canonicallyPrecedes(_ a: RowUpdate, _ b: RowUpdate) -> Bool {
        switch (a.position, b.position) {
        case (let keyA?, let keyB?): return keyA < keyB || (keyA == keyB && a.id < b.id)
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return (a.sortStamp, a.id) < (b.sortStamp, b.id)
        }
    }

    /// The stamp that orders an update without a position: its delete, else its value's.
    private var sortStamp: Stamp { deletion.isSet ? deletion : valueStamp }
}
