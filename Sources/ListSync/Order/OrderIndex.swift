/// The visible rows (and local placeholders) in order: a counted B+-tree of row slots, with O(log n)
/// access by index and by ``Bound`` (key, then rows before placeholders, then row or placeholder ID).
///
/// Leaves hold slots (indexes into the replica's row table) and each slot's key head
/// (``PositionKey/head``), so that a search or a read of neighbours' keys needs a row's record only when
/// two heads tie or a key is longer than the head; internal nodes hold, per child, its subtree
/// size and (for every child but the first) a lower bound of its entries, used to search by key. Bounds
/// stay valid when entries are removed, and inserting by index keeps them valid by lowering the bound of
/// a child whose first entry changes.
///
/// Nodes live in two arenas of fixed-size blocks (one for leaves, one for internal nodes) addressed by
/// 32-bit node numbers: no object per node, no reference counting, no dynamic exclusivity checks.
@usableFromInline
struct OrderIndex {
    /// The ordering of an entry: its position key, then rows before placeholders, then the row ID or
    /// the placeholder ID as the tie-break. A placeholder never compares equal to a row.
    struct Bound {
        var key: PositionKey
        /// 0 for a row; the placeholder ID for a placeholder (they start at 1).
        var rank: UInt64
        var id: RowID

        /// The bound of a row (`placeholder` nil) or of a placeholder.
        @inline(__always)
        init(key: PositionKey, id: RowID, placeholder: PlaceholderID? = nil) {
            self.key = key
            self.rank = placeholder?.rawValue ?? 0
            self.id = id
        }

        @inline(__always)
        static func < (lhs: Bound, rhs: Bound) -> Bool {
            lhs.key < rhs.key || (lhs.key == rhs.key && (lhs.rank, lhs.id) < (rhs.rank, rhs.id))
        }
    }

    @usableFromInline static let leafCapacity = 64
    static let branchCapacity = 32

    /// Leaf blocks: `leafCapacity` slots per leaf, of which `leafWidths[leaf]` are used.
    @usableFromInline private(set) var leafSlots: ContiguousArray<Int32> = []
    /// The key head of each entry in `leafSlots`, at the same position.
    private var leafHeads: ContiguousArray<UInt64> = []
    private var leafWidths: ContiguousArray<Int32> = []
    private var freeLeaves: [Int32] = []
    /// Internal node blocks: `branchCapacity` children per node, of which `branchWidths[node]` are used.
    private var children: ContiguousArray<Int32> = []
    private var childCounts: ContiguousArray<Int> = []
    private var bounds: ContiguousArray<Bound?> = []
    private var branchWidths: ContiguousArray<Int32> = []
    private var freeBranches: [Int32] = []
    /// The root node; a leaf when `height` is 0.
    private var root: Int32
    /// The number of internal levels above the leaves.
    private var height = 0
    /// The number of entries.
    @usableFromInline private(set) var count = 0
    /// The number of leaves in use.
    var leafCount: Int { leafWidths.count - freeLeaves.count }
    /// Changes with every insertion and removal, so the finger can tell it is stale.
    private var version: UInt64 = 1
    /// The leaf the latest ``fingerSlot(at:)`` descended to, kept current by edits inside it, so that
    /// work near the previous edit (typing, deleting, dropping next to the last drop) needs no descent.
    private var finger = Finger()
    /// The finger's path: per level from the root, the position in `childCounts` of the child taken.
    private var path: [Int] = []

    /// An empty index.
    init() {
        root = 0
        root = newLeaf()
    }

    // MARK: Node storage

    private mutating func newLeaf() -> Int32 {
        if let leaf = freeLeaves.popLast() {
            leafWidths[Int(leaf)] = 0
            return leaf
        }
        LargeTables.makeRoom(&leafSlots, for: Self.leafCapacity)
        LargeTables.makeRoom(&leafHeads, for: Self.leafCapacity)
        leafSlots.append(contentsOf: repeatElement(0, count: Self.leafCapacity))
        leafHeads.append(contentsOf: repeatElement(0, count: Self.leafCapacity))
        leafWidths.append(0)
        return Int32(leafWidths.count - 1)
    }

