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
}
