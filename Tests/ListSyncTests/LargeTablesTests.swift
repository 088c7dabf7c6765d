import Testing

@testable import ListSync

/// Tables reserved for a bulk load (advised to use huge pages on Linux above a threshold) hold and grow
/// like ordinary arrays, and a list loaded into such tables behaves like the list it was saved from.
struct LargeTablesTests {
    /// Element counts below, at and above the advice threshold (in 8-byte elements).
    static let counts = [0, 1, 1_000, LargeTables.threshold / 8, LargeTables.threshold / 8 + 4_097]

    @Test(arguments: counts)
    func reservedTablesHoldTheirElements(count: Int) {
        var table = LargeTables.array(repeating: UInt64(7), count: count, capacity: count + count / 8)
        #expect(table.count == count && table.capacity >= count + count / 8)
        #expect(table.allSatisfy { $0 == 7 })
        table.append(8)
        LargeTables.reserve(&table, capacity: 2 * count + 1)
        #expect(table.capacity >= 2 * count + 1)
        #expect(table.count == count + 1 && table.last == 8 && table.dropLast().allSatisfy { $0 == 7 })
        var list = Array(0..<count)
        LargeTables.reserve(&list, capacity: count + 10)
        #expect(list == Array(0..<count) && list.capacity >= count + 10)
    }

    /// 80,000 rows (their row table over the threshold), some moved and edited so that the load keeps
    /// stamps' dots apart from some row on, saved and loaded; then both lists take the same edits,
    /// which split the order index's leaves into the room reserved at load.
    @Test func largeListLoadsAndEditsLikeTheOriginal() throws {
        let original = ReplicatedList<Int>(replicaID: ReplicaID(1))
        original.append(contentsOf: 0..<80_000)
        var generator = SplitMix64(seed: 0x1A26E)
        for step in 0..<2_000 {
            original.move(
                fromOffsets: [Int.random(in: 0..<original.count, using: &generator)],
                toOffset: Int.random(in: 0...original.count, using: &generator))
            if step % 4 == 0 { original.updateValue(-step, at: Int.random(in: 0..<original.count, using: &generator)) }
        }
        let loaded = try ReplicatedList<Int>(snapshot: original.snapshot(), replicaID: ReplicaID(2))
        loaded.core.checkInvariants()
        #expect(Array(loaded).map(\.value) == Array(original).map(\.value))
        for step in 0..<6_000 {
            let (offset, target) = (
                Int.random(in: 0..<original.count, using: &generator),
                Int.random(in: 0...original.count, using: &generator)
            )
            for list in [original, loaded] {
                list.insert(1_000_000 + step, at: target)
                if step % 3 == 0 { list.move(fromOffsets: [offset], toOffset: target) }
            }
        }
        loaded.core.checkInvariants()
        #expect(Array(loaded).map(\.value) == Array(original).map(\.value))
    }
}
