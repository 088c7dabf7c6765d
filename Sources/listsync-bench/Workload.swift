import Foundation
import ListSync

/// One row operation of a workload, in the index conventions of `../shared/anchors/anchor_bench.py`.
enum RowOperation<Value: Codable & Sendable & Equatable> {
    /// Insert `values` as a block at `index`.
    case insert(index: Int, values: [Value])
    /// Delete `count` rows starting at `index`.
    case delete(index: Int, count: Int)
    /// `value = remove(at: from); insert(value, at: to)`: `to` indexes the list after the removal.
    case move(from: Int, to: Int)
    /// Move rows `start..<start+count` so they start at `destination` of the list after their removal.
    case blockMove(start: Int, count: Int, destination: Int)
    /// Replace the value at `index`.
    case update(index: Int, value: Value)

    /// The number of rows the operation touches.
    var rowCount: Int {
        switch self {
        case .insert(_, let values): values.count
        case .delete(_, let count), .blockMove(_, let count, _): count
        case .move, .update: 1
        }
    }

    /// Applies the operation to a replica as one local change.
    func apply(to list: ReplicatedList<Value>) {
        switch self {
        case .insert(let index, let values):
            if values.count == 1 {
                list.insert(values[0], at: index)
            } else {
                list.insert(contentsOf: values, at: index)
            }
        case .delete(let index, let count):
            if count == 1 {
                list.remove(at: index)
            } else {
                list.remove(atOffsets: IndexSet(integersIn: index..<(index + count)))
            }
        case .move(let from, let to):
            list.move(from: from, to: to)
        case .blockMove(let start, let count, let destination):
            list.move(
                fromOffsets: IndexSet(integersIn: start..<(start + count)),
                toOffset: destination >= start ? destination + count : destination)
        case .update(let index, let value):
            list.updateValue(value, at: index)
        }
    }

    /// Applies the operation to a plain array: the reference.
    func apply(to array: inout [Value]) {
        switch self {
        case .insert(let index, let values): array.insert(contentsOf: values, at: index)
        case .delete(let index, let count): array.removeSubrange(index..<(index + count))
        case .move(let from, let to): array.insert(array.remove(at: from), at: to)
        case .blockMove(let start, let count, let destination):
            let block = array[start..<(start + count)]
            array.removeSubrange(start..<(start + count))
            array.insert(contentsOf: block, at: destination)
        case .update(let index, let value): array[index] = value
        }
    }
}

/// A workload: rows present before timing, then one local transaction per operation.
struct Workload<Value: Codable & Sendable & Equatable> {
    var base: [Value] = []
    var operations: [RowOperation<Value>] = []
    /// The expected final rows, when known without replaying (a trace's end content).
    var expected: [Value]?

    /// Row operations in total.
    var rowOperationCount: Int { operations.reduce(0) { $0 + $1.rowCount } }

    /// The final rows, from `expected` or by replaying on a plain array.
    func referenceResult() -> [Value] {
        if let expected { return expected }
        var array = base
        for operation in operations { operation.apply(to: &array) }
        return array
    }
}

/// The synthetic workloads of `../shared/anchors/anchor_bench.py`, on integer rows.
extension Workload where Value == Int {
    static func append(_ count: Int) -> Workload {
        Workload(operations: (0..<count).map { .insert(index: $0, values: [$0]) })
    }

    static func randomInsert(_ count: Int, using generator: inout SplitMix64) -> Workload {
        Workload(
            operations: (0..<count).map {
                .insert(index: Int.random(in: 0...$0, using: &generator), values: [$0])
            })
    }

    static func randomMove(_ count: Int, using generator: inout SplitMix64) -> Workload {
        Workload(
            base: Array(0..<count),
            operations: (0..<count).map { _ in
                .move(
                    from: Int.random(in: 0..<count, using: &generator), to: Int.random(in: 0..<count, using: &generator)
                )
            })
    }

    static func blockMove(_ count: Int, block: Int, using generator: inout SplitMix64) -> Workload {
        Workload(
            base: Array(0..<count),
            operations: (0..<(count / block)).map { _ in
                .blockMove(
                    start: Int.random(in: 0...(count - block), using: &generator), count: block,
                    destination: Int.random(in: 0...(count - block), using: &generator))
            })
    }

    static func randomUpdate(_ count: Int, using generator: inout SplitMix64) -> Workload {
        Workload(
            base: Array(0..<count),
            operations: (0..<count).map {
                .update(index: Int.random(in: 0..<count, using: &generator), value: count + $0)
            })
    }

}
