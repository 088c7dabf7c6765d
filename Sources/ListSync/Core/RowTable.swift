internal import CListSyncPrefetch

/// A row the replica knows and that is not deleted: its identity and the stamps of its registers; or a
/// local placeholder.
///
/// A row is visible once both its position and its value are known; a row that so far is known only
/// from a move or an edit (its insert not yet received) waits here invisibly. A placeholder has a key,
/// no stamps and no row: its `id` has counter 0, which no row ID has, and the placeholder's number in
/// place of the replica (so a record needs no separate placeholder field). That `id` is never read as a
/// row ID: it is not in the row ID lookup, and every path that sends or exposes a row ID checks
/// `placeholder` first. The table stores it smaller (``StoredRow``) and builds it when it is read whole.
@usableFromInline
struct RowRecord {
    @usableFromInline var id: RowID
    /// The position key; meaningful when `positionStamp` is set.
    var key: PositionKey
    /// The stamp of the operation that set the position, or ``Stamp/none``.
    var positionStamp: Stamp
    /// The stamp of the operation that set the value, or ``Stamp/none``.
    var valueStamp: Stamp

    /// A row's record.
    init(id: RowID, key: PositionKey, positionStamp: Stamp, valueStamp: Stamp) {
        self.id = id
        self.key = key
        self.positionStamp = positionStamp
        self.valueStamp = valueStamp
    }

    /// A placeholder's record.
    init(placeholder: PlaceholderID, key: PositionKey) {
        self.init(id: Self.id(of: placeholder), key: key, positionStamp: .none, valueStamp: .none)
    }

    /// The `id` of the record of `placeholder`.
    static func id(of placeholder: PlaceholderID) -> RowID {
        RowID(replica: ReplicaID(placeholder.rawValue), counter: 0)
    }

    /// The placeholder a record with `id` is, or nil for a row's record.
    @inline(__always)
    static func placeholder(of id: RowID) -> PlaceholderID? {
        id.counter == 0 ? PlaceholderID(rawValue: id.replica.rawValue) : nil
    }

    /// The placeholder this record is, or nil for a row.
    var placeholder: PlaceholderID? { Self.placeholder(of: id) }

    /// The key of a row whose position is not known yet (never read: its position stamp is unset).
    static let unsetKey = PositionKey([1])
}

extension Stamp {
    /// No stamp: the register was never set (real operations have Lamport time 1 or more).
    static let none = Stamp(lamport: 0, dot: Dot(replica: ReplicaID(0), counter: 0))

    /// Whether this is a real stamp.
    var isSet: Bool { lamport != 0 }
}

/// A ``RowRecord`` as the table stores it, in 64 bytes instead of 104: the key packed, and of each
/// stamp its Lamport time. A stamp's dot is most often the row's ID (the insert set both registers);
/// when it is not, the Lamport time has ``dotApart`` set and the dot is in the table's side array for
/// that register.
private struct StoredRow {
    var id: RowID
    var key: PackedKey
    var positionLamport: UInt64
    var valueLamport: UInt64

    /// Set in a stored Lamport time whose stamp's dot is not the row's ID. Lamport times are at most
    /// ``Stamp/maximumLamport`` (2^62 − 1), so the bit is free.
    static let dotApart: UInt64 = 1 << 63
}

/// The rows a replica knows, in slots that are reused after deletes, with lookup by row ID.
@usableFromInline
struct RowTable {
    private var records: ContiguousArray<StoredRow> = []
    /// The dots of position stamps that are not their row's ID, by slot (other slots hold stale
    /// dots): empty until a row's position is set by a move, then as long as `records`.
    private var positionDots: ContiguousArray<Dot> = []
    /// The dots of value stamps that are not their row's ID, as `positionDots`.
    private var valueDots: ContiguousArray<Dot> = []
    private var index = RowIDIndex()
    private var freeSlots: [Int32] = []
    /// The slots of local placeholders (never in the row-ID index).
    private(set) var placeholders: [PlaceholderID: Int32] = [:]
    /// The slots of rows whose value this replica cannot show (its owner could not decode it): kept and
    /// relayed, but out of the visible order until a value it can show replaces it.
    private(set) var hidden: Set<Int32> = []

    /// The number of rows (visible or waiting), not counting placeholders.
    var count: Int { index.count }

    /// The number of slots ever used (in use or free): every slot is below it.
    @usableFromInline var slotCount: Int { records.count }

    /// The number of slots the table has room for without growing.
    @usableFromInline var slotCapacity: Int { records.capacity }

