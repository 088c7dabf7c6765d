internal import CListSyncPrefetch

/// A hash index from row IDs to the 32-bit slots of a table that holds the IDs: open addressing with
/// linear probing and a cheap multiplicative hash, several times faster than `Dictionary`'s SipHash.
///
/// A bucket is 8 bytes, not the 20 of an ID and a slot: it keeps the slot and the top 32 bits of the
/// ID's hash. The bucket an entry belongs in follows from those bits alone, so growing and deleting
/// never read the table; a lookup reads the ID back from the table only when the hash bits match.
/// Deletion shifts later entries back, so lookups never meet tombstones.
///
/// The number of buckets is any number, not a power of two: an index reserved for a bulk load gets just
/// the buckets its entries need at a load of 3/4 (a power of two left it between 3/8 and 3/4 full: 8 to
/// 16 bytes an entry more). An index that grows entry by entry doubles: growing by half kept it fuller,
/// and the longer probes made local edits about 5 % slower (docs/runs.md).
struct RowIDIndex {
    /// Per bucket: the hash's top 32 bits, then the slot plus one (0: an empty bucket).
    private var buckets: ContiguousArray<UInt64>
    /// The number of entries.
    private(set) var count = 0
    /// The number of buckets, 8 bytes each.
    var bucketCount: Int { buckets.count }

    /// An empty index.
    init() {
        buckets = ContiguousArray(repeating: 0, count: Self.minimumSize)
    }

    /// The fewest buckets an index has.
    private static let minimumSize = 16

    /// The top 32 bits of `id`'s hash: what a bucket keeps of it.
    @inline(__always)
    static func hashBits(of id: RowID) -> UInt64 {
        let hash = (id.replica.rawValue &* 0x9E37_79B9_7F4A_7C15) ^ (id.counter &* 0xC2B2_AE3D_27D4_EB4F)
        return (hash &* 0xFF51_AFD7_ED55_8CCD) >> 32
    }

    /// The bucket an entry with hash bits `bits` (32 of them) belongs in, among `size` buckets: the bits
    /// scaled to the size, so that entries lie in the order of their bits whatever the size.
    @inline(__always)
    private static func home(ofHashBits bits: UInt64, size: Int) -> Int {
        Int(truncatingIfNeeded: (bits &* UInt64(truncatingIfNeeded: size)) >> 32)
    }

    /// The bucket after `index` among `size` buckets, wrapping around.
    @inline(__always)
    private static func bucket(after index: Int, size: Int) -> Int {
        index &+ 1 == size ? 0 : index &+ 1
    }

    /// The slot of `id`, reading the ID in a candidate slot with `idOfSlot`.
    @inline(__always)
    func slot(of id: RowID, id idOfSlot: (Int32) -> RowID) -> Int32? {
        guard count > 0 else { return nil }  // an empty index (a replica without tombstones) is not read
        return probe(for: id, hashBits: Self.hashBits(of: id), id: idOfSlot).slot
    }

    /// The bucket holding `id` and its slot, or the empty bucket that ends its probe sequence and nil.
    @inline(__always)
    private func probe(for id: RowID, hashBits bits: UInt64, id idOfSlot: (Int32) -> RowID) -> (
        bucket: Int, slot: Int32?
    ) {
        buckets.withUnsafeBufferPointer { buckets in
            var index = Self.home(ofHashBits: bits, size: buckets.count)
            while true {
                let bucket = buckets[index]
                if bucket == 0 { return (index, nil) }
                if bucket >> 32 == bits {
                    let slot = Int32(truncatingIfNeeded: (bucket & 0xFFFF_FFFF) - 1)
                    if idOfSlot(slot) == id { return (index, slot) }
                }
                index = Self.bucket(after: index, size: buckets.count)
            }
        }
    }

    /// Adds `slot` for `id`, which the index does not hold.
    mutating func insert(_ slot: Int32, for id: RowID) {
        precondition(slot >= 0, "slots are not negative")
        growIfFull()
        place(Self.hashBits(of: id) << 32 | (UInt64(slot) + 1))
        count += 1
    }

    /// Adds `slot` for `id` unless the index holds `id` already (reading the ID in a candidate slot with
    /// `idOfSlot`); returns the slot it holds, or nil when it added `slot`. One probe for both.
    mutating func insert(_ slot: Int32, for id: RowID, unlessPresent idOfSlot: (Int32) -> RowID) -> Int32? {
        precondition(slot >= 0, "slots are not negative")
        growIfFull()
        let bits = Self.hashBits(of: id)
        let (bucket, existing) = probe(for: id, hashBits: bits, id: idOfSlot)
        if let existing { return existing }
        buckets[bucket] = bits << 32 | (UInt64(slot) + 1)
        count += 1
        return nil
    }

