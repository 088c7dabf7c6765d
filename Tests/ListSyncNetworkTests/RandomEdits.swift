import Foundation
import ListSync

/// Random local edits for convergence tests: inserts, moves (single and block), deletes and value updates.
enum RandomEdits {
    /// Applies one random edit to `list`, named after `label` so values are unique.
    static func apply(to list: ReplicatedList<String>, label: String, using generator: inout SplitMix64) {
        let count = list.count
        let choice = count < 3 ? 0 : Int.random(in: 0..<10, using: &generator)
        switch choice {
        case 0...3:
            list.insert(label, at: Int.random(in: 0...count, using: &generator))
        case 4...5:
            let source = Int.random(in: 0..<count, using: &generator)
            list.move(fromOffsets: IndexSet(integer: source), toOffset: Int.random(in: 0...count, using: &generator))
        case 6:
            let start = Int.random(in: 0..<count - 1, using: &generator)
            list.move(
                fromOffsets: IndexSet(integersIn: start..<start + 2),
                toOffset: Int.random(in: 0...count, using: &generator))
        case 7:
            list.remove(at: Int.random(in: 0..<count, using: &generator))
        default:
            list.updateValue(label, at: Int.random(in: 0..<count, using: &generator))
        }
    }
}
