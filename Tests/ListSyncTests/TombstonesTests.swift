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

    /// Every deleted row with its delete stamp, from the canonical runs.
    static func rows(of tombstones: Tombstones) -> [(RowID, Stamp)] {
        tombstones.deletions(notCoveredBy: nil).flatMap { run in
            (0..<run.length).map { (RowID(replica: run.replica, counter: run.first + $0), run.stamp(at: $0)) }
        }
    }

    /// Every lookup, the count and the iteration agree with the model after each delete.
    static func check(_ tombstones: Tombstones, against model: [RowID: Stamp], _ context: String) {
        #expect(tombstones.count == UInt64(model.count), "\(context): count")
        var seen: [RowID: Stamp] = [:]
        for (id, stamp) in rows(of: tombstones) {
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
        for (id, stamp) in Self.rows(of: tombstones) {
            visits += 1
            if id == row { #expect(stamp == earlier) }
        }
        #expect(visits == 2_000)
        // A new row just past a run, then ten rows of the run deleted again with smaller stamps, all
        // stepping evenly, then enough other deletes for a compaction: the new row stays a point and
        // the ten stay points overriding the run, not a second run over the same rows.
        var model: [RowID: Stamp] = [:]
        for (id, stamp) in Self.rows(of: tombstones) { model[id] = stamp }
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
        for (id, stamp) in Self.rows(of: tombstones) { #expect(seen.updateValue(stamp, forKey: id) == nil) }
        #expect(seen == model && tombstones.count == UInt64(model.count) && tombstones.runs.count == 2)
        for (id, stamp) in model { #expect(tombstones[id] == stamp) }
    }

    /// Runs as change sets bring them (canonical, disjoint): blocks and backspacing of up to 120 rows,
    /// single rows, and deletes again of rows already deleted, some with smaller stamps, some overlapping
    /// runs and points already there.
    static func peerRuns(_ rng: inout SplitMix64, lamport: inout UInt64, counter: inout UInt64) -> [DeletionRun] {
        var pieces: [DeletionRun] = []
        for _ in 0..<Int(1 + rng.next() % 4) {
            let replica = ReplicaID(1 + rng.next() % 3)
            let first = 1 + rng.next() % 500
            let length = rng.next() % 3 == 0 ? 1 : 1 + rng.next() % 120
            guard !pieces.contains(where: { $0.replica == replica && $0.first < first + length && first < $0.end })
            else { continue }
            let deleter = ReplicaID(100 + rng.next() % 3)
            lamport = rng.next() % 4 == 0 ? 1 + rng.next() % 20 : lamport + 1 + rng.next() % 3
            counter += 1 + length
            let lamportStep: Int64 = length > 1 ? Int64(rng.next() % 3) - 1 : 0
            let counterStep: Int64 = length > 1 && rng.next() % 2 == 0 ? -1 : 1
            let start = counterStep > 0 ? counter : counter + length - 1
            let stamp = Stamp(
                lamport: lamportStep < 0 ? lamport + length : lamport, dot: Dot(replica: deleter, counter: start))
            pieces.append(
                DeletionRun(
                    replica: replica, first: first, length: length, stamp: stamp, lamportStep: lamportStep,
                    counterStep: counterStep))
            counter += length
        }
        return DeletionRun.canonical(pieces)
    }

    /// The canonical runs of the deleted rows in `model` whose deletes `vector` does not cover.
    static func canonical(_ model: [RowID: Stamp], notCoveredBy vector: VersionVector?) -> [DeletionRun] {
        DeletionRun.canonical(
            model.filter { vector?.contains($0.value.dot) != true }.map { DeletionRun($0.key, deletedBy: $0.value) })
    }

    @Test(arguments: [1, 8] as [UInt64])
    func runsFromPeersAgreeWithADictionary(longestPointRun: UInt64) {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "TombstonesTests runs",
                replay: "LISTSYNC_TOMBSTONE_SEED=\(seed) swift test --filter runsFromPeersAgreeWithADictionary")
            var rng = SplitMix64(seed: seed ^ 0x12)
            var tombstones = Tombstones(compactingAt: 16, shortestRun: 3, longestPointRun: longestPointRun)
            var model: [RowID: Stamp] = [:]
            let local = Self.deletes(seed: seed)
            var (lamport, counter): (UInt64, UInt64) = (10, 5_000)
            var next = 0
            for step in 0..<30 {
                if rng.next() % 2 == 0 {
                    // Local deletes, one row at a time.
                    for (id, stamp) in local[next..<min(next + 20, local.count)] {
                        tombstones.insert(id, deletedBy: stamp)
                        model[id] = min(model[id] ?? stamp, stamp)
                    }
                    next = min(next + 20, local.count)
                } else {
                    let runs = Self.peerRuns(&rng, lamport: &lamport, counter: &counter)
                    tombstones.insert(contentsOf: runs)
                    for run in runs {
                        for offset in 0..<run.length {
                            let id = RowID(replica: run.replica, counter: run.first + offset)
                            model[id] = min(model[id] ?? run.stamp(at: offset), run.stamp(at: offset))
                        }
                    }
                }
                let context = "seed \(seed), step \(step)"
                if step % 10 == 9 { Self.check(tombstones, against: model, context) }
                // The runs out are the canonical runs of the rows, whatever pieces hold them inside.
                #expect(
                    tombstones.deletions(notCoveredBy: nil) == Self.canonical(model, notCoveredBy: nil), "\(context)")
                var vector = VersionVector()
                for replica in 100..<103 where rng.next() % 2 == 0 {
                    let low = 1 + rng.next() % 6_000
                    vector.insert(low...(low + rng.next() % 3_000), of: ReplicaID(UInt64(replica)))
                }
                #expect(
                    tombstones.deletions(notCoveredBy: vector) == Self.canonical(model, notCoveredBy: vector),
                    "\(context): not covered by \(vector)")
            }
            Self.check(tombstones, against: model, "seed \(seed), end")
        }
    }

    /// Runs of any length cost one entry: a run of 2^61 rows and one of 2^40 overlapping it with smaller
    /// stamps for part of it are merged, looked up and counted without touching each row.
    @Test func hugeRunsCostOneEntryEach() {
        var tombstones = Tombstones()
        let replica = ReplicaID(7)
        let big = DeletionRun(
            replica: replica, first: 1, length: 1 << 61,
            stamp: Stamp(lamport: 1 << 61, dot: Dot(replica: ReplicaID(9), counter: 1)), lamportStep: 0,
            counterStep: 1)
        tombstones.insert(contentsOf: [big])
        // Lamport times falling by one a row from 2^61 + 2^40: below the big run's 2^61 from row 2^40 + 1 on.
        let overlapping = DeletionRun(
            replica: replica, first: 1_000, length: 1 << 41,
            stamp: Stamp(lamport: (1 << 61) + (1 << 40), dot: Dot(replica: ReplicaID(8), counter: 1 << 42)),
            lamportStep: -1, counterStep: 1)
        tombstones.insert(contentsOf: [overlapping])
        #expect(tombstones.count == 1 << 61)
        #expect(tombstones.runs.count <= 4)
        for counter: UInt64 in [1, 999, 1_000, (1 << 40) + 999, (1 << 40) + 1_000, (1 << 40) + 1_001, 1 << 41, 1 << 60]
        {
            let id = RowID(replica: replica, counter: counter)
            let expected = min(
                big.stamp(at: counter - 1),
                overlapping.contains(id) ? overlapping.stamp(at: counter - 1_000) : big.stamp(at: counter - 1))
            #expect(tombstones[id] == expected, "row \(counter)")
        }
        #expect(tombstones[RowID(replica: replica, counter: (1 << 61) + 1)] == nil)
        let out = tombstones.deletions(notCoveredBy: nil)
        #expect(out.reduce(0) { $0 + $1.length } == 1 << 61 && out.count <= 4)
    }
}
