import ListSync
import Testing

/// `ListChange` keeps a batch of one change inline and larger batches in shared lists: its lists,
/// equality, hashing and printing must not depend on which, and editing a copy must leave the
/// original as it was.
struct ListChangeTests {
    /// A random batch of up to two entries per list, made through the initializer.
    static func randomBatch(using generator: inout SplitMix64) -> ListChange {
        func list() -> CompactArray<Int> {
            CompactArray(
                (0..<Int.random(in: 0...2, using: &generator)).map { _ in Int.random(in: 0..<4, using: &generator) })
        }
        let moves = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            ListChange.Move(
                from: Int.random(in: 0..<4, using: &generator), to: Int.random(in: 0..<4, using: &generator))
        }
        return ListChange(removed: list(), inserted: list(), moved: CompactArray(moves), updated: list())
    }

    @Test(arguments: [1, 2, 3])
    func editsMatchPlainLists(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var change = ListChange()
        var reference: (removed: [Int], inserted: [Int], moved: [ListChange.Move], updated: [Int]) = ([], [], [], [])
        for step in 0..<5_000 {
            let value = Int.random(in: 0..<4, using: &generator)
            let before = change
            let beforeDescription = change.description
            switch Int.random(in: 0..<7, using: &generator) {
            case 0:
                change.removed.append(value)
                reference.removed.append(value)
            case 1:
                change.inserted.append(value)
                reference.inserted.append(value)
            case 2:
                change.moved.append(ListChange.Move(from: value, to: value + 1))
                reference.moved.append(ListChange.Move(from: value, to: value + 1))
            case 3:
                change.updated = [value]
                reference.updated = [value]
            case 4:
                change.removed.removeAll()
                change.moved.removeAll()
                reference.removed.removeAll()
                reference.moved.removeAll()
            case 5:
                change.inserted.removeAll()
                change.updated.removeAll()
                reference.inserted.removeAll()
                reference.updated.removeAll()
            default:
                change = Self.randomBatch(using: &generator)
                reference = (Array(change.removed), Array(change.inserted), Array(change.moved), Array(change.updated))
            }
            // The copy taken before the edit is unchanged: lists shared by copies are copied before an edit.
            #expect(before.description == beforeDescription, "step \(step)")
            #expect(Array(change.removed) == reference.removed && Array(change.inserted) == reference.inserted)
            #expect(Array(change.moved) == reference.moved && Array(change.updated) == reference.updated)
            let rebuilt = ListChange(
                removed: CompactArray(reference.removed), inserted: CompactArray(reference.inserted),
                moved: CompactArray(reference.moved), updated: CompactArray(reference.updated))
            #expect(change == rebuilt && change.hashValue == rebuilt.hashValue, "step \(step)")
            #expect(change.description == rebuilt.description && change.isEmpty == rebuilt.isEmpty, "step \(step)")
        }
    }

    @Test func oneChangeIsTheSameHoweverItWasMade() {
        var edited = ListChange(inserted: [3, 4])
        edited.inserted.removeLast()
        var appended = ListChange()
        appended.inserted.append(3)
        let made = [ListChange(inserted: [3]), ListChange(inserted: CompactArray(3..<4)), edited, appended]
        for change in made {
            #expect(change == made[0] && change.hashValue == made[0].hashValue)
            #expect(change.inserted == [3] && change.removed.isEmpty && !change.isEmpty)
            #expect(change.description == "-[] +[3] ~[] *[]")
        }
        #expect(ListChange(inserted: [3]) != ListChange(removed: [3]))
        #expect(ListChange(inserted: [3]) != ListChange(inserted: [3], updated: [3]))
        #expect(ListChange(updated: [3]) != ListChange())
    }
}