    private mutating func newBranch() -> Int32 {
        if let node = freeBranches.popLast() {
            branchWidths[Int(node)] = 0
            return node
        }
        children.append(contentsOf: repeatElement(0, count: Self.branchCapacity))
        childCounts.append(contentsOf: repeatElement(0, count: Self.branchCapacity))
        bounds.append(contentsOf: repeatElement(nil, count: Self.branchCapacity))
        branchWidths.append(0)
        return Int32(branchWidths.count - 1)
    }

    /// Copies `count` leaf entries (slots and key heads) from position `source` of the leaf storage to
    /// position `target`; the two ranges may overlap.
    private mutating func moveEntries(from source: Int, to target: Int, count: Int) {
        Self.move(count, from: source, to: target, in: &leafSlots)
        Self.move(count, from: source, to: target, in: &leafHeads)
    }

    /// Removes the `count` leaf entries at position `entry` of the leaf storage, shifting the `following`
    /// entries after them down; returns the first slot removed.
    @inline(__always)
    private mutating func removeEntries(at entry: Int, count: Int, following: Int) -> Int32 {
        let first = leafSlots[entry]
        moveEntries(from: entry + count, to: entry, count: following)
        return first
    }

    /// Copies `count` values of `storage` from position `source` to `target`; the ranges may overlap.
    private static func move<Value>(
        _ count: Int, from source: Int, to target: Int, in storage: inout ContiguousArray<Value>
    ) {
        storage.withUnsafeMutableBufferPointer { storage in
            let base = storage.baseAddress.unsafelyUnwrapped
            (base + target).update(from: base + source, count: count)
        }
    }

    /// Inserts child `child` (of `size` entries, lower bound `bound`) at `position` of branch `node`.
    private mutating func insertChild(_ child: Int32, size: Int, bound: Bound?, at position: Int, into node: Int32) {
        let base = Int(node) * Self.branchCapacity
        let width = Int(branchWidths[Int(node)])
        var index = base + width
        while index > base + position {
            children[index] = children[index - 1]
            childCounts[index] = childCounts[index - 1]
            bounds[index] = bounds[index - 1]
            index -= 1
        }
        children[base + position] = child
        childCounts[base + position] = size
        bounds[base + position] = bound
        branchWidths[Int(node)] += 1
    }

    /// Removes the child at `position` of branch `node`.
    private mutating func removeChild(at position: Int, from node: Int32) {
        let base = Int(node) * Self.branchCapacity
        let width = Int(branchWidths[Int(node)])
        for index in (base + position)..<(base + width - 1) {
            children[index] = children[index + 1]
            childCounts[index] = childCounts[index + 1]
            bounds[index] = bounds[index + 1]
        }
        bounds[base + width - 1] = nil
        branchWidths[Int(node)] -= 1
    }

    /// The child of branch `node` holding `index`, and `index` within that child. Past the end, the last child.
    @inline(__always)
    private func child(of node: Int32, containing index: Int) -> (position: Int, local: Int) {
        let base = Int(node) * Self.branchCapacity
        let last = Int(branchWidths[Int(node)]) - 1
        // The node's counts lie inside the array (base + last < childCounts.count), so read them unchecked.
        return childCounts.withUnsafeBufferPointer { counts in
            var position = 0
            var local = index
            // Four children at a time while all four lie before `index`, then one at a time.
            // Counts are at most the number of entries: wrapping arithmetic cannot wrap, and skips the checks.
            while position + 4 <= last {
                let four =
                    counts[base &+ position] &+ counts[base &+ position &+ 1] &+ counts[base &+ position &+ 2]
                    &+ counts[base &+ position &+ 3]
                guard local >= four else { break }
                local &-= four
                position &+= 4
            }
            while position < last && local >= counts[base &+ position] {
                local &-= counts[base &+ position]
                position &+= 1
            }
            return (position, local)
        }
    }

    // MARK: Access

    /// The slot at `index`.
    ///
    /// Inlined with ``leaf(containing:)``: called out of line from a mutating method of the list's core,
    /// it made the caller copy the whole index (144 bytes) to pass it.
    /// - Complexity: O(log n)
    @usableFromInline @inline(__always)
    func slot(at index: Int) -> Int32 {
        let (leaf, start, _) = leaf(containing: index)
        return leafSlots[Int(leaf) * Self.leafCapacity + index - start]
    }

