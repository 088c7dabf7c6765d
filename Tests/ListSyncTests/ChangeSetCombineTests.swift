import Foundation
import ListSync
import TestSupport
import Testing

/// `ChangeSet(combining:)` against merging the change sets one by one: randomized and seeded.
/// 16 seeds in `swift test`, 3,000 in the long run (``RunSize``); `LISTSYNC_COMBINE_SEEDS=N` runs N
/// seeds; `LISTSYNC_COMBINE_SEED=S` replays one.
struct ChangeSetCombineTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds: [UInt64] =
        environment["LISTSYNC_COMBINE_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_COMBINE_SEEDS", quick: 16, long: 3_000, from: 0xC0_4B1E))

    /// Three replicas edit at random and now and then sync; every delta one sends is recorded.
    static func history(seed: UInt64) throws -> (base: [UInt8], deltas: [ChangeSet]) {
        var rng = SplitMix64(seed: seed)
        let replicas = (1...3).map { ReplicatedList<String>(replicaID: ReplicaID(UInt64($0))) }
        var sent = replicas.map { _ in VersionVector() }
        var deltas: [ChangeSet] = []
        var base: [UInt8] = ReplicatedList<String>().snapshot()
        for step in 0..<Int(60 + rng.next() % 200) {
            let index = Int(rng.next() % 3)
            let list = replicas[index]
            let choice = rng.next() % 10
            if list.isEmpty || choice < 3 {
                list.insert("v\(step)", at: Int(rng.next() % UInt64(list.count + 1)))
            } else if choice < 6 {
                let offsets = rng.offsets(in: list.count, maximum: 3)
                list.move(fromOffsets: offsets, toOffset: Int(rng.next() % UInt64(list.count + 1)))
            } else if choice < 8 {
                list.updateValue("e\(step)", at: Int(rng.next() % UInt64(list.count)))
            } else if choice < 9 {
                list.remove(at: Int(rng.next() % UInt64(list.count)))
            } else {
                let other = replicas[Int(rng.next() % 3)]
                try other.merge(list.changes(since: other.versionVector))
            }
            deltas.append(list.changes(since: sent[index]))
            sent[index] = list.versionVector
            if step == 20 { base = replicas[0].snapshot() }
        }
        return (base, deltas.filter { !$0.isEmpty })
    }

    /// Rows, tombstones, version vector and visible order of `list`.
    static func state(_ list: ReplicatedList<String>) -> (ChangeSet, [String], VersionVector) {
        (list.changes(since: VersionVector()), list.map(\.value), list.versionVector)
    }

    @Test func combiningEqualsMergingOneByOne() throws {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "ChangeSetCombineTests",
                replay: "LISTSYNC_COMBINE_SEED=\(seed) swift test --filter combiningEqualsMergingOneByOne")
            var rng = SplitMix64(seed: seed ^ 0x5EED)
            let (base, deltas) = try Self.history(seed: seed)
            var order = deltas
            if rng.next() % 2 == 0 { order.shuffle(using: &rng) }
            for start in [ReplicatedList<String>(), try ReplicatedList<String>(snapshot: base)] {
                let snapshot = start.snapshot()
                let oneByOne = try ReplicatedList<String>(snapshot: snapshot)
                for changes in order { try oneByOne.merge(changes) }
                let combined = try ReplicatedList<String>(snapshot: snapshot)
                let together = ChangeSet(combining: order)
                try combined.merge(together)
                combined._checkInvariants()
                let (expected, combinedState) = (Self.state(oneByOne), Self.state(combined))
                #expect(expected.0 == combinedState.0, "seed \(seed): rows or tombstones differ")
                #expect(expected.1 == combinedState.1, "seed \(seed): visible order differs")
                #expect(expected.2 == combinedState.2, "seed \(seed): version vectors differ")
                #expect(try ChangeSet(decoding: together.encoded()) == together, "seed \(seed): round trip")
            }
        }
    }

    @Test func combiningNothingIsEmptyAndOneIsItself() throws {
        #expect(ChangeSet(combining: []).isEmpty)
        let (_, deltas) = try Self.history(seed: 1)
        let first = try #require(deltas.first)
        #expect(ChangeSet(combining: [first]) == first)
        #expect(ChangeSet(combining: [first, first]) == first)
    }
}
