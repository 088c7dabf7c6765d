import ListSync
import TestSupport
import Testing

/// Position keys: ordering, and growth under the common editing patterns.
struct PositionKeyTests {
    @Test func keysCompareLexicographically() {
        let cases: [([UInt8], [UInt8])] = [
            ([1], [2]), ([1], [1, 1]), ([1, 0, 1], [1, 1]), ([0xFF], [0xFF, 0x01]),
            (Array(repeating: 7, count: 16), Array(repeating: 7, count: 17)),
            (Array(repeating: 7, count: 17) + [1], Array(repeating: 7, count: 17) + [2]),
            (Array(repeating: 7, count: 20), Array(repeating: 7, count: 15) + [8]),
        ]
        for (smaller, larger) in cases {
            #expect(PositionKey(smaller) < PositionKey(larger), "\(smaller) < \(larger)")
            #expect(!(PositionKey(larger) < PositionKey(smaller)))
            #expect(PositionKey(smaller).bytes == smaller)
        }
        #expect(PositionKey([3, 4]) == PositionKey([3, 4]))
        #expect(!PositionKey.isValid([]) && !PositionKey.isValid([1, 0]) && PositionKey.isValid([0, 1]))
    }

    /// Keys of every length around the inline words (8, 16, 24 bytes) and the heap tail order, compare
    /// equal and round-trip exactly as their byte strings do.
    @Test func keysOfAnyLengthMatchTheirBytes() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let a = randomKeyBytes(distinctBytes: 3, using: &generator)
            let b = randomKeyBytes(distinctBytes: 3, using: &generator)
            #expect((PositionKey(a) < PositionKey(b)) == a.lexicographicallyPrecedes(b), "\(a) < \(b)")
            #expect((PositionKey(a) == PositionKey(b)) == (a == b), "\(a) == \(b)")
            #expect(PositionKey(a).bytes == a && PositionKey(a).count == a.count)
        }
    }

    /// A writer who fixes a typo a few rows back and carries on where they were continues the run they
    /// were typing (forward at the end, backward at the top): the next key is the run's next one, as long
    /// as the last, instead of a new run nested one level deeper.
    @Test func carryingOnAfterAnEditElsewhereContinuesTheRun() {
        let list = ReplicatedList<String>(replicaID: ReplicaID(42))
        list.append(contentsOf: ["t", "y", "p", "e", "d"])
        for _ in 0..<3 { list.append("x") }
        let last = list.positionKey(at: list.count - 1)
        list.insert("fix", at: 2)
        list.append("more")
        let next = list.positionKey(at: list.count - 1)
        #expect(last < next)
        #expect(
            next.count == last.count && Array(next.bytes.dropLast()) == Array(last.bytes.dropLast()),
            "\(last) then \(next)")

        for _ in 0..<3 { list.insert("top", at: 0) }
        let first = list.positionKey(at: 0)
        list.insert("fix", at: 4)
        list.insert("top", at: 0)
        let before = list.positionKey(at: 0)
        #expect(before < first)
        #expect(
            before.count == first.count && Array(before.bytes.dropLast()) == Array(first.bytes.dropLast()),
            "\(before) then \(first)")
        list._checkInvariants()
    }

    enum Pattern: String, CaseIterable {
        case append, prepend, afterFirst, beforeLast, random, dragToTop, randomMove
    }

    /// Operations of each pattern (20,000 in `swift test`, 100,000 in the long run, ``RunSize``;
    /// `LISTSYNC_KEY_OPERATIONS=N` sets them) keep keys strictly ordered and unique; prints the lengths.
    @Test(arguments: Pattern.allCases)
    func keysStayOrderedAndShort(pattern: Pattern) {
        let list = ReplicatedList<String>(replicaID: ReplicaID(42))
        var generator = SplitMix64(seed: 42)
        let operations = RunSize.count("LISTSYNC_KEY_OPERATIONS", quick: 20_000, long: 100_000)
        if pattern == .dragToTop || pattern == .randomMove {
            list.append(contentsOf: (0..<1_000).map { "r\($0)" })
        } else {
            list.append("r")
        }
        for step in 0..<operations {
            switch pattern {
            case .append: list.append("\(step)")
            case .prepend: list.insert("\(step)", at: 0)
            case .afterFirst: list.insert("\(step)", at: 1)
            case .beforeLast: list.insert("\(step)", at: list.count - 1)
            case .random: list.insert("\(step)", at: Int.random(in: 0...list.count, using: &generator))
            case .dragToTop: list.move(fromOffsets: [list.count - 1], toOffset: 0)
            case .randomMove:
                list.move(
                    fromOffsets: [Int.random(in: 0..<list.count, using: &generator)],
                    toOffset: Int.random(in: 0...list.count, using: &generator))
            }
        }
        var previous: PositionKey?
        var total = 0
        var longest = 0
        for index in 0..<list.count {
            let key = list.positionKey(at: index)
            if let previous { #expect(previous < key, "keys not strictly increasing at \(index)") }
            previous = key
            let length = list.storedPositionKeyLength(at: index)
            total += length
            longest = max(longest, length)
        }
        list._checkInvariants()
        let average = Double(total) / Double(list.count)
        print(
            "position keys \(pattern.rawValue): average \(average) bytes, maximum \(longest) bytes over \(list.count) rows"
        )
        #expect(longest <= 64, "keys grow too fast")
    }
}

/// The bytes of a random valid key, 1 to 40 long, made of the `distinctBytes` smallest byte values (few
/// distinct bytes, so long shared prefixes and ties in the inline words and the tail are common).
func randomKeyBytes(distinctBytes: UInt64, using generator: inout SplitMix64) -> [UInt8] {
    let length = Int(generator.next() % 40) + 1
    var bytes = (0..<length).map { _ in UInt8(generator.next() % distinctBytes) }
    bytes[length - 1] = 1 + UInt8(generator.next() % 2)
    return bytes
}
