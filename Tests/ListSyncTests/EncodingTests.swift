import ListSync
import TestSupport
import Testing

/// The binary format: round trips, and malformed input is a typed error, never a trap.
struct EncodingTests {
    /// A change set touching inserts, moves, edits and deletes from two replicas.
    func sampleChanges() throws -> (ChangeSet, ReplicatedList<String>) {
        let a = ReplicatedList<String>(replicaID: ReplicaID(0xA1))
        let b = ReplicatedList<String>(replicaID: ReplicaID(0xB2))
        a.append(contentsOf: ["alpha", "beta", "gamma", "delta"])
        try b.merge(a.changes(since: VersionVector()))
        b.move(fromOffsets: [3], toOffset: 0)
        b.updateValue("BETA", at: 2)
        b.remove(at: 3)
        b.insert(String(repeating: "long key neighbour ", count: 3), at: 1)
        return (b.changes(since: VersionVector()), b)
    }

    /// A snapshot of a replica that knows some rows only from a move or an edit (their inserts not
    /// received yet) loads with every value in its row: the rows still invisible hold no value, and
    /// once the inserts arrive both replicas show the same rows and values.
    @Test func snapshotWithRowsAwaitingTheirInsertsRoundTrips() throws {
        let a = ReplicatedList<String>(replicaID: ReplicaID(0xA1))
        let b = ReplicatedList<String>(replicaID: ReplicaID(0xB2))
        let c = ReplicatedList<String>(replicaID: ReplicaID(0xC3))
        a.append(contentsOf: ["one", "two", "three", "four", "five"])
        try b.merge(a.changes(since: VersionVector()))
        let vectorOfA = b.versionVector
        b.move(from: 0, to: 4)
        b.updateValue("TWO", at: 0)
        b.insert("bee", at: 2)
        c.append(contentsOf: ["sea", "see"])
        try c.merge(b.changes(since: vectorOfA))  // the move, the edit and "bee", not a's inserts
        #expect(c.map(\.value) == ["sea", "see", "bee"] || c.map(\.value) == ["bee", "sea", "see"])
        let loaded = try ReplicatedList<String>(snapshot: c.snapshot(), replicaID: ReplicaID(0xC3))
        loaded._checkInvariants()
        #expect(Array(loaded) == Array(c) && loaded.snapshot() == c.snapshot())
        let inserts = a.changes(since: VersionVector())
        try c.merge(inserts)
        try loaded.merge(inserts)
        loaded._checkInvariants()
        #expect(Array(loaded) == Array(c))
        #expect(loaded.map(\.value).filter { ["TWO", "one", "bee"].contains($0) }.count == 3)
    }

    @Test func changeSetRoundTrips() throws {
        let (changes, source) = try sampleChanges()
        let decoded = try ChangeSet(decoding: changes.encoded())
        #expect(decoded == changes)
        let copy = ReplicatedList<String>(replicaID: ReplicaID(3))
        try copy.merge(decoded)
        #expect(Array(copy) == Array(source))
        #expect(copy.versionVector == source.versionVector)
    }