    /// The record in `slot`. Read only: a record changes through ``setPosition(_:stamp:of:)``,
    /// ``setValueStamp(_:of:)`` and ``setPlaceholderKey(_:of:)``.
    @usableFromInline
    subscript(slot: Int32) -> RowRecord {
        RowRecord(
            id: id(of: slot), key: key(of: slot), positionStamp: positionStamp(of: slot),
            valueStamp: valueStamp(of: slot))
    }

    /// The ID of the row in `slot` (for a placeholder: see ``RowRecord``).
    @usableFromInline
    func id(of slot: Int32) -> RowID { records[Int(slot)].id }

    /// Whether the row `id` is in `slot` with the key its insert gave it (its position set by its
    /// insert, whose stamp's dot is the row's ID).
    func hasInsertedKey(_ slot: Int32, id: RowID) -> Bool {
        let lamport = records[Int(slot)].positionLamport
        return records[Int(slot)].id == id && lamport != 0 && lamport & StoredRow.dotApart == 0
    }

    /// The key of the row or placeholder in `slot`; meaningful when its position stamp is set.
    @inline(__always)
    func key(of slot: Int32) -> PositionKey { records[Int(slot)].key.key }

    /// The stamp of the operation that set the position of the row in `slot`, or ``Stamp/none``.
    @usableFromInline
    func positionStamp(of slot: Int32) -> Stamp {
        Self.stamp(records[Int(slot)].positionLamport, of: slot, dots: positionDots, id: records[Int(slot)].id)
    }

    /// The stamp of the operation that set the value of the row in `slot`, or ``Stamp/none``.
    @usableFromInline
    func valueStamp(of slot: Int32) -> Stamp {
        Self.stamp(records[Int(slot)].valueLamport, of: slot, dots: valueDots, id: records[Int(slot)].id)
    }

    /// The stamp a stored Lamport time stands for (see ``StoredRow``).
    @inline(__always)
    private static func stamp(_ stored: UInt64, of slot: Int32, dots: ContiguousArray<Dot>, id: RowID) -> Stamp {
        if stored & StoredRow.dotApart != 0 {
            return Stamp(lamport: stored & ~StoredRow.dotApart, dot: dots[Int(slot)])
        }
        return stored == 0 ? .none : Stamp(lamport: stored, dot: id)
    }

    /// `stamp` as the row in `slot` stores it, its dot put in `dots` when it is not the row's ID
    /// (see ``StoredRow``); `dots` is made `slotCount` long, with room for `slotCapacity`, at its first.
    @inline(__always)
    private static func storedLamport(
        _ stamp: Stamp, of slot: Int32, dots: inout ContiguousArray<Dot>, id: RowID, slotCount: Int,
        slotCapacity: Int
    ) -> UInt64 {
        assert(stamp.lamport <= Stamp.maximumLamport, "Lamport time \(stamp.lamport) out of range")
        guard stamp.isSet && stamp.dot != id else { return stamp.lamport }
        if dots.isEmpty {
            // As much room as the records have, so that a bulk load that sets its first dot apart midway
            // does not then grow the dots by doubling, row by row, while it fills the reserved records.
            dots = LargeTables.array(repeating: Stamp.none.dot, count: slotCount, capacity: slotCapacity)
        }
        dots.withUnsafeMutableBufferPointer { $0[Int(slot)] = stamp.dot }
        return stamp.lamport | StoredRow.dotApart
    }

    /// The placeholder in `slot`, or nil for a row.
    @usableFromInline
    func placeholder(of slot: Int32) -> PlaceholderID? { RowRecord.placeholder(of: records[Int(slot)].id) }

    /// Gives the row in `slot` the position `key`, set by the operation `stamp`.
    mutating func setPosition(_ key: consuming PositionKey, stamp: Stamp, of slot: Int32) {
        let lamport = Self.storedLamport(
            stamp, of: slot, dots: &positionDots, id: id(of: slot), slotCount: records.count,
            slotCapacity: records.capacity)
        let key = PackedKey(key)
        // One access to the records (one uniqueness check) for both fields.
        records.withUnsafeMutableBufferPointer { records in
            records[Int(slot)].key = key
            records[Int(slot)].positionLamport = lamport
        }
    }

    /// Records that the operation `stamp` set the value of the row in `slot`.
    mutating func setValueStamp(_ stamp: Stamp, of slot: Int32) {
        records[Int(slot)].valueLamport = Self.storedLamport(
            stamp, of: slot, dots: &valueDots, id: id(of: slot), slotCount: records.count,
            slotCapacity: records.capacity)
    }

