import Foundation
import ListSync
import TestSupport
import Testing

/// Runs of several replicas allocated concurrently into one gap never interleave, whatever the replica
/// IDs, the runs' kinds and lengths, and the order, duplication and routing of the change sets that
/// carry them (DESIGN.md; the rule is in Protocol.md section 1). 64 seeds in `swift test`, 4,000 in the
/// long run (``RunSize``); `LISTSYNC_INTERLEAVE_SEEDS=N` runs N; `LISTSYNC_INTERLEAVE_SEED=S` replays one.
/// Each seed is announced on standard error before it runs.
struct NonInterleavingTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seedCount = RunSize.count("LISTSYNC_INTERLEAVE_SEEDS", quick: 64, long: 4_000)

    /// How a replica fills the gap.
    enum Fill: CaseIterable {
        /// Typing: each row right after the previous one.
        case forward
        /// Each row at the same index, before the previous one.
        case backward
        /// One dropped block.
        case block
        /// A block, then typing after its last row.
        case blockThenForward
    }

    /// One seed: 2 to 6 replicas with random IDs (some adjacent, so that labels nest) share a list of
    /// 1 to 6 rows and each fills the same gap with a run of 1 to 40 rows, one change set per insert;
    /// every replica then receives every other's change sets, some twice, in a random order, and the
    /// first hears everything again through the last one's state; all converge, and each run stands
    /// contiguous and in order.
    static func run(seed: UInt64) throws {
        announceSeed(
            seed, of: "non-interleaving",
            replay: "LISTSYNC_INTERLEAVE_SEED=\(seed) swift test --filter replayInterleavingSeed")
        var generator = SplitMix64(seed: seed)
        let replicaCount = Int(generator.next() % 5) + 2
        let base = generator.next() >> 1
        let ids = (0..<replicaCount).map { _ in
            ReplicaID(Bool.random(using: &generator) ? base + generator.next() % 8 + 1 : generator.next() | 1)
        }
        guard Set(ids).count == ids.count else { return }
        let lists = ids.map { ReplicatedList<Int>(replicaID: $0) }
        let baseCount = Int(generator.next() % 6) + 1
        lists[0].append(contentsOf: (0..<baseCount).map { -1 - $0 })
        for list in lists.dropFirst() { try list.merge(lists[0].changes(since: VersionVector())) }
        let gap = Int(generator.next() % UInt64(baseCount + 1))
        var runs: [[Int]] = []
        var sent: [(from: Int, changes: ChangeSet)] = []
        for (index, list) in lists.enumerated() {
            let run = Array((index * 1000)..<(index * 1000 + Int(generator.next() % 40) + 1))
            runs.append(run)
            var vector = list.versionVector
            func send() {
                sent.append((index, list.changes(since: vector)))
                vector = list.versionVector
            }
            switch Fill.allCases.randomElement(using: &generator)! {
            case .forward:
                for (offset, value) in run.enumerated() {
                    list.insert(value, at: gap + offset)
                    send()
                }
            case .backward:
                for value in run.reversed() {
                    list.insert(value, at: gap)
                    send()
                }
            case .block:
                list.insert(contentsOf: run, at: gap)
                send()
            case .blockThenForward:
                let head = (run.count + 1) / 2
                list.insert(contentsOf: run[..<head], at: gap)
                send()
                for (offset, value) in run[head...].enumerated() {
                    list.insert(value, at: gap + head + offset)
                    send()
                }
            }
        }
        for (index, list) in lists.enumerated() {
            var deliveries = sent.filter { $0.from != index }.map(\.changes)
            deliveries += deliveries.filter { _ in generator.next() % 4 == 0 }  // duplicates
            deliveries.shuffle(using: &generator)
            for changes in deliveries { try list.merge(changes) }
        }
        // A relay: the first replica hears everything again from the last one's state.
        try lists[0].merge(lists[replicaCount - 1].changes(since: VersionVector()))
        let rows = lists[0].map(\.value)
        for list in lists {
            list._checkInvariants()
            #expect(list.map(\.value) == rows, "seed \(seed): replicas differ")
        }
        for run in runs {
            let members = Set(run)
            #expect(rows.filter { members.contains($0) } == run, "seed \(seed): run \(run.first!) out of order")
            let positions = rows.indices.filter { members.contains(rows[$0]) }
            #expect(
                positions.last! - positions.first! == run.count - 1,
                "seed \(seed): run \(run.first!) interleaved in \(rows)")
        }
        #expect(rows.filter { $0 < 0 } == (0..<baseCount).map { -1 - $0 }, "seed \(seed): the shared rows moved")
    }

    @Test(arguments: 0..<2)
    func concurrentRunsIntoOneGapNeverInterleave(half: Int) throws {
        for seed in stride(from: half, to: Self.seedCount, by: 2) { try Self.run(seed: UInt64(seed)) }
    }

    /// Replays `LISTSYNC_INTERLEAVE_SEED` (default 17).
    @Test func replayInterleavingSeed() throws {
        try Self.run(seed: Self.environment["LISTSYNC_INTERLEAVE_SEED"].flatMap { UInt64($0) } ?? 17)
    }
}
