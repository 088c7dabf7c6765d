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

    /// Makes room for `count` more deleted rows.
    mutating func reserveCapacity(_ count: Int) {
        index.reserveCapacity(ids.count + count)
        ids.reserveCapacity(ids.count + count)
        stamps.reserveCapacity(ids.count + count)
    }

    /// Records that `id` was deleted by `stamp`; of two deletes the smaller stamp is kept.
    mutating func insert(_ id: RowID, deletedBy stamp: Stamp) {
        if let existing = slot(of: id) {
            if stamp < stamps[Int(existing)] { stamps[Int(existing)] = stamp }
            return
        }
        index.insert(Int32(ids.count), for: id)
        ids.append(id)
        stamps.append(stamp)
    }

    /// Calls `body` with every deleted row and its delete stamp.
    func forEachTombstone(_ body: (RowID, Stamp) throws -> Void) rethrows {
        for offset in ids.indices { try body(ids[offset], stamps[offset]) }
    }
}