    /// Gives the placeholder in `slot` the key `key` (placeholders have no stamps).
    mutating func setPlaceholderKey(_ key: PositionKey, of slot: Int32) {
        precondition(placeholder(of: slot) != nil, "slot \(slot) holds a row, not a placeholder")
        records[Int(slot)].key = PackedKey(key)
    }

    /// The slot of the row `id`, if the table has it.
    func slot(of id: RowID) -> Int32? {
        records.withUnsafeBufferPointer { records in index.slot(of: id) { records[Int($0)].id } }
    }

    /// Whether the row in `slot` is in the visible order: both its position and value are known, and its
    /// value is not hidden.
    func isVisible(_ slot: Int32) -> Bool {
        records[Int(slot)].positionLamport != 0 && records[Int(slot)].valueLamport != 0
            && (hidden.isEmpty || !hidden.contains(slot))
    }

    /// Hides the value of the row in `slot` (`true`), or shows it again (`false`).
    mutating func setHidden(_ isHidden: Bool, _ slot: Int32) {
        if isHidden {
            hidden.insert(slot)
        } else if !hidden.isEmpty {
            hidden.remove(slot)
        }
    }

    /// Whether the record in `slot` is a placeholder's; reads the record only while placeholders are
    /// pending, so that a move's check costs no cache miss (see ``prefetch(_:)``).
    func isPlaceholder(_ slot: Int32) -> Bool {
        !placeholders.isEmpty && placeholder(of: slot) != nil
    }

    /// Starts loading every cache line of the record in `slot` (one or two) without waiting for them:
    /// a move calls this as soon as it knows its row's slot, so that the record, read only after placing
    /// the row, is in the cache by then instead of a miss to wait for.
    func prefetch(_ slot: Int32) {
        records.withUnsafeBufferPointer { records in
            let record = UnsafeRawPointer(records.baseAddress.unsafelyUnwrapped + Int(slot))
            for offset in stride(from: 0, to: MemoryLayout<StoredRow>.stride, by: 64) {
                listsync_prefetch(record + offset)
            }
            listsync_prefetch(record + MemoryLayout<StoredRow>.stride - 1)
        }
        // A move sets the position's dot apart (a dot that is not the row's ID).
        positionDots.withUnsafeBufferPointer { dots in
            if let base = dots.baseAddress { listsync_prefetch(UnsafeRawPointer(base + Int(slot))) }
        }
    }

    /// The key head (``PositionKey/head``) of the row or placeholder in `slot`, read in place.
    func keyHead(of slot: Int32) -> UInt64 {
        records.withUnsafeBufferPointer { $0[Int(slot)].key.head }
    }

    /// The order index bound (key, rank, ID) of the row or placeholder in `slot`.
    @inline(__always)
    func bound(of slot: Int32) -> OrderIndex.Bound {
        let id = records[Int(slot)].id
        return OrderIndex.Bound(key: records[Int(slot)].key.key, id: id, placeholder: RowRecord.placeholder(of: id))
    }

    /// Whether the row in slot `a` comes before the row in slot `b` in the order (by key, then ID), read
    /// in place: no key is copied.
    func precedes(_ a: Int32, _ b: Int32) -> Bool {
        records.withUnsafeBufferPointer { records in
            let (a, b) = (records[Int(a)], records[Int(b)])
            return a.key < b.key || (a.key == b.key && a.id < b.id)
        }
    }

    /// Makes room for `count` more rows.
    mutating func reserveCapacity(adding count: Int) {
        index.reserveCapacity(index.count + count)
        LargeTables.reserve(&records, capacity: records.count + count)
        if !positionDots.isEmpty { LargeTables.reserve(&positionDots, capacity: records.count + count) }
        if !valueDots.isEmpty { LargeTables.reserve(&valueDots, capacity: records.count + count) }
    }

    /// Adds the row `id` with key `key` (meaningful when `positionStamp` is set) and the stamps of its
    /// registers, and returns its slot.
    mutating func add(id: RowID, key: consuming PositionKey, positionStamp: Stamp, valueStamp: Stamp) -> Int32 {
        let slot = store(id: id, key: key, positionStamp: positionStamp, valueStamp: valueStamp)
        index.insert(slot, for: id)
        return slot
    }

