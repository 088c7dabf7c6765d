import Testing

@testable import ListSync

/// The row table's lookups of rows named by runs (a bulk load checks that no deleted row is a live one).
struct RowTableTests {
    /// A table of rows 1...3,000 of replica 1.
    static func table() -> RowTable {
        var table = RowTable()
        for counter in UInt64(1)...3_000 {
            let id = RowID(replica: ReplicaID(1), counter: counter)
            let stamp = Stamp(lamport: counter, dot: id)
            _ = table.add(RowRecord(id: id, key: PositionKey([0x80]), positionStamp: stamp, valueStamp: stamp))
        }
        return table
    }

    static func run(_ replica: UInt64, _ counters: Range<UInt64>) -> DeletionRun {
        DeletionRun(
            replica: ReplicaID(replica), first: counters.lowerBound, length: UInt64(counters.count),
            stamp: Stamp(lamport: 5_000, dot: Dot(replica: ReplicaID(9), counter: 1)), lamportStep: 0,
            counterStep: 1)
    }

    /// `slots(in:)` finds the live rows that runs name, wherever they lie among the runs' rows, and when
    /// the runs claim more rows than the table has (it then goes through the table's rows instead).
    @Test func theLiveRowsRunsNameAreFound() {
        let table = Self.table()
        let cases: [(String, [DeletionRun], [Int32])] = [
            ("no live row", [Self.run(2, 1..<2_500)], []),
            ("first", [Self.run(1, 7..<8), Self.run(2, 1..<2_500)], [6]),
            ("between", [Self.run(1, 1_000..<1_003), Self.run(1, 2_999..<3_000), Self.run(2, 2_000..<2_600)], [999, 1_000, 1_001, 2_998]),
            ("last", [Self.run(2, 1..<2_100), Self.run(1, 3_000..<3_001)], [2_999]),
            ("past the table's rows", [Self.run(1, 3_001..<3_500)], []),
            ("more rows than the table has, none live", [Self.run(2, 1..<1_000_000)], []),
            ("more rows than the table has, two live", [Self.run(1, 2_999..<1_000_000)], [2_998, 2_999]),
        ]
        for (name, runs, slots) in cases {
            #expect(table.slots(in: runs).sorted() == slots, "\(name)")
        }
    }
}