    @Test func snapshotRoundTrips() throws {
        let (_, source) = try sampleChanges()
        let loaded = try ReplicatedList<String>(snapshot: source.snapshot(), replicaID: ReplicaID(4))
        loaded._checkInvariants()
        #expect(Array(loaded) == Array(source))
        #expect(loaded.snapshot() == source.snapshot())
        #expect(throws: MergeError.malformed(.wrongKind(expected: 2, found: 1))) {
            try ReplicatedList<String>(snapshot: source.changes(since: VersionVector()).encoded())
        }
    }

    @Test func longKeysRoundTrip() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(7))
        list.append(contentsOf: ["a", "b"])
        var generator = SplitMix64(seed: 3)
        for _ in 0..<300 { list.insert("x", at: 1 + Int.random(in: 0...1, using: &generator)) }
        let longest = (0..<list.count).map { list.positionKey(at: $0).count }.max()!
        let copy = try ReplicatedList<String>(snapshot: list.snapshot())
        #expect(Array(copy) == Array(list))
        #expect((0..<copy.count).map { copy.positionKey(at: $0) } == (0..<list.count).map { list.positionKey(at: $0) })
        #expect(longest > 0)
    }

    @Test func everyTruncationIsATypedError() throws {
        let bytes = try sampleChanges().0.encoded()
        for length in 0..<bytes.count {
            #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: Array(bytes.prefix(length))) }
        }
    }

    @Test func knownErrorsNameTheirCause() throws {
        let bytes = try sampleChanges().0.encoded()
        #expect(throws: BinaryDecodingError.badMagic) { try ChangeSet(decoding: [0x00] + bytes.dropFirst()) }
        #expect(bytes[2] == 6)
        var future = bytes
        future[2] = 9
        #expect(throws: BinaryDecodingError.unsupportedVersion(9)) { try ChangeSet(decoding: future) }
        #expect(throws: BinaryDecodingError.trailingBytes(offset: bytes.count)) { try ChangeSet(decoding: bytes + [0]) }
        #expect(throws: BinaryDecodingError.truncated(offset: 0)) { try ChangeSet(decoding: []) }
    }

    /// `bytes` with one to four random byte changes, insertions or deletions.
    static func mutate(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var mutated = bytes
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            case 1:
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] ^=
                    1 << UInt8.random(in: 0..<8, using: &generator)
            case 2:
                mutated.insert(
                    UInt8.random(in: 0...255, using: &generator),
                    at: Int.random(in: 0...mutated.count, using: &generator))
            default:
                if mutated.count > 1 { mutated.remove(at: Int.random(in: 0..<mutated.count, using: &generator)) }
            }
        }
        return mutated
    }

    @Test func randomMutationsNeverTrap() throws {
        let (changes, _) = try sampleChanges()
        let bytes = changes.encoded()
        var generator = SplitMix64(seed: 11)
        var decodedCount = 0
        for _ in 0..<10_000 {
            let mutated = Self.mutate(bytes, using: &generator)
            guard let decoded = try? ChangeSet(decoding: mutated) else { continue }
            decodedCount += 1
            // A decoded change set is either merged whole or rejected with a typed error.
            let list = ReplicatedList<String>(replicaID: ReplicaID(99))
            do {
                try list.merge(decoded)
            } catch {
                #expect(list.isEmpty && list.versionVector == VersionVector())
            }
            list._checkInvariants()
        }
        print("random mutations: \(decodedCount) of 10000 decoded to a valid change set")
    }

    /// Loading a snapshot reads it straight into the replica; it must accept exactly what decoding the
    /// same bytes as a change set and merging that into an empty replica accepts, with the same result.
    @Test func snapshotLoadAgreesWithDecodeAndMerge() throws {
        let (_, source) = try sampleChanges()
        let snapshot = source.snapshot()
        var generator = SplitMix64(seed: 12)
        var loadedCount = 0
        for trial in 0..<10_000 {
            let mutated = trial == 0 ? snapshot : Self.mutate(snapshot, using: &generator)
            guard mutated.count > 3 && mutated[3] == 2 else { continue }
            var asChangeSet = mutated
            asChangeSet[3] = 1
            let merged = ReplicatedList<String>(replicaID: ReplicaID(99))
            let mergedOK = (try? merged.merge(ChangeSet(decoding: asChangeSet))) != nil
            let loaded = try? ReplicatedList<String>(snapshot: mutated, replicaID: ReplicaID(99))
            #expect((loaded != nil) == mergedOK, "trial \(trial)")
            guard let loaded, mergedOK else { continue }
            loadedCount += 1
            loaded._checkInvariants()
            #expect(Array(loaded) == Array(merged), "trial \(trial)")
            #expect(loaded.versionVector == merged.versionVector && loaded.lamportClock == merged.lamportClock)
            #expect(loaded.snapshot() == merged.snapshot(), "trial \(trial)")
        }
        #expect(loadedCount > 100)
        print("snapshot mutations: \(loadedCount) of 10000 loaded")
    }

    /// A snapshot (or change set) of kind `kind` with two inserts of replica 5, values "x" and "y":
    /// `rowsAndKeys` holds the row counter column, then the key shared, suffix length and suffix columns;
    /// the coverage is 1...`covered`.
    static func twoInserts(kind: UInt8, covered: UInt8, rowsAndKeys: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x4C, 0x53, 2, kind]
        bytes += [1, 5, 0, 0, 0, 0, 0, 0, 0]  // one replica, 5
        bytes += [1, 22] + Array("public.utf8-plain-text".utf8)
        bytes += [1, 0, 1, 0, covered - 1]  // coverage: replica 0, 1...covered
        bytes += [2]  // two updates; runs of 2 have header 4, literal groups of 2 header 3
        bytes += [2, 4, 0x3B]  // flags, twice
        bytes += rowsAndKeys
        bytes += [2, 4, 0]  // Lamport = counter, twice
        bytes += [0] + [0]
        bytes += [2, 4, 0] + [2, 4, 1] + [2, UInt8(ascii: "x"), UInt8(ascii: "y")]
        return bytes
    }

    /// Row 5:1 twice, with keys 80 and 80 (row counter deltas +1, 0).
    static func duplicatedInsert(kind: UInt8) -> [UInt8] {
        twoInserts(kind: kind, covered: 1, rowsAndKeys: [3, 3, 2, 0] + [3, 3, 0, 1] + [3, 3, 1, 0] + [1, 0x80])
    }

    /// Rows 5:1 with key 81 and 5:2 with key 80: not in key order, as no encoder writes them.
    static func reversedInserts(kind: UInt8) -> [UInt8] {
        twoInserts(kind: kind, covered: 2, rowsAndKeys: [2, 4, 2] + [2, 4, 0] + [2, 4, 1] + [2, 0x81, 0x80])
    }

    /// Type identifiers are UTF-8: other bytes are an error at the identifier's length, while valid
    /// non-ASCII ones decode (and name a type this list cannot show).
    @Test func typeIdentifiersMustBeUTF8() throws {
        let valid = Self.twoInserts(
            kind: 1, covered: 2, rowsAndKeys: [2, 4, 2] + [2, 4, 0] + [2, 4, 1] + [2, 0x80, 0x81])
        #expect(try ChangeSet(decoding: valid).rowCount == 2)
        #expect(valid[14] == 22 && valid[15] == UInt8(ascii: "p"))
        var invalid = valid
        invalid[15] = 0xFF
        #expect(throws: BinaryDecodingError.invalidUTF8(offset: 14)) { try ChangeSet(decoding: invalid) }
        var accented = valid
        accented.replaceSubrange(15..<17, with: Array("é".utf8))  // two bytes for "pu"
        let list = ReplicatedList<String>()
        try list.merge(try ChangeSet(decoding: accented))
        #expect(list.isEmpty && list.undecodableRows.count == 2)
    }

    /// A text value that is not UTF-8 is repaired alike by a snapshot load and by a merge.
    @Test func textValuesThatAreNotUTF8AreRepairedAlike() throws {
        var bytes = Self.twoInserts(
            kind: 2, covered: 2, rowsAndKeys: [2, 4, 2] + [2, 4, 0] + [2, 4, 1] + [2, 0x80, 0x81])
        #expect(bytes.last == UInt8(ascii: "y"))
        bytes[bytes.count - 1] = 0xFF
        let loaded = try ReplicatedList<String>(snapshot: bytes)
        #expect(loaded.map(\.value) == ["x", "\u{FFFD}"])
        bytes[3] = 1  // the same bytes as a change set
        let merged = ReplicatedList<String>()
        try merged.merge(try ChangeSet(decoding: bytes))
        #expect(merged.map(\.value) == loaded.map(\.value))
    }

    /// Text values of every length (empty, every ASCII character alone, inline in a small string, on the
    /// heap, several bytes a character) load from a snapshot as they were.
    @Test func textValuesOfEveryLengthLoadAsTheyWere() throws {
        let values =
            [
                "", "a", "fifteen bytes!!", "sixteen bytes!!!", "é", "naïve café 🙂",
                String(repeating: "long ", count: 40),
            ] + (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let list = ReplicatedList<String>(replicaID: ReplicaID(3))
        list.append(contentsOf: values)
        let loaded = try ReplicatedList<String>(snapshot: list.snapshot(), replicaID: ReplicaID(4))
        #expect(loaded.map(\.value) == values)
    }

    /// A combination adds an encoded change set whole or not at all: one that fails to decode part way
    /// through leaves what was added before as it was.
    @Test func aChangeSetThatDoesNotDecodeAddsNothingToACombination() throws {
        let first = try sampleChanges().0
        var combination = ChangeSet.Combination()
        try combination.add(decoding: first.encoded())
        // Its first update decodes; the second repeats the row, which is found only then.
        #expect(throws: BinaryDecodingError.self) { try combination.add(decoding: Self.duplicatedInsert(kind: 1)) }
        #expect(throws: BinaryDecodingError.self) {
            try combination.add(decoding: Array(Self.reversedInserts(kind: 1).dropLast()))
        }
        #expect(combination.combined() == ChangeSet(combining: [first]))
    }

    /// A snapshot whose rows are out of key order still loads them in key order, as merging does.
    @Test func unorderedSnapshotLoadsInKeyOrder() throws {
        let loaded = try ReplicatedList<String>(snapshot: Self.reversedInserts(kind: 2), replicaID: ReplicaID(9))
        loaded._checkInvariants()
        #expect(loaded.map(\.value) == ["y", "x"])
        let merged = ReplicatedList<String>(replicaID: ReplicaID(9))
        try merged.merge(ChangeSet(decoding: Self.reversedInserts(kind: 1)))
        #expect(Array(loaded) == Array(merged) && loaded.snapshot() == merged.snapshot())
    }

    /// Row 5:1 inserted with key 80 and value "x", then deleted by operation 5:2: a row both live and
    /// deleted, as no encoder writes it.
    static func insertedAndDeleted(kind: UInt8) -> [UInt8] {
        var bytes: [UInt8] = [0x4C, 0x53, 2, kind]
        bytes += [1, 5, 0, 0, 0, 0, 0, 0, 0]  // one replica, 5
        bytes += [1, 22] + Array("public.utf8-plain-text".utf8)
        bytes += [1, 0, 1, 0, 1]  // coverage: replica 0, 1...2
        bytes += [2]  // two updates
        bytes += [3, 3, 0x3B, 0x04]  // flags: a literal group of an insert and a deletion
        bytes += [3, 3, 2, 0]  // row counter deltas +1, 0: row 5:1 twice
        bytes += [2, 1, 0] + [2, 1, 1] + [1, 0x80]  // the insert's key: 80
        bytes += [2, 4, 0]  // Lamport = counter, twice
        bytes += [2, 1, 0] + [2, 1, 4]  // the deletion's dot: replica 0, counter 2
        bytes += [2, 1, 0] + [2, 1, 1] + [1, UInt8(ascii: "x")]  // value: type 0, 1 byte, "x"
        return bytes
    }

    @Test(arguments: [duplicatedInsert, insertedAndDeleted])
    func duplicateRowsAreRejected(_ bytes: @Sendable (UInt8) -> [UInt8]) throws {
        var changeSetError: BinaryDecodingError?
        do { _ = try ChangeSet(decoding: bytes(1)) } catch { changeSetError = error }
        guard case .notCanonical = changeSetError else {
            Issue.record("change set with a duplicated row: \(String(describing: changeSetError))")
            return
        }
        #expect(throws: MergeError.malformed(changeSetError!)) {
            try ReplicatedList<String>(snapshot: bytes(2))
        }
    }

    /// `count` inserts of replica 5 with one-byte keys in key order and one-byte values, of rows 1, 2,
    /// ..., `count` or, `repeatingFirst`, of rows 1, ..., `count - 1` and then row 1 again.
    static func inserts(kind: UInt8, count: Int, repeatingFirst: Bool) -> [UInt8] {
        precondition((2...63).contains(count))  // runs of `count` fit a one-byte header
        let n = UInt8(count)
        let run = { (value: UInt8) -> [UInt8] in [2 * n, value] }  // `count` times `value`
        let column = { (bytes: [UInt8]) -> [UInt8] in [UInt8(bytes.count)] + bytes }
        // Row counter deltas, zigzag: +1 each, or +1 (count - 1 times) then back to row 1.
        let rowCounters: [UInt8] =
            !repeatingFirst ? run(2) : count == 2 ? [3, 2, 0] : [2 * (n - 1), 2, 1, 2 * (n - 2) - 1]
        var bytes: [UInt8] = [0x4C, 0x53, 2, kind]
        bytes += [1, 5, 0, 0, 0, 0, 0, 0, 0]  // one replica, 5
        bytes += [1, 22] + Array("public.utf8-plain-text".utf8)
        bytes += [1, 0, 1, 0, repeatingFirst ? n - 2 : n - 1]  // coverage: replica 0, its rows
        bytes += [n]
        bytes += column(run(0x3B)) + column(rowCounters)  // inserts with a value, by replica 0
        bytes += column(run(0)) + column(run(1)) + column((0..<n).map { 0x80 + $0 })  // keys 80, 81, ...
        bytes += column(run(0)) + column([]) + column([])  // Lamport = counter
        bytes += column(run(0)) + column(run(1)) + column((0..<n).map { UInt8(ascii: "a") + $0 })
        return bytes
    }

    /// A row that comes twice is refused whatever the size of the change set or snapshot: small ones
    /// check row IDs pairwise, larger ones with an index.
    @Test func aRepeatedRowIsRefusedAtEverySize() throws {
        for count in 2...20 {
            let distinct = try ChangeSet(decoding: Self.inserts(kind: 1, count: count, repeatingFirst: false))
            #expect(distinct.rowCount == count)
            let loaded = try ReplicatedList<String>(
                snapshot: Self.inserts(kind: 2, count: count, repeatingFirst: false), replicaID: ReplicaID(9))
            #expect(loaded.count == count)
            var changeSetError: BinaryDecodingError?
            do {
                _ = try ChangeSet(decoding: Self.inserts(kind: 1, count: count, repeatingFirst: true))
            } catch {
                changeSetError = error
            }
            guard case .notCanonical = changeSetError else {
                Issue.record("\(count) updates, one row twice: \(String(describing: changeSetError))")
                continue
            }
            #expect(throws: MergeError.malformed(changeSetError!)) {
                try ReplicatedList<String>(snapshot: Self.inserts(kind: 2, count: count, repeatingFirst: true))
            }
        }
    }

    /// Each error about one update names the offset where the value at fault is encoded, in its column.
    @Test func malformedValuesNameWhereTheyAre() throws {
        let valid = HandEncoded.uncoveredInsert(covering: true)
        #expect(try ChangeSet(decoding: valid).rowCount == 1)
        // Offsets in `uncoveredInsert`: flags 45, row counter 48, key shared 51, key suffix length 54,
        // key suffix 56, Lamport 59, value type 64.
        #expect(
            [valid[45], valid[48], valid[51], valid[54], valid[56], valid[59], valid[64]] == [
                0x3B, 2, 0, 1, 0x80, 0, 0,
            ])
        let cases: [(offset: Int, byte: UInt8, error: BinaryDecodingError)] = [
            (45, 0x00, .invalidFlags(offset: 45)),  // no register at all
            (45, 0x7B, .indexOutOfRange(offset: 45)),  // the row's replica is number 1 of 1
            (48, 0x00, .invalidStamp(offset: 48)),  // row counter 0
            (51, 0x01, .invalidPositionKey(offset: 51)),  // shares a byte with no key before it
            (54, 0x05, .invalidPositionKey(offset: 54)),  // a suffix longer than the column
            (56, 0x00, .invalidPositionKey(offset: 56)),  // a key ending in a zero byte
            (59, 0x01, .invalidStamp(offset: 59)),  // Lamport time 0 (counter 1 minus 1)
            (64, 0x01, .indexOutOfRange(offset: 64)),  // value type 1 of 1
        ]
        for (offset, byte, error) in cases {
            var bytes = valid
            bytes[offset] = byte
            #expect(throws: error, "byte \(offset) set to \(byte)") { try ChangeSet(decoding: bytes) }
        }
    }

    /// Row 5:1 inserted with key 80 and value "x" (as `HandEncoded.uncoveredInsert`), with `flags` and
    /// the stamp columns given (signed columns hold zigzag values): Lamport times minus counters, then the
    /// dots written out.
    static func insert(flags: UInt8, lamports: [UInt8], dotReplicas: [UInt8] = [], dotCounters: [UInt8] = [])
        -> [UInt8]
    {
        /// A run-length column of small values, canonical (runs of equal values, literal groups between),
        /// length-prefixed.
        func column(_ values: [UInt8]) -> [UInt8] {
            var groups: [UInt8] = []
            var literals: [UInt8] = []
            var index = 0
            while index < values.count {
                var end = index + 1
                while end < values.count && values[end] == values[index] { end += 1 }
                if end - index >= 2 {
                    if !literals.isEmpty { groups += [UInt8(literals.count * 2 - 1)] + literals }
                    literals = []
                    groups += [UInt8((end - index) * 2), values[index]]
                } else {
                    literals.append(values[index])
                }
                index = end
            }
            if !literals.isEmpty { groups += [UInt8(literals.count * 2 - 1)] + literals }
            return [UInt8(groups.count)] + groups
        }
        var bytes: [UInt8] = [0x4C, 0x53, 2, 1, 1, 5, 0, 0, 0, 0, 0, 0, 0]
        bytes += [1, 22] + Array("public.utf8-plain-text".utf8) + [1, 0, 1, 0, 0, 1]
        bytes += column([flags]) + column([2]) + column([0]) + column([1]) + [1, 0x80]
        bytes += column(lamports) + column(dotReplicas) + column(dotCounters)
        bytes += column([0]) + column([1]) + [1, UInt8(ascii: "x")]
        return bytes
    }

    /// One row update has one encoding: a value stamp equal to the position stamp is flagged (bit 5, with
    /// bit 4 equal to bit 3), not written twice, and a dot that is the row ID is flagged, not written.
    @Test func registersHaveOneEncoding() throws {
        let canonical = Self.insert(flags: 0x3B, lamports: [0])
        #expect(canonical == HandEncoded.uncoveredInsert(covering: true))
        #expect(try ChangeSet(decoding: canonical).rowCount == 1)
        // Both stamps by the insert, the value's one later: not equal, so both are written.
        #expect(try ChangeSet(decoding: Self.insert(flags: 0x1B, lamports: [0, 2])).rowCount == 1)
        #expect(throws: BinaryDecodingError.invalidFlags(offset: 45), "bit 5 with bit 4 unlike bit 3") {
            try ChangeSet(decoding: Self.insert(flags: 0x2B, lamports: [0]))
        }
        let rejected: [(String, [UInt8])] = [
            ("the equal value stamp written again", Self.insert(flags: 0x1B, lamports: [0, 0])),
            (
                "the position stamp's dot written out",
                Self.insert(flags: 0x23, lamports: [0], dotReplicas: [0], dotCounters: [2])
            ),
            (
                "the value stamp's dot written out",
                Self.insert(flags: 0x0B, lamports: [0, 2], dotReplicas: [0], dotCounters: [2])
            ),
        ]
        for (what, bytes) in rejected {
            let error = #expect(throws: BinaryDecodingError.self, "\(what)") { try ChangeSet(decoding: bytes) }
            guard case .notCanonical = error else {
                Issue.record("\(what): \(String(describing: error))")
                continue
            }
        }
    }

    /// A change set in format version 1 (run-length columns as (length, value) pairs), written by ListSync
    /// 0.2.0: replica 0xA1 appended apple, pear and fig; replica 0xB2 merged them, moved fig to the front,
    /// set pear to PEAR, removed apple and appended kiwi.
    static let formatVersion1 = hexBytes(
        "4c53010102a100000000000000b20000000000000001167075626c69632e757466382d706c61696e2d7465787402000100"
            + "020101000304080113010b017b01040801060101010401050203000601030102010308307a806080b01f80080102010301"
            + "01030202030102030202030004010302040b666967504541526b697769")

    /// The bytes written as `hex`, two lowercase digits each.
    static func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)!
        }
    }

    @Test func formatVersion1StillDecodes() throws {
        let changes = try ChangeSet(decoding: Self.formatVersion1)
        #expect(changes.rowCount == 4)
        let list = ReplicatedList<String>(replicaID: ReplicaID(9))
        try list.merge(changes)
        #expect(list.map(\.value) == ["fig", "PEAR", "kiwi"])
        let a = ReplicaID(0xA1)
        let b = ReplicaID(0xB2)
        let rows = [RowID(replica: a, counter: 3), RowID(replica: a, counter: 2), RowID(replica: b, counter: 4)]
        #expect(list.map(\.rowID) == rows)
        let reencoded = changes.encoded()
        #expect(reencoded[2] == 6)
        #expect(try ChangeSet(decoding: reencoded) == changes)
        // A version 1 snapshot (as ListSyncStore 0.2.0 stored it) is the same bytes with kind 2.
        var snapshot = Self.formatVersion1
        snapshot[3] = 2
        let loaded = try ReplicatedList<String>(snapshot: snapshot, replicaID: ReplicaID(10))
        #expect(loaded.map(\.value) == ["fig", "PEAR", "kiwi"])
        #expect(loaded.map(\.rowID) == rows)
    }

    @Test func handWrittenChangeSetMerges() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(9))
        try list.merge(ChangeSet(decoding: HandEncoded.uncoveredInsert(covering: true)))
        #expect(list.map(\.value) == ["x"])
        #expect(list[0].rowID == RowID(replica: ReplicaID(5), counter: 1))
    }

    @Test func uncoveredOperationsAreRejected() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(9))
        let changes = try ChangeSet(decoding: HandEncoded.uncoveredInsert(covering: false))
        let row = RowID(replica: ReplicaID(5), counter: 1)
        #expect(throws: MergeError.uncoveredOperation(row: row, operation: row)) { try list.merge(changes) }
        #expect(list.isEmpty && list.versionVector == VersionVector())
    }

    /// A value of another element type is kept, hidden, not rejected (UndecodableValueTests has more).
    @Test func foreignValueTypesAreKeptHidden() throws {
        let numbers = ReplicatedList<Int>(replicaID: ReplicaID(9))
        let changes = try ChangeSet(decoding: HandEncoded.uncoveredInsert(covering: true))
        let row = RowID(replica: ReplicaID(5), counter: 1)
        #expect(try numbers.merge(changes).isEmpty)
        numbers._checkInvariants()
        #expect(numbers.isEmpty && numbers.undecodableRows.map(\.id) == [row])
        #expect(numbers.undecodableRows.first?.typeIdentifier == "public.utf8-plain-text")
    }

    struct Place: Codable, Equatable {
        var name: String
        var visits: Double
    }

    @Test func elementTypesRoundTrip() throws {
        let numbers = ReplicatedList<Int>(replicaID: ReplicaID(1))
        numbers.append(contentsOf: [0, -1, 1, Int.max, Int.min, 300])
        let numberCopy = try ReplicatedList<Int>(snapshot: numbers.snapshot())
        #expect(numberCopy.map(\.value) == [0, -1, 1, Int.max, Int.min, 300])
        let places = ReplicatedList<Place>(replicaID: ReplicaID(2))
        places.append(contentsOf: [Place(name: "Oslo", visits: 2), Place(name: "Lima", visits: .infinity)])
        let placeCopy = try ReplicatedList<Place>(snapshot: places.snapshot())
        #expect(placeCopy.map(\.value) == places.map(\.value))
        let foreign = try ReplicatedList<Place>(snapshot: numbers.snapshot())
        foreign._checkInvariants()
        #expect(foreign.isEmpty && foreign.undecodableRows.count == 6)
    }

    /// Clearing 10,000 values one by one (each edit its own change, on consecutive rows) made a change
    /// set of 93 bytes: every column a regular progression, one update a byte not reached, so every peer
    /// refused it (`countTooLarge`). The encoder now pads such a change set with zeros to a byte an
    /// update, the least that passes, and decoders accept exactly that padding.
    @Test func editsThatCompressBelowAByteAnUpdateArePadded() throws {
        let writer = ReplicatedList<String>(replicaID: ReplicaID(1))
        let reader = ReplicatedList<String>(replicaID: ReplicaID(2))
        writer.append(contentsOf: (0..<10_000).map { "r\($0)" })
        try reader.merge(writer.changes(since: reader.versionVector))
        for index in 0..<10_000 { writer.updateValue("", at: index) }
        let bytes = writer.changes(since: reader.versionVector).encoded()
        #expect(bytes.count >= 10_000 && bytes.count < 10_100)
        try reader.merge(ChangeSet(decoding: bytes))
        #expect(Array(reader) == Array(writer))
        // The padding: trailing zeros after its length's varint.
        let zeros = bytes.reversed().prefix { $0 == 0 }.count
        var longer = bytes
        longer[bytes.count - zeros - 1] &+= 1  // one more byte of padding than needed
        longer.append(0)
        #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: longer) }
        var nonZero = bytes
        nonZero[bytes.count - 1] = 1
        #expect(throws: BinaryDecodingError.notCanonical(offset: bytes.count - 1)) { try ChangeSet(decoding: nonZero) }
    }
}
