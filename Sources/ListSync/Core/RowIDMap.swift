/// A hash map from row IDs to 32-bit integers: open addressing with linear probing and a cheap
/// multiplicative hash, several times faster than `Dictionary`'s SipHash on the insert and delete paths.
///
/// Counter 0 marks an empty bucket (row IDs start at counter 1). Deletion shifts later entries back,
/// so lookups never meet tombstones.
@usableFromInline
struct RowIDMap {
    private var keys: ContiguousArray<RowID>
    private var values: ContiguousArray<Int32>
    /// The number of entries.
    private(set) var count = 0
    private var shift: UInt64

    /// An empty map.
    init() {
        keys = ContiguousArray(repeating: RowID(replica: ReplicaID(0), counter: 0), count: 16)
        values = ContiguousArray(repeating: 0, count: 16)
        shift = 60
    }

    @inline(__always)
    private func bucket(of id: RowID) -> Int {
        let hash = (id.replica.rawValue &* 0x9E37_79B9_7F4A_7C15) ^ (id.counter &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: (hash &* 0xFF51_AFD7_ED55_8CCD) >> shift)
    }

    /// The value for `id`, if any.
    @inline(__always)
    subscript(id: RowID) -> Int32? {
        var index = bucket(of: id)
        let mask = keys.count - 1
        while true {
            let key = keys[index]
            if key.counter == 0 { return nil }
            if key == id { return values[index] }
            index = (index + 1) & mask
        }
    }

    /// Makes room for `capacity` entries without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        var buckets = keys.count
        var shift = self.shift
        while capacity * 4 > buckets * 3 {
            buckets *= 2
            shift -= 1
        }
        if buckets > keys.count { rehash(buckets: buckets, shift: shift) }
    }

    /// Sets the value for `id`.
    mutating func set(_ value: Int32, for id: RowID) {
        precondition(id.counter != 0, "row IDs start at counter 1")
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var index = bucket(of: id)
        let mask = keys.count - 1
        while true {
            let key = keys[index]
            if key.counter == 0 {
                keys[index] = id
                values[index] = value
                count += 1
                return
            }
            if key == id {
                values[index] = value
                return
            }
            index = (index + 1) & mask
        }
    }

    /// Removes `id` and its value, if present.
    mutating func remove(_ id: RowID) {
        let mask = keys.count - 1
        var index = bucket(of: id)
        while keys[index] != id {
            if keys[index].counter == 0 { return }
            index = (index + 1) & mask
        }
        // Backward-shift deletion: move later entries of the probe chain into the hole.
        var hole = index
        var next = (hole + 1) & mask
        while keys[next].counter != 0 {
            let home = bucket(of: keys[next])
            // Move the entry if its home is not in the cyclic range (hole, next].
            let distanceToHole = (next - home) & mask
            let distanceToNext = (next - hole) & mask
            if distanceToHole >= distanceToNext {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = RowID(replica: ReplicaID(0), counter: 0)
        count -= 1
    }

    /// Calls `body` with every entry, in no particular order.
    func forEachEntry(_ body: (RowID, Int32) throws -> Void) rethrows {
        for index in keys.indices where keys[index].counter != 0 { try body(keys[index], values[index]) }
    }

    private mutating func grow() {
        rehash(buckets: keys.count * 2, shift: shift - 1)
    }

    /// Moves every entry into `buckets` buckets, addressed by the top `64 - shift` bits of the hash.
    private mutating func rehash(buckets: Int, shift: UInt64) {
        let oldKeys = keys
        let oldValues = values
        keys = ContiguousArray(repeating: RowID(replica: ReplicaID(0), counter: 0), count: buckets)
        values = ContiguousArray(repeating: 0, count: buckets)
        self.shift = shift
        let mask = buckets - 1
        // Every key is distinct and there is room: each goes into the first empty bucket of its probe.
        for index in oldKeys.indices where oldKeys[index].counter != 0 {
            var target = bucket(of: oldKeys[index])
            while keys[target].counter != 0 { target = (target + 1) & mask }
            keys[target] = oldKeys[index]
            values[target] = oldValues[index]
        }
    }
}
