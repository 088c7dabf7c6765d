import Testing

@testable import ListSync

/// The order index keeps its leaves mostly full under the edits that used to leave them half empty:
/// a run typed in the middle of a list pushes the rows after it along, and each split of a full leaf
/// left half a leaf behind. A full leaf now first gives entries to a neighbour with room.
struct OrderIndexFillTests {
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
