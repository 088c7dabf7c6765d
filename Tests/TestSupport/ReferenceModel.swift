import Foundation

/// Moves like SwiftUI's `move(fromOffsets:toOffset:)` on a plain array: the oracle for list moves.
public func referenceMove<T>(_ array: inout [T], fromOffsets source: IndexSet, toOffset destination: Int) {
    let moving = source.map { array[$0] }
    let target = destination - source.count(in: 0..<destination)
    for index in source.reversed() { array.remove(at: index) }
    array.insert(contentsOf: moving, at: target)
}

extension RandomNumberGenerator {
    /// A random subset of `0..<count` with between 1 and `maximum` elements.
    public mutating func offsets(in count: Int, maximum: Int) -> IndexSet {
        var result = IndexSet()
        let size = Int.random(in: 1...max(1, min(maximum, count)), using: &self)
        while result.count < size { result.insert(Int.random(in: 0..<count, using: &self)) }
        return result
    }

    /// `count` contiguous offsets starting at a random place in `0..<total`.
    public mutating func contiguousOffsets(in total: Int, count: Int) -> IndexSet {
        let size = min(count, total)
        let start = Int.random(in: 0...(total - size), using: &self)
        return IndexSet(integersIn: start..<(start + size))
    }
}
