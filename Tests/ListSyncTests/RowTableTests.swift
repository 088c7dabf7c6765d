import Foundation
import TestSupport
import Testing

@testable import ListSync

/// The row table against a dictionary of plain records: rows added one by one and in runs (consecutive
/// counters of one replica, keys of one prefix with consecutive integers, as typing and pasting make
/// them), moved, edited and removed; placeholders added, re-keyed and withdrawn; slots reused; keys
/// within the 24 bytes a record holds inline and longer. Seeded:
/// 16 seeds in `swift test`, 400 in the long run; `LISTSYNC_ROWTABLE_SEED=S` replays one.
struct RowTableTests {
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["LISTSYNC_ROWTABLE_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_ROWTABLE_SEEDS", quick: 16, long: 400, from: 0x5107))

    /// What the table must hold: the records of rows and placeholders by their IDs.
    struct Model {
        var rows: [RowID: RowRecord] = [:]
        var placeholders: [PlaceholderID: RowRecord] = [:]
    }

    /// Every row and placeholder of `model` is found in `table` with the same fields, and nothing else is.
    static func check(_ table: RowTable, against model: Model, _ context: String) {
        #expect(table.count == model.rows.count, "\(context): count")
        var slots = Set<Int32>()
        for (id, expected) in model.rows {
            guard let slot = table.slot(of: id) else {
                Issue.record("\(context): row \(id) not found")
                continue
            }
            slots.insert(slot)
            let record = table[slot]
            #expect(
                record.id == id && record.positionStamp == expected.positionStamp
                    && record.valueStamp == expected.valueStamp && record.placeholder == nil,
                "\(context): fields of \(id)")
            if expected.positionStamp.isSet {
                #expect(record.key == expected.key, "\(context): key of \(id)")
                #expect(table.keyHead(of: slot) == expected.key.head, "\(context): key head of \(id)")
            }
            let insertedKey = expected.positionStamp.isSet && expected.positionStamp.dot == id
            #expect(table.hasInsertedKey(slot, id: id) == insertedKey, "\(context): \(id) has its insert's key")
            let other = RowID(replica: id.replica, counter: id.counter &+ 1)
            #expect(!table.hasInsertedKey(slot, id: other), "\(context): the slot of \(id) holds \(other)")
        }
        #expect(slots.count == model.rows.count, "\(context): two rows in one slot")
        var visited = Set<Int32>()
        table.forEachSlot { visited.insert($0) }
        #expect(visited == slots, "\(context): forEachSlot")
        for (placeholder, expected) in model.placeholders {
            guard let slot = table.slot(of: placeholder) else {
                Issue.record("\(context): \(placeholder) not found")
                continue
            }
            #expect(!slots.contains(slot), "\(context): \(placeholder) in a row's slot")
            #expect(table[slot].placeholder == placeholder && table[slot].key == expected.key, "\(context): \(placeholder)")
            #expect(table.isPlaceholder(slot), "\(context): \(placeholder) is a placeholder")
        }
        #expect(table.placeholders.count == model.placeholders.count, "\(context): placeholders")
        // Ordering by (key, ID) agrees with the records' fields.
        let positioned = model.rows.values.filter(\.positionStamp.isSet).map(\.id).prefix(40)
        for a in positioned {
            for b in positioned.prefix(8) {
                let (ra, rb) = (model.rows[a]!, model.rows[b]!)
                let expected = ra.key < rb.key || (ra.key == rb.key && ra.id < rb.id)
                #expect(table.precedes(table.slot(of: a)!, table.slot(of: b)!) == expected, "\(context): precedes")
            }
        }
    }

    @Test func rowsRunsAndPlaceholdersAgreeWithADictionary() {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "RowTableTests",
                replay: "LISTSYNC_ROWTABLE_SEED=\(seed) swift test --filter rowsRunsAndPlaceholdersAgreeWithADictionary")
            var rng = SplitMix64(seed: seed)
            var table = RowTable()
            var model = Model()
            var allocator = KeyAllocator(tag: PositionKey([0x20]))
            var keys: [PositionKey] = []  // every key allocated, in order
            var counters: [UInt64: UInt64] = [:]  // the next counter of each replica
            var lamport: UInt64 = 1
            var nextPlaceholder: UInt64 = 1
            // Half the seeds put 30 bytes in front of every key the table gets, so that every key is
            // longer than the 24 bytes a record holds inline and many keys share more than those.
            let padding: [UInt8] = seed % 2 == 0 ? Array(repeating: 0x41, count: 30) : []
            /// `count` keys after a random allocated key (or at the end), kept in order (the allocator's,
            /// then given the seed's padding).
            func allocate(_ count: Int) -> [PositionKey] {
                let index = keys.isEmpty || rng.next() % 3 == 0 ? keys.count : Int(rng.next() % UInt64(keys.count))
                var placed: [PositionKey] = []
                allocator.allocate(
                    count: count, after: index > 0 ? keys[index - 1] : .empty,
                    before: index < keys.count ? keys[index] : .empty, into: &placed)
                keys.insert(contentsOf: placed, at: index)
                return padding.isEmpty ? placed : placed.map { PositionKey(padding + $0.bytes) }
            }
            var liveIDs: [RowID] = []  // the model's rows, in an order the seed fixes
            func live() -> RowID? { liveIDs.isEmpty ? nil : liveIDs[Int(rng.next() % UInt64(liveIDs.count))] }
            for step in 0..<600 {
                lamport += 1
                switch rng.next() % 10 {
                case 0...3:
                    // A run: typing (a Lamport time per row) or a paste (one for all), forward.
                    let replica = 1 + rng.next() % 3
                    let count = 1 + Int(rng.next() % 40)
                    let pasted = rng.next() % 2 == 0
                    let placed = allocate(count)
                    for (offset, key) in placed.enumerated() {
                        let counter = counters[replica, default: 1]
                        counters[replica] = counter + 1
                        let id = RowID(replica: ReplicaID(replica), counter: counter)
                        let stamp = Stamp(lamport: pasted ? lamport : lamport + UInt64(offset), dot: id)
                        let unset = rng.next() % 16 == 0  // a row known only from its value so far
                        let record = RowRecord(
                            id: id, key: unset ? RowRecord.unsetKey : key, positionStamp: unset ? .none : stamp,
                            valueStamp: stamp)
                        model.rows[id] = record
                        liveIDs.append(id)
                        _ = table.add(
                            id: id, key: record.key, positionStamp: record.positionStamp,
                            valueStamp: record.valueStamp)
                    }
                    if !pasted { lamport += UInt64(count) }
                case 4, 5:
                    guard let id = live() else { continue }
                    let stamp = Stamp(lamport: lamport, dot: Dot(replica: ReplicaID(9), counter: UInt64(step) + 1))
                    let key = allocate(1)[0]
                    table.setPosition(key, stamp: stamp, of: table.slot(of: id)!)
                    model.rows[id]!.key = key
                    model.rows[id]!.positionStamp = stamp
                case 6:
                    guard let id = live() else { continue }
                    let stamp = Stamp(lamport: lamport, dot: Dot(replica: ReplicaID(9), counter: UInt64(step) + 1))
                    table.setValueStamp(stamp, of: table.slot(of: id)!)
                    model.rows[id]!.valueStamp = stamp
                case 7, 8:
                    guard let id = live() else { continue }
                    table.remove(table.slot(of: id)!)
                    model.rows[id] = nil
                    liveIDs.removeAll { $0 == id }
                default:
                    if let (placeholder, _) = model.placeholders.first, rng.next() % 2 == 0 {
                        if rng.next() % 2 == 0 {
                            let key = allocate(1)[0]
                            table.setPlaceholderKey(key, of: table.slot(of: placeholder)!)
                            model.placeholders[placeholder]!.key = key
                        } else {
                            _ = table.removePlaceholder(placeholder)
                            model.placeholders[placeholder] = nil
                        }
                    } else {
                        let placeholder = PlaceholderID(rawValue: nextPlaceholder)
                        nextPlaceholder += 1
                        let key = allocate(1)[0]
                        _ = table.addPlaceholder(placeholder, key: key)
                        model.placeholders[placeholder] = RowRecord(placeholder: placeholder, key: key)
                    }
                }
                if step % 50 == 49 { Self.check(table, against: model, "seed \(seed), step \(step)") }
            }
            Self.check(table, against: model, "seed \(seed), end")
        }
    }

    /// `slots(in:)` against a plain filter of the table's rows, for tables whose rows were added in
    /// stretches of consecutive counters in any order (as a snapshot in key order holds them) and runs
    /// that claim fewer or more rows than the table has, so that both ways of finding them are checked
    /// wherever the rows lie. Seeded as the test above.
    @Test func theLiveRowsRunsNameAreFoundInEveryRowOrder() {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "RowTableTests",
                replay: "LISTSYNC_ROWTABLE_SEED=\(seed) swift test --filter theLiveRowsRunsNameAreFoundInEveryRowOrder")
            var rng = SplitMix64(seed: seed)
            var table = RowTable()
            var ids: [RowID] = []
            var taken: Set<RowID> = []
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                let replica = ReplicaID(UInt64.random(in: 1...3, using: &rng))
                let first = UInt64.random(in: 1...400, using: &rng)
                let counters = first..<(first + UInt64.random(in: 1...30, using: &rng))
                let stretch = counters.map { RowID(replica: replica, counter: $0) }.filter { !taken.contains($0) }
                for id in Bool.random(using: &rng) ? stretch : stretch.reversed() {
                    let stamp = Stamp(lamport: id.counter, dot: id)
                    ids.append(id)
                    taken.insert(id)
                    _ = table.add(id: id, key: PositionKey([0x80]), positionStamp: stamp, valueStamp: stamp)
                }
            }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:  // a row far from the others: too spread out for a bitmap
                ids.append(RowID(replica: ReplicaID(2), counter: 1 << 40))
            case 1:  // rows of many replicas
                ids += (UInt64(10)..<80).map { RowID(replica: ReplicaID($0), counter: 7) }
            default: break
            }
            for id in ids[table.count...] {
                let stamp = Stamp(lamport: 1, dot: id)
                _ = table.add(id: id, key: PositionKey([0x80]), positionStamp: stamp, valueStamp: stamp)
            }
            var runs: [DeletionRun] = []
            for replica in UInt64(1)...3 {
                var next = UInt64.random(in: 1...20, using: &rng)
                while next < 500 {
                    let length = UInt64.random(in: 1...(Bool.random(using: &rng) ? 3 : 60), using: &rng)
                    runs.append(Self.run(replica, next..<(next + length)))
                    next += length + UInt64.random(in: 1...40, using: &rng)
                }
            }
            runs.append(Self.run(70, 5..<8))
            if Bool.random(using: &rng) { runs.append(Self.run(90, 1..<1_000_000)) }  // more rows than the table
            // Free slots, whose stale records a search must not find, in half the tables.
            let freed = Bool.random(using: &rng) ? Set(stride(from: Int32(0), to: Int32(ids.count), by: 5)) : []
            for slot in freed { table.remove(slot) }
            let expected = ids.indices.filter { offset in
                !freed.contains(Int32(offset)) && runs.contains { $0.contains(ids[offset]) }
            }.map { Int32($0) }
            #expect(table.slots(in: runs).sorted() == expected, "seed \(seed)")
        }
    }

    /// A table of rows 1...3,000 of replica 1.
    static func table() -> RowTable {
        var table = RowTable()
        for counter in UInt64(1)...3_000 {
            let id = RowID(replica: ReplicaID(1), counter: counter)
            let stamp = Stamp(lamport: counter, dot: id)
            _ = table.add(id: id, key: PositionKey([0x80]), positionStamp: stamp, valueStamp: stamp)
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
            (
                "more rows than the table has, in several runs",
                [Self.run(1, 10..<12), Self.run(1, 500..<501), Self.run(2, 1..<1_000_000)], [9, 10, 499]
            ),
        ]
        for (name, runs, slots) in cases {
            #expect(table.slots(in: runs).sorted() == slots, "\(name)")
        }
    }
}
