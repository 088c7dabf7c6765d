import Testing

@testable import ListSync

/// The row ID index against a dictionary: random inserts, removals and lookups, including IDs whose
/// kept hash bits are equal, so lookups must read the ID back from the table.
struct RowIDIndexTests {
    /// Two row IDs with equal hash bits, found by a birthday search.
    static func collidingIDs() -> (RowID, RowID) {
        var seen: [UInt64: RowID] = [:]
        for counter in UInt64(1)... {
            let id = RowID(replica: ReplicaID(7), counter: counter)
            let bits = RowIDIndex.hashBits(of: id)
            if let other = seen[bits] { return (other, id) }
            seen[bits] = id
        }
        preconditionFailure("unreachable")
    }

    @Test(arguments: [1, 2, 3])
    func matchesADictionary(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let (first, second) = Self.collidingIDs()
        // The table the index refers to: slot -> ID (nil when free), and the reference.
        var table: [RowID?] = []
        var freeSlots: [Int32] = []
        var reference: [RowID: Int32] = [:]
        var index = RowIDIndex()
        let pool = [first, second] + (1...600).map { RowID(replica: ReplicaID(UInt64($0 % 3)), counter: UInt64($0)) }
        for step in 0..<20_000 {
            let id = pool[Int.random(in: 0..<pool.count, using: &generator)]
            let found = table.withUnsafeBufferPointer { rows in index.slot(of: id) { rows[Int($0)]! } }
            #expect(found == reference[id], "step \(step): lookup of \(id)")
            if let slot = found {
                if Bool.random(using: &generator) {
                    index.remove(slot, for: id)
                    table[Int(slot)] = nil
                    freeSlots.append(slot)
                    reference[id] = nil
                }
            } else {
                let slot = freeSlots.popLast() ?? Int32(table.count)
                if slot == Int32(table.count) { table.append(nil) }
                table[Int(slot)] = id
                index.insert(slot, for: id)
                reference[id] = slot
            }
            #expect(index.count == reference.count)
        }
        var slots: [Int32] = []
        index.forEachSlot { slots.append($0) }
        #expect(slots.sorted() == reference.values.sorted())
        #expect(RowIDIndex.hashBits(of: first) == RowIDIndex.hashBits(of: second) && first != second)
    }

    /// IDs whose entries belong in the last of 16 buckets or the first: probe sequences that wrap past
    /// the end. Every lookup stays right while they are removed one by one in a random order (the
    /// backward shift measures distances around the end).
    @Test(arguments: [1, 2, 3, 4])
    func probeSequencesWrapPastTheLastBucket(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let ids = (UInt64(1)...).lazy.map { RowID(replica: ReplicaID(seed), counter: $0) }
        let last = Array(ids.filter { RowIDIndex.hashBits(of: $0) >> 28 == 15 }.prefix(7))
        let first = Array(ids.filter { RowIDIndex.hashBits(of: $0) >> 28 == 0 }.prefix(4))
        let table = (last + first).shuffled(using: &generator)
        var index = RowIDIndex()
        for (slot, id) in table.enumerated() { index.insert(Int32(slot), for: id) }
        #expect(index.bucketCount == 16)
        var present = Set(table.indices)
        while let removed = present.randomElement(using: &generator) {
            index.remove(Int32(removed), for: table[removed])
            present.remove(removed)
            for slot in table.indices {
                let found = table.withUnsafeBufferPointer { rows in index.slot(of: rows[slot]) { rows[Int($0)] } }
                let expected = present.contains(slot) ? Int32(slot) : nil
                #expect(found == expected, "\(table[slot]) after removing \(removed)")
            }
        }
        #expect(index.count == 0)
    }

    /// An index reserved for a bulk load of `count` entries takes the fewest buckets that hold them at a
    /// load of 3/4, not the next power of two, and holds them all; one that grows entry by entry doubles
    /// at that load.
    @Test(arguments: [1_000, 104_852, 262_144])
    func reservedIndexHasTheBucketsItsEntriesNeed(count: Int) {
        let ids = (0..<count).map { RowID(replica: ReplicaID(UInt64($0 % 5)), counter: UInt64($0)) }
        var reserved = RowIDIndex()
        let added = ids.withUnsafeBufferPointer { rows in
            reserved.insert(contentsOf: 0..<Int32(count)) { rows[Int($0)] }
        }
        #expect(added && reserved.count == count)
        #expect(reserved.bucketCount == (count * 4 + 2) / 3)
        var grown = RowIDIndex()
        for (slot, id) in ids.enumerated() { grown.insert(Int32(slot), for: id) }
        #expect(grown.bucketCount * 3 >= count * 4 && grown.bucketCount * 3 < count * 8)
        ids.withUnsafeBufferPointer { rows in
            #expect(ids.indices.allSatisfy { reserved.slot(of: ids[$0]) { rows[Int($0)] } == Int32($0) })
            #expect(ids.indices.allSatisfy { grown.slot(of: ids[$0]) { rows[Int($0)] } == Int32($0) })
        }
    }
}