    /// The leaf holding the entry at `index`, and the indexes of its first entry and past its last.
    /// - Complexity: O(log n)
    @usableFromInline @inline(__always)
    func leaf(containing index: Int) -> (leaf: Int32, start: Int, end: Int) {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        var node = root
        var local = index
        for _ in 0..<height {
            let (position, inner) = child(of: node, containing: local)
            node = children[Int(node) * Self.branchCapacity + position]
            local = inner
        }
        let start = index - local
        return (node, start, start + Int(leafWidths[Int(node)]))
    }

    /// A leaf reached by ``fingerSlot(at:)``: the indexes of its first entry and past its last, and the
    /// index's version then (a finger from another version is stale and never used).
    private struct Finger {
        var leaf: Int32 = 0
        var start = 0
        var end = 0
        var version: UInt64 = 0
    }

    /// Whether the finger is current and its leaf holds `index`.
    @inline(__always)
    private func fingerHolds(_ index: Int) -> Bool {
        finger.version == version && index >= finger.start && index < finger.end
    }

    /// The slot at `index`, read in the finger's leaf when it holds `index`, else found by a descent that
    /// moves the finger there.
    /// - Complexity: O(1) in the finger's leaf, else O(log n)
    mutating func fingerSlot(at index: Int) -> Int32 {
        leafSlots[fingerPosition(at: index)]
    }

    /// The slots at `offsets`, each read as by ``fingerSlot(at:)``: offsets that lie close together
    /// share the finger's leaf.
    mutating func fingerSlots(at offsets: CompactArray<Int>) -> CompactArray<Int32> {
        var slots = CompactArray<Int32>()
        slots.reserveCapacity(offsets.count)
        for offset in offsets { slots.append(fingerSlot(at: offset)) }
        return slots
    }

    /// The key of the entry at `index`, from its head in the finger's leaf (moved there as by
    /// ``fingerSlot(at:)``), or from its row's record when the head does not hold the whole key.
    /// - Complexity: O(1) in the finger's leaf, else O(log n)
    mutating func fingerKey(at index: Int, rows: borrowing RowTable) -> PositionKey {
        let position = fingerPosition(at: index)
        return PositionKey(head: leafHeads[position]) ?? rows.key(of: leafSlots[position])
    }

    /// The position in the leaf storage of the entry at `index`, moving the finger there. Inlined: most
    /// calls find the finger there already, and out of line that check cost a call per row of a block.
    @inline(__always)
    private mutating func fingerPosition(at index: Int) -> Int {
        if !fingerHolds(index) { moveFinger(to: index) }
        return Int(finger.leaf) * Self.leafCapacity + index - finger.start
    }

    /// Points the finger at the leaf that holds the entry at `index`, descending from the root.
    @inline(never)
    private mutating func moveFinger(to index: Int) {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        if path.count != height { path = Array(repeating: 0, count: height) }
        var node = root
        var local = index
        // Written through a buffer (one uniqueness check, not one per level), out of `self` meanwhile.
        var steps: [Int] = []
        swap(&steps, &path)
        steps.withUnsafeMutableBufferPointer { steps in
            for level in steps.indices {
                let (position, inner) = child(of: node, containing: local)
                steps[level] = Int(node) * Self.branchCapacity + position
                node = children[steps[level]]
                local = inner
            }
        }
        swap(&steps, &path)
        let start = index - local
        finger = Finger(leaf: node, start: start, end: start + Int(leafWidths[Int(node)]), version: version)
    }

    /// Records an edit of `delta` entries inside the finger's leaf: the counts on its path, the number of
    /// entries and the version change, and the finger stays current.
    @inline(__always)
    private mutating func fingerLeafChanged(by delta: Int) {
        childCounts.withUnsafeMutableBufferPointer { counts in
            for position in path { counts[position] += delta }  // positions of the finger's path: in range
        }
        count += delta
        version += 1
        finger.end += delta
        finger.version = version
    }

    /// The slot at `offset` of leaf `leaf` (from ``leaf(containing:)``).
    @inlinable
    func slot(inLeaf leaf: Int32, at offset: Int) -> Int32 {
        leafSlots[Int(leaf) * Self.leafCapacity + offset]
    }

