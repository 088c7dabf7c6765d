/// Deleted rows: their IDs and the stamp of (the least) delete, kept forever so deletes are final.
struct Tombstones {
    private var index = RowIDIndex()
    private var ids: ContiguousArray<RowID> = []
    private var stamps: ContiguousArray<Stamp> = []

    /// The number of deleted rows.
    var count: Int { ids.count }

    /// The delete stamp of `id`, if it was deleted.
    subscript(id: RowID) -> Stamp? {
        slot(of: id).map { stamps[Int($0)] }
    }

    private func slot(of id: RowID) -> Int32? {
        ids.withUnsafeBufferPointer { ids in index.slot(of: id) { ids[Int($0)] } }
    }

    /// Starts loading the bucket that looking up `id` reads first.
    func prefetchLookup(of id: RowID) { index.prefetchHome(of: id) }

    /// Makes room for `count` more deleted rows.
    mutating func reserveCapacity(_ count: Int) {
        index.reserveCapacity(ids.count + count)
        ids.reserveCapacity(ids.count + count)
        stamps.reserveCapacity(ids.count + count)
    }

    /// Records that `id` was deleted by `stamp`; of two deletes the smaller stamp is kept.
    mutating func insert(_ id: RowID, deletedBy stamp: Stamp) {
        precondition(index.count == ids.count, "tombstones added in bulk are not indexed yet")
        let existing = ids.withUnsafeBufferPointer { ids in
            index.insert(Int32(ids.count), for: id, unlessPresent: { ids[Int($0)] })
        }
        if let existing {
            if stamp < stamps[Int(existing)] { stamps[Int(existing)] = stamp }
            return
        }
        ids.append(id)
        stamps.append(stamp)
    }

    /// Adds a tombstone without indexing its ID: for a bulk load, which then calls
    /// ``indexUnindexed(unlessIn:)``. Until then the tombstone is not found by ID.
    mutating func insertUnindexed(_ id: RowID, deletedBy stamp: Stamp) {
        ids.append(id)
        stamps.append(stamp)
    }

    /// Indexes the tombstones added by ``insertUnindexed(_:deletedBy:)``; returns false, leaving the index
    /// incomplete, when two share an ID or one is a row of `rows`. One tight loop, as in
    /// ``RowTable/indexUnindexedRows()``.
    mutating func indexUnindexed(unlessIn rows: borrowing RowTable) -> Bool {
        let start = index.count
        return ids.withUnsafeBufferPointer { ids in
            index.insert(contentsOf: Int32(start)..<Int32(ids.count), id: { ids[Int($0)] })
                && !rows.containsAny(of: UnsafeBufferPointer(rebasing: ids[start...]))
        }
    }

    /// Calls `body` with every deleted row and its delete stamp.
    func forEachTombstone(_ body: (RowID, Stamp) throws -> Void) rethrows {
        for offset in ids.indices { try body(ids[offset], stamps[offset]) }
    }
}
