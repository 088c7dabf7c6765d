import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Format version 3 carries field registers in change sets and snapshots (Protocol.md section 1): they
/// round-trip, encode canonically, and damaged bytes are typed errors; formats 1 and 2 still read.
struct FieldEncodingTests {
    typealias Todo = FieldRegisterTests.Todo

    /// Two replicas with a row each side edited concurrently by field, and a row removed.
    private static func edited() throws -> (ReplicatedList<Todo>, ReplicatedList<Todo>) {
        let a = ReplicatedList<Todo>(replicaID: ReplicaID(1))
        let b = ReplicatedList<Todo>(replicaID: ReplicaID(2))
        a.append(contentsOf: ["milk", "eggs", "tea"].map { Todo(title: $0, done: false) })
        try b.merge(a.changes(since: b.versionVector))
        a.updateValue(Todo(title: "oat milk", done: false, note: "2 l"), at: 0)
        b.updateValue(Todo(title: "milk", done: true), at: 0)
        b.updateValue(Todo(title: "eggs", done: true, note: "ü \"6\""), at: 1)
        b.updateValue(Todo(title: "eggs", done: true), at: 1)  // the note removed: an absent register
        a.remove(at: 2)
        return (a, b)
    }

    @Test func fieldEditsRoundTripThroughChangeSets() throws {
        let (a, b) = try Self.edited()
        let changes = b.changes(since: a.versionVector)
        #expect(!changes.fields.isEmpty)
        let decoded = try ChangeSet(decoding: changes.encoded())
        #expect(decoded == changes)
        #expect(decoded.encoded() == changes.encoded())
        try a.merge(decoded)
        try b.merge(ChangeSet(decoding: a.changes(since: b.versionVector).encoded()))
        a._checkInvariants()
        b._checkInvariants()
        let expected = [Todo(title: "oat milk", done: true, note: "2 l"), Todo(title: "eggs", done: true)]
        #expect(a.map(\.value) == expected && b.map(\.value) == expected)
    }

    @Test func snapshotsKeepFieldRegistersUnknownFieldsAndHiddenRows() throws {
        let (a, b) = try Self.edited()
        try a.merge(b.changes(since: a.versionVector))
        let reopened = try ReplicatedList<Todo>(snapshot: a.snapshot(), replicaID: ReplicaID(1))
        reopened._checkInvariants()
        #expect(reopened.map(\.value) == a.map(\.value) && reopened.snapshot() == a.snapshot())
        #expect(reopened.core.fieldRegisters == a.core.fieldRegisters)
        // An older version keeps the registers and its snapshot relays them.
        let older = try ReplicatedList<TodoV1>(snapshot: a.snapshot(), replicaID: ReplicaID(3))
        older.updateValue(TodoV1(title: "eggs!"), at: 1)
        let olderReopened = try ReplicatedList<TodoV1>(snapshot: older.snapshot(), replicaID: ReplicaID(3))
        try a.merge(olderReopened.changes(since: a.versionVector))
        #expect(a.map(\.value) == [Todo(title: "oat milk", done: true, note: "2 l"), Todo(title: "eggs!", done: true)])
        // A row hidden for a missing required field is kept with its registers.
        let lax = try ReplicatedList<TodoV2>(snapshot: a.snapshot(), replicaID: ReplicaID(4))
        lax.updateValue(TodoV2(title: "eggs!", done: nil), at: 1)
        let strict = ReplicatedList<Todo>(replicaID: ReplicaID(5))
        try strict.merge(lax.changes(since: strict.versionVector))
        let strictReopened = try ReplicatedList<Todo>(snapshot: strict.snapshot(), replicaID: ReplicaID(5))
        strictReopened._checkInvariants()
        #expect(strictReopened.count == 1 && strictReopened.undecodableRows.count == 1)
        let relayed = ReplicatedList<TodoV2>(replicaID: ReplicaID(6))
        try relayed.merge(ChangeSet(decoding: strictReopened.changes(since: relayed.versionVector).encoded()))
        #expect(relayed.map(\.value) == lax.map(\.value))
    }