    /// The index of the first entry not less than `probe` (`count` when every entry is less).
    /// - Complexity: O(log n)
    func lowerBound(_ probe: Bound, rows: borrowing RowTable) -> Int {
        var node = root
        var before = 0
        for _ in 0..<height {
            let base = Int(node) * Self.branchCapacity
            // The last child whose bound is <= probe holds the answer, or it is the start of the next child.
            var low = 1
            var high = Int(branchWidths[Int(node)])
            while low < high {
                let middle = (low + high) / 2
                if probe < bounds[base + middle].unsafelyUnwrapped { high = middle } else { low = middle + 1 }
            }
            for position in 0..<(low - 1) { before += childCounts[base + position] }
            node = children[base + low - 1]
        }
        let base = Int(node) * Self.leafCapacity
        let probeHead = probe.key.head
        var low = 0
        var high = Int(leafWidths[Int(node)])
        while low < high {
            let middle = (low + high) / 2
            // Heads differing in their first seven bytes order like the keys; otherwise read the row.
            let head = leafHeads[base + middle]
            let less = (head ^ probeHead) > 0xFF ? head < probeHead : rows.bound(of: leafSlots[base + middle]) < probe
            if less { low = middle + 1 } else { high = middle }
        }
        return before + low
    }

    /// Calls `body` with every slot in order.
    /// - Complexity: O(n)
    func forEachInOrder(_ body: (Int32) throws -> Void) rethrows {
        try forEachInOrder(node: root, level: height, body)
    }

    private func forEachInOrder(node: Int32, level: Int, _ body: (Int32) throws -> Void) rethrows {
        if level == 0 {
            let base = Int(node) * Self.leafCapacity
            for index in base..<(base + Int(leafWidths[Int(node)])) { try body(leafSlots[index]) }
            return
        }
        let base = Int(node) * Self.branchCapacity
        for index in base..<(base + Int(branchWidths[Int(node)])) {
            try forEachInOrder(node: children[index], level: level - 1, body)
        }
    }

    // MARK: Insertion

    /// Inserts `slot` at `index`; `bound` is its (key, ID).
    /// - Complexity: O(log n)
    mutating func insert(_ slot: Int32, bound: Bound, at index: Int, rows: borrowing RowTable) {
        precondition(index >= 0 && index <= count, "index \(index) out of range 0...\(count)")
        count += 1
        version += 1
        guard let split = insert(slot, bound: bound, at: index, into: root, level: height, rows: rows) else { return }
        let newRoot = newBranch()
        insertChild(root, size: count - split.size, bound: nil, at: 0, into: newRoot)
        insertChild(split.node, size: split.size, bound: split.bound, at: 1, into: newRoot)
        root = newRoot
        height += 1
    }

    /// Inserts `slot`, whose key has the head `head`, at `index` like ``insert(_:bound:at:rows:)``
    /// without descending, when the finger's leaf holds the place: after its first entry (so no bound
    /// changes), before its end unless that is the end of the index, and with room (so nothing splits).
    /// Otherwise returns false and changes nothing: the caller then inserts with
    /// ``insert(_:bound:at:rows:)``.
    ///
    /// The rows are not a parameter: passing the table to a method of the index copies it out of its
    /// owner on every call, also when the finger's leaf needs none of it (about 1 % of the instructions
    /// of local inserts and moves).
    /// - Complexity: O(height)
    @inline(__always)
    mutating func insertAtFinger(_ slot: Int32, head: UInt64, at index: Int) -> Bool {
        guard finger.version == version, index > finger.start, index < finger.end || index == count,
            index <= finger.end, finger.end - finger.start < Self.leafCapacity
        else { return false }
        put(slot, head: head, inLeaf: finger.leaf, at: index - finger.start)
        fingerLeafChanged(by: 1)
        return true
    }

