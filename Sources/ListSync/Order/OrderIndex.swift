/// The visible rows in order: a counted B+-tree of row slots, with O(log n) access by index and by
/// (key, row ID).
///
/// Leaves hold slots (indexes into the replica's row table); internal nodes hold subtree sizes and,
/// for every child but the first, a lower bound of the child's entries, used to search by key. Bounds
/// stay valid when entries are removed, and inserting by index keeps them valid by lowering the bound
/// of a child whose first entry changes.
@usableFromInline
struct OrderIndex {
    /// The ordering of an entry: its position key, then its row ID as the tie-break.
    struct Bound {
        var key: PositionKey
        var id: RowID

        @inline(__always)
        static func < (lhs: Bound, rhs: Bound) -> Bool {
            lhs.key < rhs.key || (lhs.key == rhs.key && lhs.id < rhs.id)
        }
    }

    /// A node; leaves use `slots`, internal nodes the other arrays.
    final class Node {
        var slots: ContiguousArray<Int32> = []
        var children: ContiguousArray<Node> = []
        var counts: ContiguousArray<Int> = []
        var bounds: ContiguousArray<Bound> = []
        var total = 0
        let isLeaf: Bool

        init(isLeaf: Bool) { self.isLeaf = isLeaf }
    }

    static let leafCapacity = 64
    static let branchCapacity = 32

    private(set) var root = Node(isLeaf: true)

    /// An empty index.
    init() {}