    /// Adds a row as ``add(id:key:positionStamp:valueStamp:)`` does, without indexing its ID, and returns
    /// its slot: for a bulk load, which then calls ``indexUnindexedRows()``. Until then the table does
    /// not find the row by ID.
    mutating func addUnindexed(
        id: RowID, key: consuming PositionKey, positionStamp: Stamp, valueStamp: Stamp
    ) -> Int32 {
        precondition(freeSlots.isEmpty, "bulk loading into a table with free slots")
        return store(id: id, key: key, positionStamp: positionStamp, valueStamp: valueStamp)
    }

    /// Indexes the IDs of the rows added by ``addUnindexed(id:key:positionStamp:valueStamp:)``; returns false, leaving the index
    /// incomplete, when two rows share an ID.
    ///
    /// One tight loop over the IDs, so that the index's cache misses overlap instead of following one
    /// another as they would between decoding rows.
    mutating func indexUnindexedRows() -> Bool {
        records.withUnsafeBufferPointer { records in
            index.insert(contentsOf: Int32(index.count)..<Int32(records.count), id: { records[Int($0)].id })
        }
    }

    /// Starts loading the bucket that looking up the row `id` reads first.
    func prefetchLookup(of id: RowID) { index.prefetchHome(of: id) }

    /// Whether one of `ids` is a row of the table (looked up in one prefetching loop).
    func containsAny(of ids: UnsafeBufferPointer<RowID>) -> Bool {
        records.withUnsafeBufferPointer { records in index.containsAny(of: ids) { records[Int($0)].id } }
    }

    /// The slots of the rows of the table that lie in `runs` (ordered, disjoint): looking up the runs'
    /// rows, or going through the table's, whichever is less work (runs from a peer may claim any number
    /// of rows).
    /// - Complexity: O(min(m, n log r)) for m rows in r runs and n rows in the table.
    func slots(in runs: some RandomAccessCollection<DeletionRun>) -> [Int32] {
        var slots: [Int32] = []
        guard !runs.isEmpty else { return slots }
        let rows = runs.reduce(UInt64(0)) { $0.addingSaturated($1.length) }
        if rows <= UInt64(count) {
            for run in runs {
                for counter in run.first..<run.end {
                    if let slot = slot(of: RowID(replica: run.replica, counter: counter)) { slots.append(slot) }
                }
            }
        } else if let found = slotsByBitmap(in: runs) {
            slots = found
        } else {
            // The runs' first rows packed side by side, searched for each row: a run is 56 bytes, and
            // reading one in eight of them at each step of many searches went to memory.
            let starts = runs.map { (replica: $0.replica.rawValue, counter: $0.first) }
            starts.withUnsafeBufferPointer { starts in
                forEachSlot { slot in
                    let id = records[Int(slot)].id
                    let after = Tombstones.runsStarting(atOrBefore: id, count: starts.count) { starts[$0] }
                    if after > 0, runs[runs.index(runs.startIndex, offsetBy: after - 1)].contains(id) {
                        slots.append(slot)
                    }
                }
            }
        }
        return slots
    }

    /// The slots of the rows of the table that lie in `runs` (ordered, disjoint), found through a bitmap
    /// of the table's counters per replica: one pass over the rows sets their bits, then each run reads
    /// the bits of its counters, a word at a time, and looks up only the rows it finds. Nil, for a search
    /// instead, when the table's counters are too spread out for a bitmap of about a word per row, or its
    /// rows are of too many replicas.
    /// - Complexity: O(n + r + w) for n rows, r runs and a bitmap of w ≤ n + 1,024 words.
    private func slotsByBitmap(in runs: some RandomAccessCollection<DeletionRun>) -> [Int32]? {
        // Every record is a row's when no slot is free and no placeholder pending (as after a bulk load):
        // read in order then, not through the index's buckets.
        var ids: [RowID] = []
        if freeSlots.isEmpty && placeholders.isEmpty {
            ids = records.map(\.id)
        } else {
            ids.reserveCapacity(count)
            forEachSlot { ids.append(records[Int($0)].id) }
        }
        var spans: [BitmapSpan] = []
        var latest = 0
        for id in ids {
            if let found = BitmapSpan.position(of: id.replica, in: spans, latest: &latest) {
                spans[found].low = min(spans[found].low, id.counter)
                spans[found].high = max(spans[found].high, id.counter)
            } else {
                guard spans.count < BitmapSpan.maximumCount else { return nil }
                spans.append(BitmapSpan(replica: id.replica, low: id.counter, high: id.counter, start: 0))
            }
        }
        var words = 0
        for position in spans.indices {
            spans[position].start = words
            words += Int((spans[position].high - spans[position].low) / 64) + 1  // at most 2^58 + 1 each
            guard words <= count + 1_024 else { return nil }
        }
        var bits = [UInt64](repeating: 0, count: words)
        for id in ids {
            let span = spans[BitmapSpan.position(of: id.replica, in: spans, latest: &latest)!]
            let offset = id.counter - span.low
            bits[span.start + Int(offset / 64)] |= 1 << (offset % 64)
        }
        var slots: [Int32] = []
        for run in runs {
            guard run.length > 0, let position = BitmapSpan.position(of: run.replica, in: spans, latest: &latest)
            else { continue }
            let span = spans[position]
            guard run.end - 1 >= span.low && run.first <= span.high else { continue }
            let (first, last) = (max(run.first, span.low) - span.low, min(run.end - 1, span.high) - span.low)
            var offset = first
            while offset <= last {
                // The bits of this word from `offset` on, up to `last`.
                var word = bits[span.start + Int(offset / 64)] >> (offset % 64)
                if last - offset < 63 { word &= (1 << (last - offset + 1)) - 1 }
                while word != 0 {
                    let counter = span.low + offset + UInt64(word.trailingZeroBitCount)
                    slots.append(slot(of: RowID(replica: run.replica, counter: counter))!)
                    word &= word - 1
                }
                offset += 64 - offset % 64
            }
        }
        return slots
    }

