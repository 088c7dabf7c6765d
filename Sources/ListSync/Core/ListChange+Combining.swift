/// Combining batches (a transaction's edits, events a busy UI has not taken yet) and applying a batch to
/// a plain array, both with the contract of ``ListChange``.
extension ListChange {
    /// The one batch that has the effect of this batch followed by `next`, a batch of the rows this one
    /// produced.
    ///
    /// A row both batches touched appears once: inserted then moved is inserted where it ends; moved
    /// twice is one move from its first place to its last; inserted then removed is absent; updated and
    /// then moved is moved and updated. Rows neither batch moved, inserted or removed keep their relative
    /// order, so the result is a valid `performBatchUpdates` batch. A row moved away and back is still
    /// reported as moved (from and to may then be equal).
    ///
    /// ```swift
    /// let first = list.append("Milk")                 // +[3]
    /// let second = list.move(from: 3, to: 0)          // ~[3>0]
    /// first.followed(by: second)                      // +[0]
    /// ```
    /// - Complexity: O(k log k) for k entries in both batches.
    public func followed(by next: ListChange) -> ListChange {
        if isEmpty { return next }
        if next.isEmpty { return self }
        let first = BatchMap(self)
        let second = BatchMap(next)
        var removed = Array(self.removed)
        var inserted = Array(next.inserted)
        var moved: [Move] = []
        var updated: [Int] = []
        for index in next.removed {
            if case .old(let old, _) = first.origin(ofNew: index) { removed.append(old) }
        }
        for index in self.inserted {
            if let destination = second.destination(ofOld: index) { inserted.append(destination) }
        }
        for move in self.moved {
            if let destination = second.destination(ofOld: move.to) {
                moved.append(Move(from: move.from, to: destination))
            }
        }
        for move in next.moved {
            if case .old(let old, moved: false) = first.origin(ofNew: move.from) {
                moved.append(Move(from: old, to: move.to))
            }
        }
        for index in self.updated {
            guard case .old = first.origin(ofNew: index), let destination = second.destination(ofOld: index) else {
                continue
            }
            updated.append(destination)
        }
        let insertedSet = Set(inserted)
        updated += next.updated.filter { !insertedSet.contains($0) }
        moved.sort { $0.from < $1.from }
        return ListChange(
            removed: CompactArray(removed.sorted()), inserted: CompactArray(inserted.sorted()),
            moved: CompactArray(moved), updated: CompactArray(Set(updated).sorted()))
    }

    /// Where the rows at `indexes` of the rows before the batch are after it (nil for removed ones).
    /// - Complexity: O((k + m) log k) for k entries and m indexes.
    func destinations(ofOld indexes: some Sequence<Int>) -> [Int?] {
        let map = BatchMap(self)
        return indexes.map(map.destination(ofOld:))
    }

    /// One batch with the effect of `batches` applied in turn (empty for none).
    /// - Complexity: O(k log k) per batch for k entries so far.
    public init(combining batches: some Sequence<ListChange>) {
        self = batches.reduce(ListChange()) { $0.followed(by: $1) }
    }

    /// Applies the batch to `rows`, the rows it was made for, as `performBatchUpdates` does: rows at
    /// `removed` and the sources of `moved` leave, moved rows land at their destinations, and
    /// `inserted(index)` supplies the row for each inserted index. Updated rows are not replaced (their
    /// new values are the caller's to supply).
    ///
    /// - Precondition: the batch fits `rows` (its indexes are in range and its lists consistent).
    /// - Complexity: O(n + k log k) for n rows and k entries.
    public func apply<Row>(to rows: inout [Row], inserting inserted: (Int) -> Row) {
        let gone = BatchMap.merged(removed, moved.map(\.from))
        let newCount = rows.count - removed.count + self.inserted.count
        precondition(gone.last.map { $0 < rows.count } ?? true, "batch \(self) removes rows beyond \(rows.count)")
        var placed: [(index: Int, old: Int?)] = self.inserted.map { ($0, nil) } + moved.map { ($0.to, $0.from) }
        placed.sort { $0.index < $1.index }
        var result: [Row] = []
        result.reserveCapacity(newCount)
        var nextPlaced = placed.startIndex
        var nextGone = gone.startIndex
        var nextOld = rows.startIndex
        for index in 0..<newCount {
            if nextPlaced < placed.endIndex, placed[nextPlaced].index == index {
                result.append(placed[nextPlaced].old.map { rows[$0] } ?? inserted(index))
                nextPlaced += 1
                continue
            }
            while nextGone < gone.endIndex, gone[nextGone] == nextOld {
                nextGone += 1
                nextOld += 1
            }
            precondition(nextOld < rows.count, "batch \(self) leaves a hole at \(index)")
            result.append(rows[nextOld])
            nextOld += 1
        }
        precondition(nextPlaced == placed.endIndex, "batch \(self) places rows beyond \(newCount)")
        rows = result
    }
}

/// The index arithmetic of one batch: which old row each new index holds, and where each old row went.
private struct BatchMap {
    /// Where a row of the new rows came from.
    enum Origin {
        /// Inserted by the batch.
        case inserted
        /// The old row at `index`, moved by the batch or kept in place among the others.
        case old(Int, moved: Bool)
    }

    /// Old indexes that leave their place: removed rows and move sources, ascending.
    private let gone: [Int]
    /// New indexes that are filled by the batch: inserted rows and move destinations, ascending.
    private let placed: [Int]
    /// Move destinations by source, and sources by destination.
    private let destinations: [Int: Int]
    private let sources: [Int: Int]
    private let removed: Set<Int>
    private let inserted: Set<Int>

    init(_ change: ListChange) {
        gone = Self.merged(change.removed, change.moved.map(\.from))
        placed = Self.merged(change.inserted, change.moved.map(\.to))
        destinations = Dictionary(change.moved.map { ($0.from, $0.to) }, uniquingKeysWith: { first, _ in first })
        sources = Dictionary(change.moved.map { ($0.to, $0.from) }, uniquingKeysWith: { first, _ in first })
        removed = Set(change.removed)
        inserted = Set(change.inserted)
    }

    /// Which row the new rows hold at `index`.
    func origin(ofNew index: Int) -> Origin {
        if inserted.contains(index) { return .inserted }
        if let source = sources[index] { return .old(source, moved: true) }
        return .old(Self.index(ofRank: index - Self.count(of: placed, below: index), skipping: gone), moved: false)
    }

    /// Where the old row at `index` is in the new rows, or nil when the batch removed it.
    func destination(ofOld index: Int) -> Int? {
        if removed.contains(index) { return nil }
        if let destination = destinations[index] { return destination }
        return Self.index(ofRank: index - Self.count(of: gone, below: index), skipping: placed)
    }

    /// How many of `sorted` are below `index`.
    private static func count(of sorted: [Int], below index: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The `rank`-th index (from 0) that is not in `skipped` (ascending, unique).
    ///
    /// `skipped[j] - j` does not decrease, and the answer is `rank + j` for the number j of skipped
    /// indexes with `skipped[j] - j <= rank`.
    private static func index(ofRank rank: Int, skipping skipped: [Int]) -> Int {
        var low = 0
        var high = skipped.count
        while low < high {
            let middle = (low + high) / 2
            if skipped[middle] - middle <= rank { low = middle + 1 } else { high = middle }
        }
        return rank + low
    }

    /// The union of two lists, ascending.
    static func merged(_ first: some Sequence<Int>, _ second: some Sequence<Int>) -> [Int] {
        (Array(first) + Array(second)).sorted()
    }
}
