import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Tombstones, kept as points and compacted into runs, against a dictionary that keeps the least
/// delete stamp per row. Seeded: 16 seeds in `swift test`, 2,000 in the long run;
/// `LISTSYNC_TOMBSTONE_SEED=S` replays one.
struct TombstonesTests {
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["LISTSYNC_TOMBSTONE_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_TOMBSTONE_SEEDS", quick: 16, long: 2_000, from: 0x70_3B))

    /// Deletes as a list sees them: blocks deleted by one change (one Lamport time, consecutive
    /// counters, rows in either order), backspacing (a change per row), single rows of several replicas,
    /// and deletes again of rows already deleted, with smaller or larger stamps.
    static func deletes(seed: UInt64) -> [(RowID, Stamp)] {
        var rng = SplitMix64(seed: seed)
        var deletes: [(RowID, Stamp)] = []
        var lamport: UInt64 = 10
        var counters: [UInt64] = [1_000, 1_000, 1_000]
        func stamp(_ deleter: Int, _ lamport: UInt64) -> Stamp {
            counters[deleter] += 1
            return Stamp(
                lamport: lamport, dot: Dot(replica: ReplicaID(UInt64(100 + deleter)), counter: counters[deleter]))
        }
        for _ in 0..<Int(20 + rng.next() % 200) {
            let replica = ReplicaID(1 + rng.next() % 3)
            let first = 1 + rng.next() % 400
            let length = 1 + rng.next() % 40
            let deleter = Int(rng.next() % 3)
            lamport += 1 + rng.next() % 3
            let rows = (first..<first + length).map { RowID(replica: replica, counter: $0) }
            switch rng.next() % 4 {
            case 0:  // one change deleting a block, in row order or reversed
                for row in rng.next() % 2 == 0 ? rows : rows.reversed() {
                    deletes.append((row, stamp(deleter, lamport)))
                }
            case 1:  // backspacing: a change per row, from the last row down
                for row in rows.reversed() {
                    deletes.append((row, stamp(deleter, lamport)))
                    lamport += 1
                }
            case 2:  // a delete again with a smaller stamp: a concurrent one that arrives later
                let row = rows[0]
                deletes.append(
                    (
                        row,
                        Stamp(
                            lamport: 1 + rng.next() % 5, dot: Dot(replica: ReplicaID(99), counter: 1 + rng.next() % 50))
                    ))
            default:  // scattered rows
                for _ in 0..<Int(1 + rng.next() % 5) {
                    let row = RowID(replica: replica, counter: 1 + rng.next() % 600)
                    deletes.append((row, stamp(deleter, lamport)))
                }
            }
        }
        return deletes
    }

    /// Every lookup, the count and the iteration agree with the model after each delete.
    static func check(_ tombstones: Tombstones, against model: [RowID: Stamp], _ context: String) {
        #expect(tombstones.count == model.count, "\(context): count")
        var seen: [RowID: Stamp] = [:]
        tombstones.forEachTombstone { id, stamp in
            #expect(seen.updateValue(stamp, forKey: id) == nil, "\(context): \(id) visited twice")
        }
        #expect(seen == model, "\(context): iteration")
        for replica in 1...3 {
            for counter in UInt64(0)...650 {
                let id = RowID(replica: ReplicaID(UInt64(replica)), counter: counter)
                #expect(tombstones[id] == model[id], "\(context): lookup of \(id)")
            }
        }
    }

    @Test func pointsAndRunsAgreeWithADictionary() {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "TombstonesTests",
                replay: "LISTSYNC_TOMBSTONE_SEED=\(seed) swift test --filter pointsAndRunsAgreeWithADictionary")
            var tombstones = Tombstones(compactingAt: 16, shortestRun: 3)
            var model: [RowID: Stamp] = [:]
            let deletes = Self.deletes(seed: seed)
            for (offset, (id, stamp)) in deletes.enumerated() {
                tombstones.insert(id, deletedBy: stamp)
                model[id] = min(model[id] ?? stamp, stamp)
                if offset % 50 == 49 { Self.check(tombstones, against: model, "seed \(seed), delete \(offset)") }
            }
            Self.check(tombstones, against: model, "seed \(seed), end")
            // Loading the same rows in bulk (each once) makes the same tombstones.
            var loaded = Tombstones(compactingAt: 16, shortestRun: 3)
            for (id, stamp) in model.sorted(by: { $0.value < $1.value }) {
                loaded.insertUnindexed(id, deletedBy: stamp)
            }
            let indexed = loaded.indexUnindexed(unlessIn: RowTable())
            #expect(indexed)
            Self.check(loaded, against: model, "seed \(seed), bulk")
        }
    }

    /// A bulk load finds a row loaded twice wherever compaction put the two: two points, a point inside
    /// a run, or two runs that overlap.
    @Test func aRowLoadedTwiceIsFound() {
        func block(_ rows: ClosedRange<UInt64>, from counter: UInt64) -> [(RowID, Stamp)] {
            rows.enumerated().map { offset, row in
                (
                    RowID(replica: ReplicaID(1), counter: row),
                    Stamp(lamport: 7, dot: Dot(replica: ReplicaID(2), counter: counter + UInt64(offset)))
                )
            }
        }
        let single = (
            RowID(replica: ReplicaID(1), counter: 50), Stamp(lamport: 9, dot: Dot(replica: ReplicaID(3), counter: 1))
        )
        let cases: [(String, [(RowID, Stamp)], Bool)] = [
            ("distinct", block(1...40, from: 100) + block(41...80, from: 500), true),
            ("a point inside a run", block(1...40, from: 100) + block(41...80, from: 500) + [single], false),
            ("two points", [single, single], false),
            ("overlapping runs", block(1...40, from: 100) + block(30...60, from: 500), false),
        ]
        for (name, rows, valid) in cases {
            var tombstones = Tombstones(compactingAt: 2, shortestRun: 4)
            for (id, stamp) in rows { tombstones.insertUnindexed(id, deletedBy: stamp) }
            let indexed = tombstones.indexUnindexed(unlessIn: RowTable())
            #expect(indexed == valid, "\(name)")
            if valid { #expect(tombstones.runs.count == 2 && tombstones.count == 80, "\(name)") }
        }
    }

    /// Compaction does happen: a block of 1,000 rows deleted by one change, and 1,000 rows
    /// backspaced, are one run each; a row deleted again with a smaller stamp overrides its run's.
    @Test func blocksAndBackspacingBecomeOneRunEach() {
        var tombstones = Tombstones(compactingAt: 100, shortestRun: 2)
        let block = (1...1_000).map { RowID(replica: ReplicaID(1), counter: UInt64($0)) }
        for (offset, row) in block.enumerated() {
            tombstones.insert(
                row, deletedBy: Stamp(lamport: 50, dot: Dot(replica: ReplicaID(9), counter: UInt64(10 + offset))))
        }
        for (offset, counter) in (2_001...3_000).reversed().enumerated() {
            let stamp = Stamp(
                lamport: UInt64(100 + offset), dot: Dot(replica: ReplicaID(9), counter: UInt64(5_000 + offset)))
            tombstones.insert(RowID(replica: ReplicaID(1), counter: UInt64(counter)), deletedBy: stamp)
        }
        #expect(tombstones.runs.count == 2 && tombstones.count == 2_000)
        let row = RowID(replica: ReplicaID(1), counter: 2_500)
        #expect(tombstones[row] == Stamp(lamport: 600, dot: Dot(replica: ReplicaID(9), counter: 5_500)))
        let earlier = Stamp(lamport: 3, dot: Dot(replica: ReplicaID(2), counter: 1))
        tombstones.insert(row, deletedBy: earlier)
        tombstones.insert(row, deletedBy: Stamp(lamport: 700, dot: Dot(replica: ReplicaID(2), counter: 2)))
        #expect(tombstones[row] == earlier && tombstones.count == 2_000)
        var visits = 0
        tombstones.forEachTombstone { id, stamp in
            visits += 1
            if id == row { #expect(stamp == earlier) }
        }
        #expect(visits == 2_000)
        // A new row just past a run, then ten rows of the run deleted again with smaller stamps, all
        // stepping evenly, then enough other deletes for a compaction: the new row stays a point and
        // the ten stay points overriding the run, not a second run over the same rows.
        var model: [RowID: Stamp] = [:]
        tombstones.forEachTombstone { id, stamp in model[id] = stamp }
        for offset in 0...10 {
            let stamp = Stamp(lamport: UInt64(3 + offset), dot: Dot(replica: ReplicaID(2), counter: UInt64(2 + offset)))
            let id = RowID(replica: ReplicaID(1), counter: UInt64(3_001 - offset))
            if offset == 0 {
                tombstones.insertNew(id, deletedBy: stamp)
            } else {
                tombstones.insert(id, deletedBy: stamp)
            }
            model[id] = stamp
        }
        for offset in 0..<200 {
            let id = RowID(replica: ReplicaID(3), counter: UInt64(1 + 7 * offset))
            let stamp = Stamp(lamport: 900, dot: Dot(replica: ReplicaID(3), counter: UInt64(9_000 + 5 * offset)))
            tombstones.insertNew(id, deletedBy: stamp)
            model[id] = stamp
        }
        var seen: [RowID: Stamp] = [:]
        tombstones.forEachTombstone { id, stamp in #expect(seen.updateValue(stamp, forKey: id) == nil) }
        #expect(seen == model && tombstones.count == model.count && tombstones.runs.count == 2)
        for (id, stamp) in model { #expect(tombstones[id] == stamp) }
    }
}