    /// Inserts into the subtree of `node`; returns the new right sibling when `node` split.
    private mutating func insert(
        _ slot: Int32, bound: Bound, at index: Int, into node: Int32, level: Int, rows: borrowing RowTable
    ) -> (node: Int32, size: Int, bound: Bound)? {
        if level == 0 { return insert(slot, bound: bound, at: index, intoLeaf: node, rows: rows) }
        let base = Int(node) * Self.branchCapacity
        let width = Int(branchWidths[Int(node)])
        var (position, local) = child(of: node, containing: index)
        if level == 1 && Int(leafWidths[Int(children[base + position])]) == Self.leafCapacity
            && shareFullLeaf(at: position, of: node, rows: rows)
        {
            (position, local) = child(of: node, containing: index)
        }
        if local == 0 && position > 0 { bounds[base + position] = bound }
        childCounts[base + position] += 1
        let child = children[base + position]
        guard let split = insert(slot, bound: bound, at: local, into: child, level: level - 1, rows: rows) else {
            return nil
        }
        childCounts[base + position] -= split.size
        if width < Self.branchCapacity {
            insertChild(split.node, size: split.size, bound: split.bound, at: position + 1, into: node)
            return nil
        }
        // Split this full node, then add the new child to the proper half.
        let right = newBranch()
        let half = Self.branchCapacity / 2
        let rightBase = Int(right) * Self.branchCapacity
        for offset in 0..<half {
            children[rightBase + offset] = children[base + half + offset]
            childCounts[rightBase + offset] = childCounts[base + half + offset]
            bounds[rightBase + offset] = bounds[base + half + offset]
            bounds[base + half + offset] = nil
        }
        branchWidths[Int(right)] = Int32(half)
        branchWidths[Int(node)] = Int32(half)
        if position + 1 > half {
            insertChild(split.node, size: split.size, bound: split.bound, at: position + 1 - half, into: right)
        } else {
            insertChild(split.node, size: split.size, bound: split.bound, at: position + 1, into: node)
        }
        return (right, subtreeSize(right), bounds[rightBase].unsafelyUnwrapped)
    }

    private mutating func insert(
        _ slot: Int32, bound: Bound, at index: Int, intoLeaf leaf: Int32, rows: borrowing RowTable
    ) -> (node: Int32, size: Int, bound: Bound)? {
        var target = leaf
        var local = index
        var split: (node: Int32, size: Int, bound: Bound)?
        if Int(leafWidths[Int(leaf)]) == Self.leafCapacity {
            let right = newLeaf()
            let half = Self.leafCapacity / 2
            let base = Int(leaf) * Self.leafCapacity
            let rightBase = Int(right) * Self.leafCapacity
            moveEntries(from: base + half, to: rightBase, count: half)
            leafWidths[Int(right)] = Int32(half)
            leafWidths[Int(leaf)] = Int32(half)
            split = (right, half, rows.bound(of: leafSlots[rightBase]))
            if local > half {
                target = right
                local -= half
                split!.size += 1
            }
        }
        put(slot, head: bound.key.head, inLeaf: target, at: local)
        return split
    }

    /// Moves entries of the full leaf child `position` of `parent` into a neighbour with room for at least
    /// ``leafShare`` of them, half that room, the left neighbour first: an insert into a full leaf then
    /// needs no split while a neighbour has room, so leaves stay fuller than the half a split leaves
    /// (typing in the middle of a text moves the rest of the text along with the cursor, splitting leaf
    /// after leaf). The bound of the leaf whose first entry changed becomes that entry's bound. Returns
    /// whether it moved entries.
    private mutating func shareFullLeaf(at position: Int, of parent: Int32, rows: borrowing RowTable) -> Bool {
        let base = Int(parent) * Self.branchCapacity
        let width = Int(branchWidths[Int(parent)])
        // The left neighbour, then the right one.
        for neighbour in stride(from: position - 1, through: position + 1, by: 2)
        where neighbour >= 0 && neighbour < width {
            let room = Self.leafCapacity - Int(leafWidths[Int(children[base + neighbour])])
            if room >= Self.leafShare {
                moveLeafEntries(room / 2, from: position, to: neighbour, of: parent, rows: rows)
                return true
            }
        }
        return false
    }

