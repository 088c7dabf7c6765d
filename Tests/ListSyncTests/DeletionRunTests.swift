import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Deleted rows travel and are stored as runs (format version 6): a deletion costs the same bytes and
/// memory whatever the number of rows it removed, for an honest block or backspacing as for a forged run
/// of billions of rows.
struct DeletionRunTests {
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["LISTSYNC_DELETION_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_DELETION_SEEDS", quick: 12, long: 1_500, from: 0xDE1))

    /// Backspacing 10,000 rows (a change per row) made a change set of 64 bytes claiming 10,000 updates,
    /// which every peer refused (`countTooLarge`: at most one update per byte), so the two replicas never
    /// synced again; and a snapshot of a document typed and backspaced could not be loaded back, so a
    /// store that compacted it no longer opened.
    @Test func backspacedRowsSyncAndReload() throws {
        let writer = ReplicatedList<String>(replicaID: ReplicaID(1))
        let reader = ReplicatedList<String>(replicaID: ReplicaID(2))
        for offset in 0..<10_000 { writer.append("c\(offset)") }
        try reader.merge(ChangeSet(decoding: writer.changes(since: reader.versionVector).encoded()))
        for _ in 0..<9_000 { writer.remove(at: writer.count - 1) }
        let changes = writer.changes(since: reader.versionVector)
        #expect(changes.deletions.count == 1 && changes.rowCount == 9_000)
        let bytes = changes.encoded()
        #expect(bytes.count < 100)
        try reader.merge(ChangeSet(decoding: bytes))
        reader._checkInvariants()
        #expect(Array(reader) == Array(writer))
        let reloaded = try ReplicatedList<String>(snapshot: writer.snapshot(), replicaID: ReplicaID(1))
        reloaded._checkInvariants()
        #expect(Array(reloaded) == Array(writer) && reloaded.snapshot() == writer.snapshot())
        #expect(reloaded.versionVector == writer.versionVector)
    }

    /// A block deleted at once and backspacing are a run each, in memory, in change sets and in
    /// snapshots, in both directions of typing.
    @Test func blocksAndBackspacingAreOneRunEach() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: (0..<500).map { "a\($0)" })  // a block: consecutive row IDs
        for offset in 0..<500 { list.insert("b\(offset)", at: 0) }  // typed backward: IDs fall along the list
        list.remove(atOffsets: IndexSet(integersIn: 0..<300))  // a block of the backward run
        for _ in 0..<200 { list.remove(at: list.count - 1) }  // backspacing the forward run
        let changes = list.changes(since: VersionVector())
        #expect(changes.deletions.count == 2, "\(changes.deletions)")
        #expect(changes.deletions.map(\.length).sorted() == [200, 300])
        let copy = try ReplicatedList<String>(snapshot: list.snapshot(), replicaID: ReplicaID(2))
        #expect(Array(copy) == Array(list))
        #expect(copy.core.tombstones.runs.count + copy.core.tombstones.deletions(notCoveredBy: nil).count <= 4)
    }

    /// A run of 2^61 rows of a replica never heard of: merged, stored in a snapshot, reloaded and synced
    /// on at the cost of one entry, while rows of it that a replica has are deleted.
    @Test func aRunOfBillionsOfRowsCostsOneEntry() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: ["kept", "gone"])
        let stranger = ReplicaID(0x5555)
        var coverage = DotRanges()
        coverage.insert(1...(1 << 61), of: stranger)
        let gone = list[1].rowID!
        let runs = [
            DeletionRun(
                replica: ReplicaID(1), first: gone.counter, length: 1,
                stamp: Stamp(lamport: 9, dot: Dot(replica: stranger, counter: 1 << 61)), lamportStep: 0, counterStep: 1),
            DeletionRun(
                replica: stranger, first: 1, length: 1 << 61,
                stamp: Stamp(lamport: 5, dot: Dot(replica: stranger, counter: 1)), lamportStep: 0, counterStep: 1),
        ]
        let forged = ChangeSet(coverage: coverage, updates: [], payloads: [], deletions: runs)
        let bytes = forged.encoded()
        #expect(bytes.count < 120)
        let decoded = try ChangeSet(decoding: bytes)
        #expect(decoded.rowCount == (1 << 61) + 1)
        try list.merge(decoded)
        list._checkInvariants()
        #expect(list.map(\.value) == ["kept"])
        #expect(list.core.isDeleted(RowID(replica: stranger, counter: 1 << 60)))
        let snapshot = list.snapshot()
        #expect(snapshot.count < 200)
        let reloaded = try ReplicatedList<String>(snapshot: snapshot, replicaID: ReplicaID(1))
        reloaded._checkInvariants()
        reloaded.append("new")
        let peer = ReplicatedList<String>(replicaID: ReplicaID(2))
        try peer.merge(ChangeSet(decoding: reloaded.changes(since: peer.versionVector).encoded()))
        peer._checkInvariants()
        #expect(peer.map(\.value) == ["kept", "new"] && peer.snapshot().count < 250)
    }

    // MARK: The deletion section's canonical form

    /// A version 6 change set with the replicas `replicas`, coverage of `covered` counters of the first,
    /// the deletion runs `runs` written field by field (each its varints, signed ones zigzagged
    /// already), no update, and `count` runs declared (their number unless given).
    static func encoded(
        replicas: [UInt64], covered: ClosedRange<UInt64>, runs: [[UInt64]], count: UInt64? = nil
    ) -> (bytes: [UInt8], runsStart: Int) {
        var writer = BinaryWriter()
        for byte: UInt8 in [0x4C, 0x53, 6, 1] { writer.write(byte) }
        writer.writeVarint(UInt64(replicas.count))
        for replica in replicas { writer.writeFixed64(replica) }
        writer.writeVarint(0)  // types
        writer.writeVarint(0)  // field names
        for value in [1, 0, 1, covered.lowerBound - 1, covered.upperBound - covered.lowerBound] {
            writer.writeVarint(value)
        }
        let runsStart = writer.bytes.count
        writer.writeVarint(count ?? UInt64(runs.count))
        for run in runs {
            for field in run { writer.writeVarint(field) }
        }
        writer.writeVarint(0)  // updates
        for _ in 0..<12 { writer.writeVarint(0) }
        return (writer.bytes, runsStart)
    }

    /// One run's fields: the head (steps code, a length of 1 to 3, whether replica indexes follow), the
    /// row replica index when `replica` is given, the first row (past the previous run's end on the same
    /// replica), the length unless it is in the head (or `lengthInHead` is false), the Lamport time minus
    /// the dot's counter (less the previous run's), the dot replica index when `dotReplica` is given, the
    /// dot counter (less the previous run's).
    static func run(
        replica: UInt64? = 0, gap: UInt64, length: UInt64, lengthInHead: Bool = true, lamport: Int64 = 0,
        dotReplica: UInt64? = nil, counter: Int64, steps: UInt64 = 3, head extra: UInt64 = 0
    ) -> [UInt64] {
        let inHead = lengthInHead && (1...3).contains(length)
        var fields = [
            steps | (inHead ? length << 3 : 0) | (replica != nil ? 1 << 5 : 0) | (dotReplica != nil ? 1 << 6 : 0)
                | extra
        ]
        if let replica { fields.append(replica) }
        fields.append(gap)
        if !inHead { fields.append(length) }
        fields.append(zigzag(lamport))
        if let dotReplica { fields.append(dotReplica) }
        fields.append(zigzag(counter))
        return fields
    }

    @Test func canonicalDeletionSectionsDecode() throws {
        let valid = Self.encoded(
            replicas: [7], covered: 1...100,
            runs: [Self.run(gap: 1, length: 5, counter: 1), Self.run(replica: nil, gap: 3, length: 1, counter: 10)])
        let changes = try ChangeSet(decoding: valid.bytes)
        #expect(changes.deletions.map { [$0.first, $0.length, $0.stamp.dot.counter] } == [[1, 5, 1], [9, 1, 11]])
        #expect(changes.encoded() == valid.bytes)
    }

    @Test func nonCanonicalOrInvalidDeletionRunsAreTypedErrors() throws {
        let runsAt = Self.encoded(replicas: [7], covered: 1...100, runs: []).runsStart
        let first = runsAt + 1  // the first run's head; its fields follow, one byte each here
        let second = first + 5  // after a head, a replica index, a first row, a Lamport time and a counter
        let cases: [(String, [[UInt64]], BinaryDecodingError)] = [
            (
                "a run that continues the one before",
                [
                    Self.run(gap: 1, length: 2, counter: 1),
                    Self.run(replica: nil, gap: 0, length: 2, lamport: -2, counter: 2),
                ],
                .notCanonical(offset: second)
            ),
            (
                "a single row that continues the one before",
                [Self.run(gap: 1, length: 1, counter: 1), Self.run(replica: nil, gap: 0, length: 1, counter: 1)],
                .notCanonical(offset: second)
            ),
            (
                "the same replica named again",
                [Self.run(gap: 1, length: 1, counter: 1), Self.run(gap: 5, length: 1, counter: 3)],
                .notCanonical(offset: second)
            ),
            (
                "no replica named first", [Self.run(replica: nil, gap: 1, length: 1, counter: 1)],
                .notCanonical(offset: first)
            ),
            ("no row", [Self.run(gap: 1, length: 0, counter: 1)], .notCanonical(offset: first + 3)),
            (
                "a short length written out", [Self.run(gap: 1, length: 2, lengthInHead: false, counter: 1)],
                .notCanonical(offset: first + 3)
            ),
            (
                "a head of two bytes", [Self.run(gap: 1, length: 1, counter: 1, head: 1 << 7)],
                .notCanonical(offset: first)
            ),
            ("row counter 0", [Self.run(gap: 0, length: 1, counter: 1)], .invalidStamp(offset: first + 2)),
            ("a steps code past 5", [Self.run(gap: 1, length: 2, counter: 1, steps: 6)], .notCanonical(offset: first)),
            ("one row with steps", [Self.run(gap: 1, length: 1, counter: 1, steps: 1)], .notCanonical(offset: first)),
            (
                "the row replica named as the deleter", [Self.run(gap: 1, length: 1, dotReplica: 0, counter: 1)],
                .notCanonical(offset: first + 4)
            ),
            ("dot counter 0", [Self.run(gap: 1, length: 1, counter: 0)], .invalidStamp(offset: first + 4)),
            (
                "dot counters falling below 1", [Self.run(gap: 1, length: 3, counter: 2, steps: 2)],
                .invalidStamp(offset: first + 4)
            ),
            (
                "Lamport times falling below 1", [Self.run(gap: 1, length: 3, lamport: -9, counter: 10, steps: 1)],
                .invalidStamp(offset: first + 3)
            ),
            (
                "a replica index past the table", [Self.run(replica: 1, gap: 1, length: 1, counter: 1)],
                .indexOutOfRange(offset: first + 1)
            ),
        ]
        for (what, runs, error) in cases {
            let (bytes, _) = Self.encoded(replicas: [7], covered: 1...100, runs: runs)
            #expect(throws: error, "\(what)") { try ChangeSet(decoding: bytes) }
        }
        // Rows past the largest counter, and more runs than bytes left for them.
        let (pastTheEnd, _) = Self.encoded(
            replicas: [7], covered: 1...100, runs: [Self.run(gap: Dot.maximumCounter, length: 2, counter: 1)])
        #expect(throws: BinaryDecodingError.invalidStamp(offset: first)) { try ChangeSet(decoding: pastTheEnd) }
        let (tooMany, _) = Self.encoded(replicas: [7], covered: 1...100, runs: [], count: 1_000)
        #expect(throws: BinaryDecodingError.countTooLarge(offset: runsAt)) { try ChangeSet(decoding: tooMany) }
        // Runs out of replica order.
        let (unordered, unorderedRunsAt) = Self.encoded(
            replicas: [7, 8], covered: 1...100,
            runs: [
                Self.run(replica: 1, gap: 1, length: 1, counter: 1),
                Self.run(replica: 0, gap: 1, length: 1, counter: 1),
            ])
        #expect(throws: BinaryDecodingError.notCanonical(offset: unorderedRunsAt + 1 + 5)) {
            try ChangeSet(decoding: unordered)
        }
    }

    /// A row both updated and deleted in one change set is refused: a deleted row has no update.
    @Test func aRowUpdatedAndDeletedIsRefused() throws {
        let row = RowID(replica: ReplicaID(5), counter: 3)
        var coverage = DotRanges()
        coverage.insert(1...9, of: ReplicaID(5))
        let stamp = Stamp(lamport: 3, dot: row)
        let update = RowUpdate(id: row, position: PositionKey([0x00, 0x40]), positionStamp: stamp, valueStamp: stamp)
        let run = DeletionRun(
            replica: ReplicaID(5), first: 1, length: 5,
            stamp: Stamp(lamport: 4, dot: Dot(replica: ReplicaID(5), counter: 5)), lamportStep: 0, counterStep: 1)
        let changes = ChangeSet(
            coverage: coverage, updates: [update],
            payloads: [ChangeSet.Payload(typeIdentifier: ValueCoding.plainText, bytes: [0x78])], deletions: [run])
        #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: changes.encoded()) }
    }

    /// A delete the change set does not account for is refused whole, naming a row of the run.
    @Test func uncoveredDeletesAreRefused() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        var coverage = DotRanges()
        coverage.insert(1...3, of: ReplicaID(5))
        let run = DeletionRun(
            replica: ReplicaID(6), first: 10, length: 5,
            stamp: Stamp(lamport: 4, dot: Dot(replica: ReplicaID(5), counter: 1)), lamportStep: 0, counterStep: 1)
        let changes = try ChangeSet(
            decoding: ChangeSet(coverage: coverage, updates: [], payloads: [], deletions: [run]).encoded())
        #expect(
            throws: MergeError.uncoveredOperation(
                row: RowID(replica: ReplicaID(6), counter: 13), operation: Dot(replica: ReplicaID(5), counter: 4))
        ) { try list.merge(changes) }
        #expect(list.versionVector == VersionVector())
    }

    // MARK: Convergence

    /// Replicas that type blocks, backspace, delete blocks and single rows and move rows, syncing random
    /// pairs with duplicated and stale change sets, end with equal states: no deleted row anywhere, every
    /// other row everywhere. Runs longer than the tombstones' point threshold go through their run merge.
    @Test func deletionHeavyEditingConverges() throws {
        for seed in Self.seeds { try Self.converge(seed: seed) }
    }

    @Test func replayDeletionSeed() throws {
        try Self.converge(
            seed: ProcessInfo.processInfo.environment["LISTSYNC_DELETION_SEED"].flatMap { UInt64($0) } ?? 3)
    }

    static func converge(seed: UInt64) throws {
        announceSeed(
            seed, of: "DeletionRunTests",
            replay: "LISTSYNC_DELETION_SEED=\(seed) swift test --filter replayDeletionSeed")
        var rng = SplitMix64(seed: seed)
        let replicas = (1...4).map { ReplicatedList<String>(replicaID: ReplicaID(UInt64($0))) }
        var sent: [[VersionVector]] = Array(repeating: Array(repeating: VersionVector(), count: 4), count: 4)
        var inserted = Set<RowID>()
        var deleted = Set<RowID>()
        var next = 0
        func value() -> String {
            next += 1
            return "v\(next)"
        }
        for step in 0..<120 {
            let index = Int(rng.next() % 4)
            let list = replicas[index]
            switch list.isEmpty ? 0 : rng.next() % 6 {
            case 0, 1:  // typing a block
                let at = Int(rng.next() % UInt64(list.count + 1))
                let count = 1 + Int(rng.next() % 40)
                if rng.next() % 2 == 0 {
                    list.insert(contentsOf: (0..<count).map { _ in value() }, at: at)
                } else {
                    for offset in 0..<count { list.insert(value(), at: at + offset) }
                }
                for offset in at..<(at + count) { inserted.insert(list[offset].rowID!) }
            case 2:  // backspacing
                var at = Int(rng.next() % UInt64(list.count))
                for _ in 0..<(1 + Int(rng.next() % 30)) where at >= 0 {
                    deleted.insert(list[at].rowID!)
                    list.remove(at: at)
                    at -= 1
                }
            case 3:  // deleting a block
                let start = Int(rng.next() % UInt64(list.count))
                let end = min(list.count, start + 1 + Int(rng.next() % 40))
                for offset in start..<end { deleted.insert(list[offset].rowID!) }
                list.remove(atOffsets: IndexSet(integersIn: start..<end))
            case 4:
                list.move(from: Int(rng.next() % UInt64(list.count)), to: Int(rng.next() % UInt64(list.count)))
            default:  // a sync to another replica, sometimes from a stale vector, sometimes twice
                let target = (index + 1 + Int(rng.next() % 3)) % 4
                let since = rng.next() % 4 == 0 ? VersionVector() : sent[index][target]
                let bytes = list.changes(since: since).encoded()
                try replicas[target].merge(ChangeSet(decoding: bytes))
                if rng.next() % 5 == 0 { try replicas[target].merge(ChangeSet(decoding: bytes)) }
                sent[index][target] = list.versionVector
                replicas[target]._checkInvariants()
            }
            list._checkInvariants()
            _ = step
        }
        for _ in 0..<2 {
            for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 0)] {
                try replicas[b].merge(
                    ChangeSet(decoding: replicas[a].changes(since: replicas[b].versionVector).encoded()))
            }
        }
        let expected = inserted.subtracting(deleted)
        for list in replicas {
            list._checkInvariants()
            #expect(list.snapshot() == replicas[0].snapshot(), "seed \(seed)")
            #expect(Set(list.compactMap(\.rowID)) == expected, "seed \(seed)")
        }
    }
}