    /// A row known only from a field edit (its insert not received) survives a snapshot, and shows with
    /// the edit applied once the insert arrives.
    @Test func aRowKnownOnlyByFieldEditsSurvivesASnapshot() throws {
        let (a, b) = try Self.edited()
        let c = ReplicatedList<Todo>(replicaID: ReplicaID(3))
        try c.merge(ChangeSet(decoding: b.changes(since: a.versionVector).encoded()))
        #expect(c.isEmpty)
        let reopened = try ReplicatedList<Todo>(snapshot: c.snapshot(), replicaID: ReplicaID(3))
        reopened._checkInvariants()
        #expect(reopened.core.fieldRegisters == c.core.fieldRegisters && !c.core.fieldRegisters.isEmpty)
        try reopened.merge(ChangeSet(decoding: a.changes(since: reopened.versionVector).encoded()))
        reopened._checkInvariants()
        #expect(
            reopened.map(\.value) == [
                Todo(title: "oat milk", done: true, note: "2 l"), Todo(title: "eggs", done: true),
            ])
    }

    /// Equal states encode to equal bytes, however they were reached.
    @Test func equalStatesEncodeEqually() throws {
        let (a, b) = try Self.edited()
        let viaA = ReplicatedList<Todo>(replicaID: ReplicaID(7))
        let viaB = ReplicatedList<Todo>(replicaID: ReplicaID(8))
        try viaA.merge(a.changes(since: VersionVector()))
        try viaA.merge(b.changes(since: VersionVector()))
        try viaB.merge(b.changes(since: VersionVector()))
        try viaB.merge(ChangeSet(decoding: a.changes(since: VersionVector()).encoded()))
        #expect(viaA.snapshot() == viaB.snapshot())
        #expect(viaA.changes(since: VersionVector()).encoded() == viaB.changes(since: VersionVector()).encoded())
    }

    /// Change sets are written in format 6, with an empty field name table and no field columns when
    /// they hold no field registers. Formats 2, 3 (with field registers) and 5 are still read; 3 and 5
    /// must name at least one field.
    @Test func formatSixIsWrittenAndEarlierFormatsAreRead() throws {
        let version2 = HandEncoded.uncoveredInsert(covering: true)
        #expect(version2[2] == 2)
        let changes = try ChangeSet(decoding: version2)
        let reencoded = changes.encoded()
        #expect(changes.fields.isEmpty && reencoded[2] == 6)
        #expect(try ChangeSet(decoding: reencoded) == changes)
        let withFields = Self.fieldChange(fragment: Array("true".utf8))
        #expect(withFields.encoded()[2] == 6)
        #expect(try ChangeSet(decoding: withFields.encoded()) == withFields)
        // Version 5: the worked example of Protocol.md before version 6 (TodoV2: "milk", then done).
        let version5 = EncodingTests.hexBytes(
            "4c530501010100000000000000000104646f6e6501000101000102010002010200000002010002010002010400000002010102"
                + "010002010504747275 65".replacingOccurrences(of: " ", with: ""))
        let decoded = try ChangeSet(decoding: version5)
        #expect(decoded.rowCount == 1 && decoded.fields.first?.value["done"]?.fragment == Array("true".utf8))
        #expect(try ChangeSet(decoding: decoded.encoded()) == decoded)
        var withFieldsVersion3 = version5
        withFieldsVersion3[2] = 3
        #expect(try ChangeSet(decoding: withFieldsVersion3) == decoded)
        // Version 3 with an empty field name table (what no encoder writes).
        var noNames = Array(version2.prefix(4 + 9 + 24))
        noNames[2] = 3
        noNames += [0] + version2.dropFirst(noNames.count) + [0, 0, 0, 0]
        #expect(throws: BinaryDecodingError.notCanonical(offset: 4 + 9 + 24)) { try ChangeSet(decoding: noNames) }
    }

    /// One field register of row 5:1 with stamp (Lamport 4, dot 6:1), as `fragment`, beside a value
    /// stamped (Lamport `valueLamport`, dot 5:1) when `valueLamport` is not nil, or a deletion.
    private static func fieldChange(
        fragment: [UInt8]?, valueLamport: UInt64? = nil, deleted: Bool = false
    ) -> ChangeSet {
        let row = RowID(replica: ReplicaID(5), counter: 1)
        var coverage = DotRanges()
        coverage.insert(1...2, of: ReplicaID(5))
        coverage.insert(1...1, of: ReplicaID(6))
        var update = RowUpdate(id: row)
        var payload: ChangeSet.Payload?
        if let valueLamport {
            update.valueStamp = Stamp(lamport: valueLamport, dot: Dot(replica: ReplicaID(5), counter: 2))
            payload = ChangeSet.Payload(typeIdentifier: ValueCoding.json, bytes: Array(#"{"a":1}"#.utf8)[...])
        }
        let deletions =
            deleted ? [DeletionRun(row, deletedBy: Stamp(lamport: 5, dot: Dot(replica: ReplicaID(5), counter: 2)))] : []
        let register = FieldRegister(
            stamp: Stamp(lamport: 4, dot: Dot(replica: ReplicaID(6), counter: 1)), fragment: fragment)
        return ChangeSet(
            coverage: coverage, updates: [update], payloads: [payload], fields: [row: ["done": register]],
            deletions: deletions)
    }

    @Test func damagedFieldRegistersAreTypedErrors() throws {
        let valid = Self.fieldChange(fragment: Array("true".utf8)).encoded()
        #expect(try ChangeSet(decoding: valid).fields.count == 1)
        let fragmentAt = try #require(valid.lastIndex(of: UInt8(ascii: "e"))) - 3
        for fragment in [" true", "tru", "{", "1 2", "\"\u{1}\""] {
            #expect(throws: BinaryDecodingError.invalidFieldValue(offset: fragmentAt)) {
                try ChangeSet(decoding: Self.fieldChange(fragment: Array(fragment.utf8)).encoded())
            }
        }
        #expect(
            try ChangeSet(decoding: Self.fieldChange(fragment: nil).encoded()).fields.first?.value["done"]?.fragment
                == nil)
        // A register not newer than the value it comes with is not canonical; newer is fine.
        #expect(throws: BinaryDecodingError.self) {
            try ChangeSet(decoding: Self.fieldChange(fragment: Array("1".utf8), valueLamport: 5).encoded())
        }
        // Lamport 4 of replica 5 is older than Lamport 4 of replica 6.
        #expect(
            try ChangeSet(decoding: Self.fieldChange(fragment: Array("1".utf8), valueLamport: 4).encoded()).rowCount
                == 1)
        #expect(throws: BinaryDecodingError.self) {
            try ChangeSet(decoding: Self.fieldChange(fragment: Array("1".utf8), deleted: true).encoded())
        }
        for length in 0..<valid.count {
            #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: Array(valid.prefix(length))) }
        }
    }

    /// Randomly damaged change sets and snapshots with field registers never trap: a typed error, or
    /// a change set that merges (or is rejected as inconsistent) leaving a consistent replica.
    @Test(arguments: RunSize.seeds("LISTSYNC_FIELD_SEEDS", quick: 10, long: 200))
    func damagedBytesNeverTrap(seed: UInt64) throws {
        announceSeed(seed, of: "damagedBytesNeverTrap", replay: "LISTSYNC_FIELD_SEEDS")
        var generator = SplitMix64(seed: seed)
        let (a, b) = try Self.edited()
        let samples = [b.changes(since: a.versionVector).encoded(), b.changes(since: VersionVector()).encoded()]
        let snapshot = b.snapshot()
        for _ in 0..<300 {
            let damaged = EncodingTests.mutate(samples[Int(generator.next() % 2)], using: &generator)
            if let changes = try? ChangeSet(decoding: damaged) {
                let target = ReplicatedList<Todo>(replicaID: ReplicaID(9))
                _ = try? target.merge(changes)
                target._checkInvariants()
            }
            if let loaded = try? ReplicatedList<Todo>(
                snapshot: EncodingTests.mutate(snapshot, using: &generator), replicaID: ReplicaID(9))
            {
                loaded._checkInvariants()
            }
        }
    }

    /// Split change sets carry each row's field registers, and their operations, in the row's part.
    @Test(arguments: [150, 400, 1500])
    func splitPartsCarryFieldRegisters(byteBudget: Int) throws {
        var random = SplitMix64(seed: UInt64(byteBudget))
        let source = ReplicatedList<Todo>(replicaID: ReplicaID(1))
        source.append(contentsOf: (0..<40).map { Todo(title: "t\($0)", done: false) })
        let peer = ReplicatedList<Todo>(replicaID: ReplicaID(2))
        try peer.merge(source.changes(since: peer.versionVector))
        for step in 0..<60 {
            let index = Int(random.next() % UInt64(source.count))
            var value = source[index].value
            if random.next() % 2 == 0 { value.done.toggle() } else { value.note = "n\(step)" }
            source.updateValue(value, at: index)
        }
        for since in [VersionVector(), peer.versionVector] {
            let whole = source.changes(since: since)
            let parts = whole.encodedSplit(byteBudget: byteBudget)
            #expect(parts.count > 1 || byteBudget == 1500)
            let target = ReplicatedList<Todo>(replicaID: ReplicaID(3))
            if since == peer.versionVector { try target.merge(peer.changes(since: VersionVector())) }
            for part in parts.shuffled(using: &random) {
                #expect(try part.count <= byteBudget || ChangeSet(decoding: part).rowCount == 1)
                try target.merge(ChangeSet(decoding: part))
                target._checkInvariants()
            }
            #expect(target.map(\.value) == source.map(\.value))
            #expect(target.versionVector == source.versionVector)
        }
    }

    /// The worked example of Protocol.md section 1: one field edit of one row.
    @Test func theWorkedExampleOfProtocolMdEncodesAsDocumented() throws {
        let list = ReplicatedList<TodoV2>(replicaID: ReplicaID(1))
        list.append(TodoV2(title: "milk", done: nil))
        let inserted = list.versionVector
        list.updateValue(TodoV2(title: "milk", done: true), at: 0)
        let bytes = list.changes(since: inserted).encoded()
        let hex = bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
        #expect(hex == Self.workedExample, "\(hex)")
    }

    static let workedExample = """
        4c 53 06 01 01 01 00 00 00 00 00 00 00 00 01 04 64 6f 6e 65 01 00 01 01 00 00 02 02 01 00 02 01 02 00 00 \
        00 02 01 00 02 01 00 02 01 04 00 00 00 00 02 01 01 02 01 00 02 01 05 04 74 72 75 65
        """
}
