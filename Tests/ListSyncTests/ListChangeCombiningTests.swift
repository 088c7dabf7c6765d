import Foundation
import ListSync
import TestSupport
import Testing

/// `followed(by:)` against the oracle: applying the combined batch to the old rows, as a table view
/// would, gives what applying both in turn gives; `apply(to:inserting:)` agrees with the oracle.
struct ListChangeCombiningTests {
    /// A row of the oracle: where it came from, and a version bumped by every update.
    struct Token: Hashable {
        var id: Int
        var version = 0
    }

    /// A random valid batch for `old` and the rows it leaves (updated rows get a new version); new rows
    /// get IDs from `nextID`.
    static func randomBatch(
        for old: [Token], nextID: inout Int, using generator: inout SplitMix64
    ) -> (change: ListChange, new: [Token]) {
        let shuffled = old.indices.shuffled(using: &generator)
        let removedCount = Int.random(in: 0...(old.count / 3), using: &generator)
        let movedCount = Int.random(in: 0...((old.count - removedCount) / 3), using: &generator)
        let removed = Set(shuffled.prefix(removedCount))
        let moved = Array(shuffled.dropFirst(removedCount).prefix(movedCount))
        let insertedCount = Int.random(in: 0...3, using: &generator)
        let stationary = old.indices.filter { !removed.contains($0) && !moved.contains($0) }
        let newCount = stationary.count + moved.count + insertedCount
        let places = Array((0..<newCount).shuffled(using: &generator).prefix(moved.count + insertedCount))
        var new = [Token?](repeating: nil, count: newCount)
        var moves: [ListChange.Move] = []
        for (source, place) in zip(moved, places) {
            new[place] = old[source]
            moves.append(ListChange.Move(from: source, to: place))
        }
        let insertedPlaces = places.dropFirst(moved.count).sorted()
        for place in insertedPlaces {
            new[place] = Token(id: nextID)
            nextID += 1
        }
        var rest = stationary.makeIterator()
        for index in new.indices where new[index] == nil { new[index] = old[rest.next()!] }
        var updated: [Int] = []
        for index in new.indices where !insertedPlaces.contains(index) && Int.random(in: 0..<5, using: &generator) == 0
        {
            new[index]!.version += 1
            updated.append(index)
        }
        let change = ListChange(
            removed: CompactArray(removed.sorted()), inserted: CompactArray(insertedPlaces),
            moved: CompactArray(moves.sorted { $0.from < $1.from }), updated: CompactArray(updated))
        return (change, new.map { $0! })
    }

    /// `old` after `change` as the table view oracle applies it, with values from `new`.
    static func applied(_ change: ListChange, to old: [Token], new: [Token]) throws -> [Token] {
        var rows = try BatchMirror<Token>.applying(change, to: old) { new[$0] }
        for index in change.updated {
            #expect(rows[index].id == new[index].id, "updated index \(index) holds another row in \(change)")
            rows[index] = new[index]
        }
        return rows
    }

    @Test(arguments: 0..<200)
    func combiningMatchesApplyingInTurn(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var nextID = 0
        var start = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            defer { nextID += 1 }
            return Token(id: nextID)
        }
        for _ in 0..<20 {
            var combined = ListChange()
            var rows = start
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let (change, new) = Self.randomBatch(for: rows, nextID: &nextID, using: &generator)
                #expect(try Self.applied(change, to: rows, new: new) == new, "the generator made a bad batch")
                combined = combined.followed(by: change)
                rows = new
            }
            #expect(try Self.applied(combined, to: start, new: rows) == rows, "seed \(seed): \(combined)")
            #expect(combined.updated.allSatisfy { !combined.inserted.contains($0) }, "an inserted row is updated")
            start = rows
        }
    }

    @Test(arguments: 0..<100)
    func applyAgreesWithTheOracle(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var nextID = 0
        let old = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
            defer { nextID += 1 }
            return Token(id: nextID)
        }
        let (change, new) = Self.randomBatch(for: old, nextID: &nextID, using: &generator)
        var rows = old
        change.apply(to: &rows) { new[$0] }
        let expected = try BatchMirror<Token>.applying(change, to: old) { new[$0] }
        #expect(rows == expected)
    }

    @Test func examples() {
        let append = ListChange(inserted: [3])
        #expect(append.followed(by: ListChange(moved: [.init(from: 3, to: 0)])) == ListChange(inserted: [0]))
        #expect(append.followed(by: ListChange(removed: [3])) == ListChange())
        let move = ListChange(moved: [.init(from: 0, to: 2)])
        #expect(
            move.followed(by: ListChange(moved: [.init(from: 2, to: 1)])) == ListChange(moved: [.init(from: 0, to: 1)]))
        #expect(move.followed(by: ListChange(updated: [2])) == ListChange(moved: [.init(from: 0, to: 2)], updated: [2]))
        #expect(ListChange(combining: []) == ListChange())
        #expect(
            ListChange(updated: [1]).followed(by: ListChange(removed: [0])) == ListChange(removed: [0], updated: [0]))
    }
}
