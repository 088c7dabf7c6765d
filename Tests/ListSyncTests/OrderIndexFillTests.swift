import Foundation
import TestSupport
import Testing

@testable import ListSync

/// The order index keeps its leaves mostly full under the edits that used to leave them half empty:
/// a run typed in the middle of a list pushes the rows after it along, and each split of a full leaf
/// left half a leaf behind. A full leaf now first gives entries to a neighbour with room.
struct OrderIndexFillTests {
    /// 2 seeds in `swift test`, 40 in the long run; `LISTSYNC_ORDERINDEX_SEED=S` replays one.
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["LISTSYNC_ORDERINDEX_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_ORDERINDEX_SEEDS", quick: 2, long: 40, from: 0x0DE1))

    /// Two replicas of 3,000 rows, many leaves, edit them as people do (typing forward and backward at
    /// a cursor, jumps, deletes, dropped blocks, dragged blocks) and merge each other's changes, which
    /// places rows by key through the bounds that entries moved between leaves change. After each
    /// round both indexes are well formed (every bound below its leaf's entries and above the leaf
    /// before) and the replicas hold the same rows in the same order.
    @Test func editedAndMergedLargeListsStayInOneOrder() throws {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "OrderIndexFillTests",
                replay: "LISTSYNC_ORDERINDEX_SEED=\(seed) swift test --filter editedAndMergedLargeListsStayInOneOrder")
            var rng = SplitMix64(seed: seed)
            let (a, b) = (ReplicatedList<Int>(replicaID: ReplicaID(1)), ReplicatedList<Int>(replicaID: ReplicaID(2)))
            a.append(contentsOf: 0..<3_000)
            try b.merge(a.changes(since: VersionVector()))
            var next = 10_000
            for round in 0..<6 {
                for list in [a, b] {
                    var cursor = Int.random(in: 0...list.count, using: &rng)
                    for _ in 0..<700 {
                        cursor = min(cursor, list.count)
                        switch Int.random(in: 0..<12, using: &rng) {
                        case 0..<5:
                            list.insert(next, at: cursor)
                            cursor += 1
                        case 5, 6:
                            list.insert(next, at: cursor)
                        case 7:
                            cursor = Int.random(in: 0...list.count, using: &rng)
                        case 8 where list.count > 0:
                            list.remove(at: Int.random(in: 0..<list.count, using: &rng))
                        case 9:
                            let block = (0..<Int.random(in: 1...30, using: &rng)).map { next + 1 + $0 }
                            list.insert(contentsOf: block, at: Int.random(in: 0...list.count, using: &rng))
                            next += block.count
                        default:
                            let start = Int.random(in: 0..<list.count, using: &rng)
                            let end = min(list.count, start + Int.random(in: 1...10, using: &rng))
                            list.move(
                                fromOffsets: IndexSet(start..<end),
                                toOffset: Int.random(in: 0...list.count, using: &rng))
                        }
                        next += 1
                    }
                    list._checkInvariants()
                }
                try a.merge(b.changes(since: a.versionVector))
                try b.merge(a.changes(since: b.versionVector))
                a._checkInvariants()
                b._checkInvariants()
                #expect(a.map(\.id) == b.map(\.id), "seed \(seed), round \(round)")
            }
        }
    }

    /// Runs typed at a cursor in the middle of 1,000 rows: forward (typing), backward (inserting at one
    /// place again and again) and in words with a backspace now and then. The leaves end at least
    /// three quarters full on average (about half before), and the index stays well formed, with the
    /// rows in the order of the plain array that took the same inserts.
    @Test(arguments: ["forward", "backward", "words"])
    func runsInTheMiddleLeaveFullLeaves(pattern: String) {
        let list = ReplicatedList<Int>(replicaID: ReplicaID(1))
        list.append(contentsOf: 0..<1_000)
        var expected = Array(0..<1_000)
        var cursor = 500
        for step in 0..<20_000 {
            let value = 1_000 + step
            list.insert(value, at: cursor)
            expected.insert(value, at: cursor)
            switch pattern {
            case "forward": cursor += 1
            case "backward": break
            default:
                if step % 7 == 6 {
                    list.remove(at: cursor)
                    expected.remove(at: cursor)
                } else {
                    cursor += 1
                }
            }
        }
        list.core.checkInvariants()
        #expect(Array(list).map(\.value) == expected)
        let order = list.core.order
        #expect(
            order.leafCount * OrderIndex.leafCapacity * 3 / 4 <= order.count,
            "\(order.leafCount) leaves for \(order.count) entries")
    }
}
