import ListSync
import Testing

/// `CompactArray` against `Array`: random edits keep the same elements, and equality, hashing and
/// printing do not depend on whether one element is kept inline or in an array.
struct CompactArrayTests {
    @Test(arguments: [1, 2, 3])
    func matchesAnArray(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var compact = CompactArray<Int>()
        var reference: [Int] = []
        for step in 0..<20_000 {
            let value = Int.random(in: 0..<100, using: &generator)
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1:
                compact.append(value)
                reference.append(value)
            case 2 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &generator)
                #expect(compact.remove(at: index) == reference.remove(at: index), "step \(step)")
            case 3:
                let index = Int.random(in: 0...reference.count, using: &generator)
                compact.insert(value, at: index)
                reference.insert(value, at: index)
            case 4 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &generator)
                compact[index] = value
                reference[index] = value
            case 5:
                compact.sort(by: >)
                reference.sort(by: >)
            case 6:
                // Shrink often, so one-element arrays are made in every way.
                let kept = Int.random(in: 0...min(reference.count, 2), using: &generator)
                compact.removeLast(compact.count - kept)
                reference.removeLast(reference.count - kept)
            default:
                let elements = (0..<Int.random(in: 0...2, using: &generator)).map { _ in value }
                compact = CompactArray(elements)
                reference = elements
            }
            #expect(Array(compact) == reference, "step \(step)")
            #expect(compact.count == reference.count && compact.isEmpty == reference.isEmpty, "step \(step)")
            let rebuilt = CompactArray(reference)
            #expect(compact == rebuilt && compact.hashValue == rebuilt.hashValue, "step \(step)")
            #expect(compact.description == reference.description, "step \(step)")
        }
    }

    @Test func oneElementIsTheSameHoweverItWasMade() {
        var shrunk: CompactArray = [4, 5]
        shrunk.removeLast()
        let made = [CompactArray(single: 4), [4], CompactArray(4..<5), CompactArray([4]), shrunk]
        for array in made {
            #expect(array == made[0] && array.hashValue == made[0].hashValue)
            #expect(Array(array) == [4] && array.first == 4 && array.description == "[4]")
        }
        #expect(CompactArray(single: 4) != [4, 4] && CompactArray<Int>() != [4])
    }

    @Test func readsThroughContiguousStorage() {
        for array: CompactArray<Int> in [[], [7], [7, 8, 9]] {
            let sum = array.withContiguousStorageIfAvailable { $0.reduce(0, +) }
            #expect(sum == array.reduce(0, +))
        }
    }
}
