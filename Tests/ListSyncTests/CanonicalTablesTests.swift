import Testing

@testable import ListSync

/// The replica and type tables of an encoded change set hold exactly the entries the rest refers to.
struct CanonicalTablesTests {
    /// An update whose value stamp comes without its value (and a payload without its stamp) writes
    /// neither register, so neither the stamp's replica nor the payload's type is in a table.
    @Test func registersThatAreNotWrittenAreNotInTheTables() throws {
        let row = RowID(replica: ReplicaID(5), counter: 1)
        let inserted = Stamp(lamport: 1, dot: row)
        var coverage = DotRanges()
        coverage.insert(1...1, of: ReplicaID(5))
        let stampOnly = RowUpdate(
            id: row, position: PositionKey([0x00, 0x40]), positionStamp: inserted,
            valueStamp: Stamp(lamport: 2, dot: Dot(replica: ReplicaID(7), counter: 1)))
        let payloadOnly = RowUpdate(
            id: RowID(replica: ReplicaID(5), counter: 2), position: PositionKey([0x00, 0x41]),
            positionStamp: Stamp(lamport: 2, dot: RowID(replica: ReplicaID(5), counter: 2)))
        coverage.insert(2...2, of: ReplicaID(5))
        let changes = ChangeSet(
            coverage: coverage, updates: [stampOnly, payloadOnly],
            payloads: [nil, ChangeSet.Payload(typeIdentifier: "public.json", bytes: [0x31])])
        let bytes = changes.encoded()
        // magic, version, kind; one replica (5); no type.
        #expect(Array(bytes.prefix(13)) == [0x4C, 0x53, 6, 1, 1, 5, 0, 0, 0, 0, 0, 0, 0])
        #expect(bytes[13] == 0)
        #expect(try ChangeSet(decoding: bytes).rowCount == 2)
    }
}