    /// Moves `moved` entries of leaf child `source` of `parent` to its neighbour `target` (the one
    /// before or after it), which has room: the first entries to the end of a left neighbour, the last
    /// to the start of a right one. The right leaf of the two gets its new first entry's bound.
    private mutating func moveLeafEntries(
        _ moved: Int, from source: Int, to target: Int, of parent: Int32, rows: borrowing RowTable
    ) {
        let base = Int(parent) * Self.branchCapacity
        let (sourceLeaf, targetLeaf) = (Int(children[base + source]), Int(children[base + target]))
        let (sourceBase, targetBase) = (sourceLeaf * Self.leafCapacity, targetLeaf * Self.leafCapacity)
        let (sourceWidth, targetWidth) = (Int(leafWidths[sourceLeaf]), Int(leafWidths[targetLeaf]))
        if target < source {
            moveEntries(from: sourceBase, to: targetBase + targetWidth, count: moved)
            moveEntries(from: sourceBase + moved, to: sourceBase, count: sourceWidth - moved)
        } else {
            moveEntries(from: targetBase, to: targetBase + moved, count: targetWidth)
            moveEntries(from: sourceBase + sourceWidth - moved, to: targetBase, count: moved)
        }
        leafWidths[sourceLeaf] -= Int32(moved)
        leafWidths[targetLeaf] += Int32(moved)
        childCounts[base + source] -= moved
        childCounts[base + target] += moved
        let right = max(source, target)
        bounds[base + right] = rows.bound(of: leafSlots[Int(children[base + right]) * Self.leafCapacity])
    }

    /// The least room, in entries, a neighbour of a full leaf must have to take some of its entries
    /// (``shareFullLeaf(at:of:rows:)``): below it, the full leaf splits.
    static let leafShare = 8

    /// Puts `slot`, whose key head is `head`, at `local` in `leaf`, which has room, shifting the entries
    /// from there on.
    private mutating func put(_ slot: Int32, head: UInt64, inLeaf leaf: Int32, at local: Int) {
        let width = Int(leafWidths[Int(leaf)])
        precondition(local <= width && width < Self.leafCapacity, "leaf insert out of range")
        let entry = Int(leaf) * Self.leafCapacity + local
        Self.insert(slot, at: entry, shifting: width - local, in: &leafSlots)
        Self.insert(head, at: entry, shifting: width - local, in: &leafHeads)
        leafWidths[Int(leaf)] += 1
    }

    /// Puts `value` at `entry` of `storage` after shifting the `count` values from there on up by one.
    private static func insert<Value>(
        _ value: Value, at entry: Int, shifting count: Int, in storage: inout ContiguousArray<Value>
    ) {
        storage.withUnsafeMutableBufferPointer { storage in
            let entry = storage.baseAddress.unsafelyUnwrapped + entry
            (entry + 1).update(from: entry, count: count)
            entry.pointee = value
        }
    }

    private func subtreeSize(_ node: Int32) -> Int {
        let base = Int(node) * Self.branchCapacity
        return childCounts[base..<(base + Int(branchWidths[Int(node)]))].reduce(0, +)
    }

    // MARK: Removal

    /// Removes and returns the slot at `index`.
    /// - Complexity: O(height) in the finger's leaf, else O(log n)
    @discardableResult
    mutating func remove(at index: Int) -> Int32 {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        return removeFromFinger(index..<(index + 1)) ?? removeRun(at: index, upTo: 1).first
    }

    /// Removes the entries at `offsets` (ascending, no repeats): each stretch of consecutive offsets at once,
    /// the last stretch first so that the earlier ones keep their indexes.
    /// - Complexity: O(k + s log n) for k entries in s stretches, each in one leaf
    mutating func remove(atOffsets offsets: CompactArray<Int>) {
        var end = offsets.count
        while end > 0 {
            var start = end - 1
            while start > 0 && offsets[start - 1] == offsets[start] - 1 { start -= 1 }
            removeSubrange(offsets[start]..<(offsets[end - 1] + 1))
            end = start
        }
    }