    /// An index of `slots`, which are sorted by (key, ID), built bottom-up with full nodes.
    /// - Complexity: O(n)
    init(sorted slots: [Int32], rows: borrowing RowTable) {
        guard !slots.isEmpty else { return }
        var level: [(Node, Bound)] = stride(from: 0, to: slots.count, by: Self.leafCapacity).map { start in
            let leaf = Node(isLeaf: true)
            leaf.slots.append(contentsOf: slots[start..<min(start + Self.leafCapacity, slots.count)])
            leaf.total = leaf.slots.count
            return (leaf, rows.bound(of: leaf.slots[0]))
        }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: Self.branchCapacity).map { start in
                let node = Node(isLeaf: false)
                for (child, bound) in level[start..<min(start + Self.branchCapacity, level.count)] {
                    node.children.append(child)
                    node.counts.append(child.total)
                    node.bounds.append(bound)
                    node.total += child.total
                }
                return (node, node.bounds[0])
            }
        }
        root = level[0].0
    }

    /// The number of entries.
    @usableFromInline var count: Int { root.total }

    /// The slot at `index`.
    /// - Complexity: O(log n)
    @usableFromInline func slot(at index: Int) -> Int32 {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        var node = root
        var local = index
        while !node.isLeaf {
            var child = 0
            while local >= node.counts[child] {
                local -= node.counts[child]
                child += 1
            }
            node = node.children[child]
        }
        return node.slots[local]
    }

    /// Inserts `slot` at `index`; `bound` is its (key, ID).
    /// - Complexity: O(log n)
    mutating func insert(_ slot: Int32, bound: Bound, at index: Int, rows: borrowing RowTable) {
        precondition(index >= 0 && index <= count, "index \(index) out of range 0...\(count)")
        if let (right, rightBound) = Self.insert(slot, bound: bound, at: index, into: root, rows: rows) {
            let newRoot = Node(isLeaf: false)
            newRoot.children = [root, right]
            newRoot.counts = [root.total, right.total]
            newRoot.bounds = [rightBound, rightBound]
            newRoot.total = root.total + right.total
            root = newRoot
        }
    }

    /// Inserts into `node`'s subtree; returns the new right sibling and its bound when `node` split.
    private static func insert(
        _ slot: Int32, bound: Bound, at index: Int, into node: Node, rows: borrowing RowTable
    ) -> (Node, Bound)? {
        node.total += 1
        if node.isLeaf {
            node.slots.insert(slot, at: index)
            guard node.slots.count > leafCapacity else { return nil }
            let right = Node(isLeaf: true)
            let middle = node.slots.count / 2
            right.slots.append(contentsOf: node.slots[middle...])
            node.slots.removeSubrange(middle...)
            right.total = right.slots.count
            node.total = node.slots.count
            return (right, rows.bound(of: right.slots[0]))
        }
        var child = 0
        var local = index
        while child < node.children.count - 1 && local >= node.counts[child] {
            local -= node.counts[child]
            child += 1
        }
        if local == 0 && child > 0 { node.bounds[child] = bound }
        node.counts[child] += 1
        if let (right, rightBound) = insert(slot, bound: bound, at: local, into: node.children[child], rows: rows) {
            node.counts[child] = node.children[child].total
            node.children.insert(right, at: child + 1)
            node.counts.insert(right.total, at: child + 1)
            node.bounds.insert(rightBound, at: child + 1)
        }
        guard node.children.count > branchCapacity else { return nil }
        let right = Node(isLeaf: false)
        let middle = node.children.count / 2
        right.children.append(contentsOf: node.children[middle...])
        right.counts.append(contentsOf: node.counts[middle...])
        right.bounds.append(contentsOf: node.bounds[middle...])
        node.children.removeSubrange(middle...)
        node.counts.removeSubrange(middle...)
        node.bounds.removeSubrange(middle...)
        right.total = right.counts.reduce(0, +)
        node.total -= right.total
        return (right, right.bounds[0])
    }

    /// Removes and returns the slot at `index`.
    /// - Complexity: O(log n)
    @discardableResult
    mutating func remove(at index: Int) -> Int32 {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        let slot = Self.remove(at: index, from: root)
        while !root.isLeaf && root.children.count <= 1 {
            root = root.children.first ?? Node(isLeaf: true)
        }
        return slot
    }

    private static func remove(at index: Int, from node: Node) -> Int32 {
        node.total -= 1
        if node.isLeaf { return node.slots.remove(at: index) }
        var child = 0
        var local = index
        while local >= node.counts[child] {
            local -= node.counts[child]
            child += 1
        }
        let slot = remove(at: local, from: node.children[child])
        node.counts[child] -= 1
        if node.counts[child] == 0 {
            node.children.remove(at: child)
            node.counts.remove(at: child)
            node.bounds.remove(at: child)
        } else {
            mergeIfSparse(node, child: child)
        }
        return slot
    }

    /// Joins a small child with its right (or left) neighbour when both fit in one node.
    private static func mergeIfSparse(_ node: Node, child: Int) {
        let capacity = node.children[child].isLeaf ? leafCapacity : branchCapacity
        func width(_ index: Int) -> Int {
            let child = node.children[index]
            return child.isLeaf ? child.slots.count : child.children.count
        }
        guard width(child) < capacity / 4 else { return }
        let left = child + 1 < node.children.count ? child : child - 1
        guard left >= 0, width(left) + width(left + 1) <= capacity / 2 else { return }
        let target = node.children[left]
        let source = node.children[left + 1]
        if target.isLeaf {
            target.slots.append(contentsOf: source.slots)
        } else {
            target.children.append(contentsOf: source.children)
            target.counts.append(contentsOf: source.counts)
            // The first bound of `source` becomes the bound of its first child inside `target`.
            target.bounds.append(node.bounds[left + 1])
            target.bounds.append(contentsOf: source.bounds.dropFirst())
        }
        target.total += source.total
        node.counts[left] = target.total
        node.children.remove(at: left + 1)
        node.counts.remove(at: left + 1)
        node.bounds.remove(at: left + 1)
    }

    /// The index of the first entry not less than `probe` (`count` when every entry is less).
    /// - Complexity: O(log n)
    func lowerBound(_ probe: Bound, rows: borrowing RowTable) -> Int {
        var node = root
        var base = 0
        while !node.isLeaf {
            // The last child whose bound is <= probe holds the answer, or it is the start of the next child.
            var low = 1
            var high = node.children.count
            while low < high {
                let middle = (low + high) / 2
                if probe < node.bounds[middle] { high = middle } else { low = middle + 1 }
            }
            let child = low - 1
            for index in 0..<child { base += node.counts[index] }
            node = node.children[child]
        }
        var low = 0
        var high = node.slots.count
        while low < high {
            let middle = (low + high) / 2
            if rows.bound(of: node.slots[middle]) < probe { low = middle + 1 } else { high = middle }
        }
        return base + low
    }

    /// Calls `body` with every slot in order.
    /// - Complexity: O(n)
    func forEachInOrder(_ body: (Int32) throws -> Void) rethrows {
        try Self.forEachInOrder(in: root, body)
    }

    private static func forEachInOrder(in node: Node, _ body: (Int32) throws -> Void) rethrows {
        if node.isLeaf {
            for slot in node.slots { try body(slot) }
        } else {
            for child in node.children { try forEachInOrder(in: child, body) }
        }
    }

    /// Checks subtree sizes and that every bound is a lower bound of its child and above its left sibling.
    func checkStructure(rows: borrowing RowTable) {
        _ = Self.check(root, lower: nil, upper: nil, rows: rows)
    }

    @discardableResult
    private static func check(_ node: Node, lower: Bound?, upper: Bound?, rows: borrowing RowTable) -> Int {
        if node.isLeaf {
            precondition(node.total == node.slots.count, "leaf total")
            for slot in node.slots {
                let bound = rows.bound(of: slot)
                if let lower { precondition(!(bound < lower), "entry below its bound") }
                if let upper { precondition(bound < upper, "entry above the next bound") }
            }
            return node.total
        }
        precondition(!node.children.isEmpty, "empty internal node")
        precondition(node.children.count == node.counts.count && node.children.count == node.bounds.count)
        var total = 0
        for (index, child) in node.children.enumerated() {
            let childLower = index == 0 ? lower : node.bounds[index]
            let childUpper = index + 1 < node.children.count ? node.bounds[index + 1] : upper
            let size = check(child, lower: childLower, upper: childUpper, rows: rows)
            precondition(size == node.counts[index], "child count")
            total += size
        }
        precondition(total == node.total, "internal total")
        return total
    }
}