    /// Adds the record of placeholder `id` with key `key` and returns its slot.
    mutating func addPlaceholder(_ id: PlaceholderID, key: PositionKey) -> Int32 {
        let slot = store(id: RowRecord.id(of: id), key: key, positionStamp: .none, valueStamp: .none)
        placeholders[id] = slot
        return slot
    }

    /// The slot of placeholder `id`, if it is pending.
    func slot(of id: PlaceholderID) -> Int32? { placeholders[id] }

    /// Removes the record of placeholder `id` and returns its slot, which may be reused.
    mutating func removePlaceholder(_ id: PlaceholderID) -> Int32? {
        guard let slot = placeholders.removeValue(forKey: id) else { return nil }
        freeSlots.append(slot)
        return slot
    }

    private mutating func store(
        id: RowID, key: consuming PositionKey, positionStamp: Stamp, valueStamp: Stamp
    ) -> Int32 {
        let isNew = freeSlots.isEmpty
        let slot = isNew ? Int32(records.count) : freeSlots.removeLast()
        if isNew {
            LargeTables.makeRoom(&records, for: 1)
            if !positionDots.isEmpty {
                LargeTables.makeRoom(&positionDots, for: 1)
                positionDots.append(Stamp.none.dot)
            }
            if !valueDots.isEmpty {
                LargeTables.makeRoom(&valueDots, for: 1)
                valueDots.append(Stamp.none.dot)
            }
        }
        let slotCount = records.count + (isNew ? 1 : 0)
        let row = StoredRow(
            id: id, key: PackedKey(key),
            positionLamport: Self.storedLamport(
                positionStamp, of: slot, dots: &positionDots, id: id, slotCount: slotCount,
                slotCapacity: records.capacity),
            valueLamport: Self.storedLamport(
                valueStamp, of: slot, dots: &valueDots, id: id, slotCount: slotCount, slotCapacity: records.capacity))
        if isNew {
            records.append(row)
        } else {
            records[Int(slot)] = row
        }
        return slot
    }

    /// Removes the record in `slot`; the slot may be reused.
    mutating func remove(_ slot: Int32) {
        index.remove(slot, for: records[Int(slot)].id)
        setHidden(false, slot)
        freeSlots.append(slot)
    }

    /// Calls `body` with every slot in use.
    func forEachSlot(_ body: (Int32) throws -> Void) rethrows {
        try index.forEachSlot(body)
    }
}

/// The counters of one replica's rows in ``RowTable``'s bitmap search: the lowest and the highest, and
/// where the replica's bits start in the bitmap.
private struct BitmapSpan {
    var replica: ReplicaID
    var low: UInt64
    var high: UInt64
    var start: Int

    /// The most replicas a bitmap search takes.
    static let maximumCount = 64

    /// The position of `replica` in `spans`, or nil; the one at `latest` (the latest found) is tried
    /// first, and `latest` becomes the one found.
    @inline(__always)
    static func position(of replica: ReplicaID, in spans: [BitmapSpan], latest: inout Int) -> Int? {
        if latest < spans.count && spans[latest].replica == replica { return latest }
        guard let found = spans.firstIndex(where: { $0.replica == replica }) else { return nil }
        latest = found
        return found
    }
}