    /// Adds the slots `slots`, reading their IDs with `idOfSlot`, in one tight loop; returns false,
    /// leaving the index incomplete, when an ID is held already.
    ///
    /// Each bucket is a cache miss: the loop prefetches the home bucket of the ID ``prefetchDistance``
    /// slots ahead, so that many misses are under way at once.
    mutating func insert(contentsOf slots: Range<Int32>, id idOfSlot: (Int32) -> RowID) -> Bool {
        reserveCapacity(count + slots.count)  // no growth inside the loop: prefetched buckets stay put
        for slot in slots {
            if slot + Self.prefetchDistance < slots.upperBound {
                prefetchHome(of: idOfSlot(slot + Self.prefetchDistance))
            }
            guard insert(slot, for: idOfSlot(slot), unlessPresent: idOfSlot) == nil else { return false }
        }
        return true
    }

    /// Whether the index holds one of `ids` (reading the ID in a candidate slot with `idOfSlot`): a tight
    /// loop of lookups that prefetches ahead as ``insert(contentsOf:id:)`` does.
    func containsAny(of ids: UnsafeBufferPointer<RowID>, id idOfSlot: (Int32) -> RowID) -> Bool {
        guard count > 0 else { return false }
        let distance = Int(Self.prefetchDistance)
        for offset in ids.indices {
            if offset + distance < ids.count { prefetchHome(of: ids[offset + distance]) }
            if slot(of: ids[offset], id: idOfSlot) != nil { return true }
        }
        return false
    }

    /// How many IDs ahead a bulk insert or lookup prefetches.
    static let prefetchDistance: Int32 = 16

    /// Starts loading the home bucket of `id` into the cache, without waiting for it.
    func prefetchHome(of id: RowID) {
        buckets.withUnsafeBufferPointer { buckets in
            listsync_prefetch(
                buckets.baseAddress.unsafelyUnwrapped
                    + Self.home(ofHashBits: Self.hashBits(of: id), size: buckets.count))
        }
    }

    /// Doubles the buckets when one more entry would pass the load factor of 3/4.
    @inline(__always)
    private mutating func growIfFull() {
        if (count + 1) * 4 > buckets.count * 3 { rehash(buckets: buckets.count * 2) }
    }

    /// Puts `entry` in the first empty bucket of its probe sequence.
    @inline(__always)
    private mutating func place(_ entry: UInt64) {
        buckets.withUnsafeMutableBufferPointer { buckets in
            var index = Self.home(ofHashBits: entry >> 32, size: buckets.count)
            while buckets[index] != 0 { index = Self.bucket(after: index, size: buckets.count) }
            buckets[index] = entry
        }
    }

    /// Removes the entry of `slot`, which holds `id`.
    mutating func remove(_ slot: Int32, for id: RowID) {
        let entry = Self.hashBits(of: id) << 32 | (UInt64(slot) + 1)
        buckets.withUnsafeMutableBufferPointer { buckets in
            let size = buckets.count
            /// How many buckets on from `start` `end` lies, wrapping around.
            func distance(_ start: Int, _ end: Int) -> Int { end >= start ? end - start : end - start + size }
            var hole = Self.home(ofHashBits: entry >> 32, size: size)
            while buckets[hole] != entry {
                precondition(buckets[hole] != 0, "removing a slot the index does not hold")
                hole = Self.bucket(after: hole, size: size)
            }
            // Backward-shift deletion: move later entries of the probe chain into the hole.
            var next = Self.bucket(after: hole, size: size)
            while buckets[next] != 0 {
                let home = Self.home(ofHashBits: buckets[next] >> 32, size: size)
                // Move the entry if its home is not in the cyclic range (hole, next].
                if distance(home, next) >= distance(hole, next) {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = Self.bucket(after: next, size: size)
            }
            buckets[hole] = 0
        }
        count -= 1
    }

    /// Makes room for `capacity` entries without growing again: the fewest buckets that hold them at a
    /// load of 3/4.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity * 4 > buckets.count * 3 { rehash(buckets: (capacity * 4 + 2) / 3) }
    }

    /// Calls `body` with every slot, in no particular order.
    func forEachSlot(_ body: (Int32) throws -> Void) rethrows {
        for bucket in buckets where bucket != 0 { try body(Int32(truncatingIfNeeded: (bucket & 0xFFFF_FFFF) - 1)) }
    }

    /// Moves every entry into `size` buckets.
    private mutating func rehash(buckets size: Int) {
        precondition(size <= 1 << 32, "a row ID index holds at most 2^31 entries")
        var old = buckets
        buckets = LargeTables.array(repeating: 0, count: size, capacity: size)
        for entry in old where entry != 0 { place(entry) }
        LargeTables.releasePages(of: &old)
    }
}