    /// Removes the entries in `range`, one descent per leaf they are in (none in the finger's leaf).
    /// - Complexity: O(k + log n) for k entries in one leaf, O(k log n) at worst
    mutating func removeSubrange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) out of range 0..<\(count)")
        if removeFromFinger(range) != nil { return }
        var remaining = range.count
        while remaining > 0 { remaining -= removeRun(at: range.lowerBound, upTo: remaining).count }
    }

    /// Removes the entries in `range` when the finger's leaf holds them all and stays at least a quarter
    /// full (so no leaf is merged), without a descent; returns the first removed, or nil if it did not apply.
    private mutating func removeFromFinger(_ range: Range<Int>) -> Int32? {
        guard fingerHolds(range.lowerBound), range.upperBound <= finger.end,
            finger.end - finger.start - range.count >= Self.leafCapacity / 4
        else { return nil }
        let first = removeEntries(
            at: Int(finger.leaf) * Self.leafCapacity + range.lowerBound - finger.start, count: range.count,
            following: finger.end - range.upperBound)
        leafWidths[Int(finger.leaf)] -= Int32(range.count)
        fingerLeafChanged(by: -range.count)
        return first
    }

    /// Removes the entries from `index` on, at most `limit` and only those in the leaf holding `index`;
    /// returns how many it removed and the first of them.
    private mutating func removeRun(at index: Int, upTo limit: Int) -> (count: Int, first: Int32) {
        let removed = remove(at: index, upTo: limit, from: root, level: height)
        count -= removed.count
        version += 1
        collapseRoot()
        return removed
    }

    /// Removes a run from the subtree of `node` (see ``removeRun(at:upTo:)``); empty children are
    /// dropped and sparse leaves merged.
    private mutating func remove(
        at index: Int, upTo limit: Int, from node: Int32, level: Int
    ) -> (count: Int, first: Int32) {
        if level == 0 {
            let width = Int(leafWidths[Int(node)])
            precondition(index < width, "leaf index out of range")
            let removed = min(limit, width - index)
            leafWidths[Int(node)] -= Int32(removed)
            let first = removeEntries(
                at: Int(node) * Self.leafCapacity + index, count: removed, following: width - index - removed)
            return (removed, first)
        }
        let (position, local) = child(of: node, containing: index)
        let base = Int(node) * Self.branchCapacity
        let child = children[base + position]
        let removed = remove(at: local, upTo: limit, from: child, level: level - 1)
        childCounts[base + position] -= removed.count
        if childCounts[base + position] == 0 {
            if level == 1 { freeLeaves.append(child) } else { freeBranches.append(child) }
            removeChild(at: position, from: node)
        } else if level == 1 {
            mergeSparseLeaf(at: position, of: node)
        }
        return removed
    }

    /// Joins leaf child `position` of `parent` with a neighbour when it is small and both fit in half a leaf.
    private mutating func mergeSparseLeaf(at position: Int, of parent: Int32) {
        let base = Int(parent) * Self.branchCapacity
        let width = Int(branchWidths[Int(parent)])
        guard width > 1, Int(leafWidths[Int(children[base + position])]) < Self.leafCapacity / 4 else { return }
        let left = position + 1 < width ? position : position - 1
        let target = children[base + left]
        let source = children[base + left + 1]
        let targetWidth = Int(leafWidths[Int(target)])
        let sourceWidth = Int(leafWidths[Int(source)])
        guard targetWidth + sourceWidth <= Self.leafCapacity / 2 else { return }
        let targetBase = Int(target) * Self.leafCapacity
        let sourceBase = Int(source) * Self.leafCapacity
        moveEntries(from: sourceBase, to: targetBase + targetWidth, count: sourceWidth)
        leafWidths[Int(target)] = Int32(targetWidth + sourceWidth)
        childCounts[base + left] += childCounts[base + left + 1]
        removeChild(at: left + 1, from: parent)
        freeLeaves.append(source)
    }

    /// Replaces a root with a single child by that child.
    private mutating func collapseRoot() {
        while height > 0 && branchWidths[Int(root)] <= 1 {
            let old = root
            if branchWidths[Int(old)] == 0 {
                root = newLeaf()
                height = 0
            } else {
                root = children[Int(old) * Self.branchCapacity]
                height -= 1
            }
            branchWidths[Int(old)] = 0
            bounds[Int(old) * Self.branchCapacity] = nil
            freeBranches.append(old)
        }
    }

    // MARK: Bulk building

    /// An index of `slots`, which are sorted by (key, ID), built bottom-up with nodes three quarters
    /// full, so the inserts that follow do not split nearly every node, and with room for the leaves of
    /// `capacity` rows so built, so the leaves that those splits add do not copy the whole leaf storage.
    /// - Complexity: O(n)
    init(sorted slots: [Int32], reservingFor capacity: Int, rows: borrowing RowTable) {
        self.init()
        guard !slots.isEmpty else { return }
        var level: [(node: Int32, size: Int, bound: Bound)] = []
        let leafFill = Self.leafCapacity * 3 / 4
        let branchFill = Self.branchCapacity * 3 / 4
        // Every leaf at once (the empty root's block becomes the first): no growth copies.
        let leafCount = (slots.count + leafFill - 1) / leafFill
        let reservedLeaves = max(leafCount, (capacity + leafFill - 1) / leafFill)
        let (entries, reservedEntries) = (leafCount * Self.leafCapacity, reservedLeaves * Self.leafCapacity)
        leafSlots = LargeTables.array(repeating: 0, count: entries, capacity: reservedEntries)
        leafHeads = LargeTables.array(repeating: 0, count: entries, capacity: reservedEntries)
        leafWidths = LargeTables.array(repeating: 0, count: leafCount, capacity: reservedLeaves)
        for index in 0..<leafCount {
            let leaf = Int32(index)
            let start = index * leafFill
            let end = min(start + leafFill, slots.count)
            leafSlots.withUnsafeMutableBufferPointer { leafSlots in
                slots[start..<end].withUnsafeBufferPointer { group in
                    (leafSlots.baseAddress.unsafelyUnwrapped + Int(leaf) * Self.leafCapacity).update(
                        from: group.baseAddress.unsafelyUnwrapped, count: group.count)
                }
            }
            leafHeads.withUnsafeMutableBufferPointer { leafHeads in
                for (offset, slot) in slots[start..<end].enumerated() {
                    leafHeads[Int(leaf) * Self.leafCapacity + offset] = rows.keyHead(of: slot)
                }
            }
            leafWidths[Int(leaf)] = Int32(end - start)
            level.append((leaf, end - start, rows.bound(of: slots[start])))
        }
        while level.count > 1 {
            var parents: [(node: Int32, size: Int, bound: Bound)] = []
            for start in stride(from: 0, to: level.count, by: branchFill) {
                let node = newBranch()
                let group = level[start..<min(start + branchFill, level.count)]
                for (position, child) in group.enumerated() {
                    insertChild(
                        child.node, size: child.size, bound: position == 0 ? nil : child.bound, at: position, into: node
                    )
                }
                parents.append((node, group.reduce(0) { $0 + $1.size }, group.first!.bound))
            }
            level = parents
            height += 1
        }
        root = level[0].node
        count = slots.count
    }

    // MARK: Checks

    /// Checks subtree sizes and that every bound is a lower bound of its child and above its left sibling.
    func checkStructure(rows: borrowing RowTable) {
        let size = check(node: root, level: height, lower: nil, upper: nil, rows: rows)
        precondition(size == count, "index count \(count) but \(size) entries")
    }

    private func check(node: Int32, level: Int, lower: Bound?, upper: Bound?, rows: borrowing RowTable) -> Int {
        if level == 0 {
            let base = Int(node) * Self.leafCapacity
            let width = Int(leafWidths[Int(node)])
            precondition(node == root || width > 0, "empty leaf")
            for index in base..<(base + width) {
                precondition(leafHeads[index] == rows.keyHead(of: leafSlots[index]), "stale key head")
                let bound = rows.bound(of: leafSlots[index])
                if let lower { precondition(!(bound < lower), "entry below its bound") }
                if let upper { precondition(bound < upper, "entry above the next bound") }
            }
            return width
        }
        let base = Int(node) * Self.branchCapacity
        let width = Int(branchWidths[Int(node)])
        precondition(width > 0, "empty internal node")
        var total = 0
        for position in 0..<width {
            let childLower = position == 0 ? lower : bounds[base + position]
            let childUpper = position + 1 < width ? bounds[base + position + 1] : upper
            let size = check(
                node: children[base + position], level: level - 1, lower: childLower, upper: childUpper, rows: rows)
            precondition(size == childCounts[base + position], "child count")
            total += size
        }
        return total
    }
}
