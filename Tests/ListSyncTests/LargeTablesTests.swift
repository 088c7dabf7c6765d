import Testing

@testable import ListSync

#if canImport(Glibc)
    import Glibc
#endif

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

    /// A table that edits fill row by row grows past the release threshold with every element kept:
    /// values with storage of their own (strings too long to be inline) are copied into the new buffer
    /// and destroyed once in the old one, and a copy that shared the old buffer keeps it as it was.
    @Test func tablesGrowingPastTheReleaseThresholdKeepTheirElements() {
        let threshold = LargeTables.releaseThreshold(for: String?.self)
        let count = threshold == .max ? 300_000 : threshold / 16 + 1
        var table = ContiguousArray<String?>()
        var shared = table
        for index in 0..<count {
            LargeTables.makeRoom(&table, for: 1)
            table.append(index % 3 == 0 ? nil : "row \(index) with a value longer than fifteen bytes")
            if index == count / 2 { shared = table }
        }
        #expect(table.capacity >= count)
        #expect(
            table.indices.allSatisfy { index in
                table[index] == (index % 3 == 0 ? nil : "row \(index) with a value longer than fifteen bytes")
            })
        #expect(shared.count == count / 2 + 1 && shared.last == table[count / 2])
        LargeTables.makeRoom(&table, for: 2 * table.capacity)
        #expect(table.count == count && table.capacity >= 3 * count && table[1] == shared[1])
    }

    #if canImport(Glibc)
        /// Storage a table outgrows gives its pages back to the system before it is freed, so that it no
        /// longer counts as resident memory (`mincore` reads which pages are resident); a copy that shares
        /// the buffer keeps its elements. Storage of elements with references does so only from a larger
        /// size: below it, it is left as it is.
        @Test func outgrownStorageGivesItsPagesBack() {
            let count = LargeTables.releaseThreshold(for: UInt64.self) / 8 * 2
            #expect(LargeTables.releaseThreshold(for: String?.self) > count * 8)
            var strings = ContiguousArray<String?>(repeating: "a value", count: count / 2)
            LargeTables.releasePages(of: &strings)
            #expect(strings.count == count / 2 && strings.allSatisfy { $0 == "a value" })
            var table = ContiguousArray(repeating: UInt64(0x5A5A), count: count)
            let copy = table
            LargeTables.releasePages(of: &table)
            #expect(table.isEmpty && copy.count == count && copy.allSatisfy { $0 == 0x5A5A })
            #expect(residentPages(of: copy) >= count * 8 / pageSize - 1)  // the shared buffer stays
            var alone = ContiguousArray(repeating: UInt64(0x5A5A), count: count)
            #expect(residentPages(of: alone) >= count * 8 / pageSize - 1)
            LargeTables.releasePages(of: &alone)
            #expect(alone.isEmpty && alone.capacity >= count)
            #expect(residentPages(of: alone, bytes: count * 8) <= 1)  // at most the page shared with the header
        }

        /// The page size.
        private var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

        /// The number of resident pages wholly inside the first `bytes` of `table`'s buffer (its count's
        /// bytes by default).
        private func residentPages(of table: ContiguousArray<UInt64>, bytes: Int? = nil) -> Int {
            table.withUnsafeBufferPointer { buffer in
                let page = UInt(pageSize)
                let address = UInt(bitPattern: buffer.baseAddress)
                let start = (address + page - 1) & ~(page - 1)
                let end = (address + UInt(bytes ?? buffer.count * 8)) & ~(page - 1)
                var resident = [UInt8](repeating: 0, count: Int((end - start) / page))
                guard mincore(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), &resident) == 0 else {
                    return -1
                }
                return resident.count { $0 & 1 != 0 }
            }
        }
    #endif

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
