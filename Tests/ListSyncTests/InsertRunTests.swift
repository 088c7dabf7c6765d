import Foundation
import Testing

@testable import ListSync

/// Runs of inserted rows in format 6: rows typed, pasted or typed backward, never moved or edited since,
/// are one entry each in change sets and snapshots, and decoders accept exactly the greedy runs.
struct InsertRunTests {
    /// A run-length column of small values, canonical (runs of equal values, literal groups between),
    /// length-prefixed.
    static func column(_ values: [UInt8]) -> [UInt8] {
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

    /// A version 6 change set of `rows` rows of replica 5 (counters 1 ... rows covered), text values of one
    /// byte each, written as the given entries: `flags` per entry, `counters` (row counter differences,
    /// zigzagged) per entry, keys as `keyShared`/`keySuffixLengths`/`keySuffixes`, `lamports` (Lamport time
    /// minus counter, zigzagged) per entry, `runs` per run entry, and one value type per entry.
    static func encoded(
        rows: Int, flags: [UInt8], counters: [UInt8], keyShared: [UInt8], keySuffixLengths: [UInt8],
        keySuffixes: [UInt8], lamports: [UInt8], runs: [UInt8], coveredThrough: UInt8? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x4C, 0x53, 6, 1, 1, 5, 0, 0, 0, 0, 0, 0, 0]
        bytes += [1, 22] + Array("public.utf8-plain-text".utf8)  // one type
        bytes += [0]  // no field names
        bytes += [1, 0, 1, 0, (coveredThrough ?? UInt8(rows)) - 1]  // coverage: 1 ... rows
        bytes += [0]  // no deletion runs
        bytes += [UInt8(rows * 2)]  // rows, no padding
        bytes += column(flags) + column(counters) + column(keyShared) + column(keySuffixLengths)
        bytes += [UInt8(keySuffixes.count)] + keySuffixes
        bytes += column(lamports) + column([]) + column([])
        bytes += column(Array(repeating: 0, count: flags.count)) + column(Array(repeating: 1, count: rows))
        bytes += [UInt8(rows)] + (0..<rows).map { UInt8(ascii: "a") + UInt8($0) }
        bytes += column(runs)
        return bytes
    }

    /// Rows 5:1 and 5:2 typed one after the other (Lamport 1 and 2, keys `02 80` and `02 81`: rank 0's
    /// tag, then the run integers 0 and 1).
    @Test func twoTypedRowsAreOneRunAndNothingElse() throws {
        let run = Self.encoded(
            rows: 2, flags: [0x7B], counters: [2], keyShared: [0], keySuffixLengths: [2], keySuffixes: [0x02, 0x80],
            lamports: [0], runs: [5])
        let changes = try ChangeSet(decoding: run)
        #expect(changes.updates.map(\.id.counter) == [1, 2])
        #expect(changes.updates.map { $0.position?.bytes.suffix(1) } == [[0x80], [0x81]])
        #expect(changes.updates.map(\.positionStamp.lamport) == [1, 2])
        #expect(changes.updates.allSatisfy { $0.valueStamp == $0.positionStamp && $0.positionStamp.dot == $0.id })
        #expect(changes.encoded() == run)
        // The same rows as two inserts of their own: the greedy runs hold them in one.
        let apart = Self.encoded(
            rows: 2, flags: [0x3B, 0x3B], counters: [2, 2], keyShared: [0, 1], keySuffixLengths: [2, 1],
            keySuffixes: [0x02, 0x80, 0x81], lamports: [0, 0], runs: [])
        let error = #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: apart) }
        guard case .notCanonical = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test func runsThatBreakTheRulesAreTypedErrors() throws {
        /// Two rows as a run with `flags`, a run value `runValue`, `rows` rows in the count.
        func run(flags: UInt8 = 0x7B, runValue: UInt8 = 5, rows: Int = 2, counter: UInt8 = 2, lamport: UInt8 = 0)
            -> [UInt8]
        {
            Self.encoded(
                rows: rows, flags: [flags], counters: [counter], keyShared: [0], keySuffixLengths: [2],
                keySuffixes: [0x02, 0x80], lamports: [lamport], runs: [runValue])
        }
        let cases: [(String, [UInt8])] = [
            ("other flags", run(flags: 0x7F)),
            ("a run without its value stamp shared", run(flags: 0x5B)),
            ("more rows than the count", run(runValue: 11)),
            ("Lamport times falling below 1", run(runValue: 1, lamport: 0)),
        ]
        for (what, bytes) in cases {
            #expect(throws: BinaryDecodingError.self, "\(what)") { try ChangeSet(decoding: bytes) }
        }
        // A run whose integers pass 2^55.
        var top = PositionKey.empty
        top.append(0x02)
        RunInteger.append(RunInteger.decodableRange.upperBound, to: &top)
        let past = Self.encoded(
            rows: 2, flags: [0x7B], counters: [2], keyShared: [0], keySuffixLengths: [UInt8(top.count)],
            keySuffixes: top.bytes, lamports: [0], runs: [5])
        let error = #expect(throws: BinaryDecodingError.self) { try ChangeSet(decoding: past) }
        guard case .invalidPositionKey = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    /// Typing forward, pasting and typing backward each make one run entry: a change set of 1,000
    /// such rows takes their values and a few bytes more, and round-trips.
    @Test(arguments: ["typed", "pasted", "typed backward"])
    func insertedRowsAreOneEntry(how: String) throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        let values = (0..<1_000).map { _ in "x" }
        switch how {
        case "typed": for value in values { list.append(value) }
        case "pasted": list.append(contentsOf: values)
        default: for value in values { list.insert(value, at: 0) }
        }
        let bytes = list.changes(since: VersionVector()).encoded()
        #expect(bytes.count < 1_000 + 100, "\(how): \(bytes.count) bytes (without runs, a key byte a row more)")
        let copy = try ReplicatedList<String>(snapshot: list.snapshot(), replicaID: ReplicaID(2))
        copy._checkInvariants()
        #expect(Array(copy) == Array(list) && copy.snapshot() == list.snapshot())
        // A moved row breaks its run in two; both sides still decode and merge.
        list.move(from: 500, to: 0)
        let moved = list.changes(since: VersionVector()).encoded()
        #expect(moved.count < 1_000 + 150)
        let merged = ReplicatedList<String>(replicaID: ReplicaID(3))
        try merged.merge(ChangeSet(decoding: moved))
        #expect(Array(merged) == Array(list))
    }
}
