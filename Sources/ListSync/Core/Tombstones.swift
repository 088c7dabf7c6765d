/// Deleted rows: their IDs and the stamp of (the least) delete, kept forever so deletes are final.
///
/// Recent deletes are kept one per row (points), found through a hash index. Once there are many
/// of them they are compacted into runs. A run is consecutive row IDs of one replica whose delete
/// stamps step evenly: a block deleted by one change (one Lamport time, consecutive counters), or
/// backspacing (one change per row). It is one entry, found by binary search. In the rustcode trace,
/// 457,313 deleted rows make 12,028 runs.
///
/// A point may lie inside a run: a later delete of that row with a smaller stamp, which overrides the
/// run's. Points and runs never hold the same row otherwise.
struct Tombstones {
    /// Consecutive deleted rows `replica:first ..< replica:first + length` whose delete stamps step
    /// evenly from the first row's.
    struct Run {
        var replica: ReplicaID
        var first: UInt64
        var length: UInt64
        /// The first row's delete stamp.
        var stamp: Stamp
        /// How the delete stamp's Lamport time changes from one row to the next: -1, 0 or 1.
        var lamportStep: Int64
        /// How the delete dot's counter changes from one row to the next: -1 or 1.
        var counterStep: Int64

        /// The delete stamp of row `first + offset`, for `offset` in `0..<length`.
        func stamp(at offset: UInt64) -> Stamp {
            Stamp(
                lamport: stamp.lamport &+ UInt64(bitPattern: lamportStep &* Int64(offset)),
                dot: Dot(
                    replica: stamp.dot.replica,
                    counter: stamp.dot.counter &+ UInt64(bitPattern: counterStep &* Int64(offset))))
        }
    }

    private var index = RowIDIndex()
    private var ids: ContiguousArray<RowID> = []
    private var stamps: ContiguousArray<Stamp> = []
    /// The runs, ordered by replica, then first counter; disjoint.
    private(set) var runs: ContiguousArray<Run> = []
    /// The rows the runs hold.
    private var runRows = 0
    /// The points that lie inside a run.
    private var overrides = 0

    /// The fewest points a compaction looks at, and the shortest run it makes.
    private let compaction: (points: Int, shortestRun: Int)
    /// The points added before the last compaction, which looked at them: ``compact()`` looks at the
    /// others.
    private var examined = 0

    /// No deleted rows. A compaction happens once `compactingAt` points (and as many as there are runs)
    /// were added since the last one; it makes runs of at least `shortestRun` rows.
    init(compactingAt points: Int = 4_096, shortestRun: Int = 4) {
        precondition(shortestRun >= 2, "a run has a step, so at least two rows")
        compaction = (points, shortestRun)
    }

    /// The number of deleted rows.
    var count: Int { ids.count - overrides + runRows }

    /// The delete stamp of `id`, if it was deleted.
    subscript(id: RowID) -> Stamp? {
        if let slot = slot(of: id) { return stamps[Int(slot)] }
        return runStamp(of: id)
    }

    private func slot(of id: RowID) -> Int32? {
        ids.withUnsafeBufferPointer { ids in index.slot(of: id) { ids[Int($0)] } }
    }

    /// The delete stamp of `id` in the run holding it, if one does.
    private func runStamp(of id: RowID) -> Stamp? {
        guard !runs.isEmpty else { return nil }
        return runs.withUnsafeBufferPointer { runs in
            // The first run after `id`; the one before it is the only one that can hold `id`.
            var low = 0
            var high = runs.count
            while low < high {
                let middle = (low + high) / 2
                if (runs[middle].replica, runs[middle].first) <= (id.replica, id.counter) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            guard low > 0 else { return nil }
            let run = runs[low - 1]
            guard run.replica == id.replica, id.counter - run.first < run.length else { return nil }
            return run.stamp(at: id.counter - run.first)
        }
    }

    /// Starts loading the bucket that looking up `id` reads first.
    func prefetchLookup(of id: RowID) { index.prefetchHome(of: id) }

    /// Makes room for `count` more deleted rows.
    mutating func reserveCapacity(_ count: Int) {
        index.reserveCapacity(ids.count + count)
        ids.reserveCapacity(ids.count + count)
        stamps.reserveCapacity(ids.count + count)
    }

    /// Records that `id` was deleted by `stamp`; of two deletes the smaller stamp is kept.
    mutating func insert(_ id: RowID, deletedBy stamp: Stamp) {
        if let slot = slot(of: id) {
            if stamp < stamps[Int(slot)] { stamps[Int(slot)] = stamp }
            return
        }
        if let kept = runStamp(of: id) {
            guard stamp < kept else { return }
            overrides += 1
        }
        insertNew(id, deletedBy: stamp)
    }

    /// Records that `id`, which has no point (a row not deleted yet, or one of a run whose stamp this
    /// lowers), was deleted by `stamp`: ``insert(_:deletedBy:)`` without looking for an earlier delete.
    mutating func insertNew(_ id: RowID, deletedBy stamp: Stamp) {
        precondition(index.count == ids.count, "tombstones added in bulk are not indexed yet")
        index.insert(Int32(ids.count), for: id)
        ids.append(id)
        stamps.append(stamp)
        compactIfLarge()
    }

    /// Adds a tombstone without indexing its ID: for a bulk load, which then calls
    /// ``indexUnindexed(unlessIn:)``. Until then the tombstone is not found by ID.
    mutating func insertUnindexed(_ id: RowID, deletedBy stamp: Stamp) {
        ids.append(id)
        stamps.append(stamp)
    }

    /// Indexes the tombstones added by ``insertUnindexed(_:deletedBy:)``, compacting them first when there
    /// are many; returns false, leaving the index incomplete, when two share an ID or one is a row of
    /// `rows`. Tight loops, as in ``RowTable/indexUnindexedRows()``.
    /// - Precondition: no tombstone was added otherwise (a bulk load is into an empty replica).
    mutating func indexUnindexed(unlessIn rows: borrowing RowTable) -> Bool {
        precondition(runs.isEmpty && index.count == 0, "a bulk load of tombstones beside others")
        guard !ids.withUnsafeBufferPointer({ rows.containsAny(of: $0) }) else { return false }
        if ids.count >= compaction.points { replace(0..<ids.count, with: findRuns(in: 0..<ids.count)) }
        examined = ids.count
        let unique = ids.withUnsafeBufferPointer { ids in
            index.insert(contentsOf: 0..<Int32(ids.count), id: { ids[Int($0)] })
        }
        // A row twice is two points (the index finds it), a point inside a run, or two runs that overlap.
        let disjoint = runs.indices.dropFirst().allSatisfy { offset in
            let (previous, run) = (runs[offset - 1], runs[offset])
            return previous.replica != run.replica || previous.first + previous.length <= run.first
        }
        return unique && disjoint && ids.allSatisfy { runStamp(of: $0) == nil }
    }

    /// Calls `body` with every deleted row and its delete stamp.
    func forEachTombstone(_ body: (RowID, Stamp) throws -> Void) rethrows {
        for offset in ids.indices { try body(ids[offset], stamps[offset]) }
        for run in runs {
            for offset in 0..<run.length {
                let id = RowID(replica: run.replica, counter: run.first + offset)
                if overrides > 0 && slot(of: id) != nil { continue }
                try body(id, run.stamp(at: offset))
            }
        }
    }

    /// Compacts once ``compaction`` points, and as many as there are runs, were added since the last
    /// compaction: each point is looked at once, and the runs are copied once per as many deletes.
    private mutating func compactIfLarge() {
        guard ids.count - examined >= Swift.max(compaction.points, runs.count) else { return }
        compact()
    }

    /// Turns runs of the points added since the last compaction into runs, and keeps the index.
    private mutating func compact() {
        let tail = examined..<ids.count
        let found = findRuns(in: tail)
        examined = tail.lowerBound + found.keptIDs.count
        guard !found.runs.isEmpty else { return }
        // The points that stay move down within the tail: their slots change. The index is built again
        // when that is less work than taking the tail out.
        let rebuilds = tail.lowerBound + found.keptIDs.count < tail.count
        if rebuilds {
            index = RowIDIndex()
        } else {
            for offset in tail { index.remove(Int32(offset), for: ids[offset]) }
        }
        replace(tail, with: found)
        let complete = ids.withUnsafeBufferPointer { ids in
            index.insert(contentsOf: Int32(rebuilds ? 0 : tail.lowerBound)..<Int32(ids.count), id: { ids[Int($0)] })
        }
        precondition(complete, "points are unique")
    }

    /// The runs among the points in `tail`, in the order they were added: where each next row ID is one
    /// above (or each one below) the last and the stamps step evenly, at least ``compaction``'s shortest
    /// run; and the points that stay, in order (points inside a run, and those of runs too short).
    private func findRuns(
        in tail: Range<Int>
    ) -> (runs: [Run], keptIDs: ContiguousArray<RowID>, keptStamps: ContiguousArray<Stamp>) {
        var keptIDs = ContiguousArray<RowID>()
        var keptStamps = ContiguousArray<Stamp>()
        var made: [Run] = []
        let shortest = compaction.shortestRun
        ids.withUnsafeBufferPointer { ids in
            stamps.withUnsafeBufferPointer { stamps in
                // Only a point that overrides a run's stamp lies inside a run: none to look for without them.
                func isOverride(_ offset: Int) -> Bool { overrides > 0 && runStamp(of: ids[offset]) != nil }
                var start = tail.lowerBound
                while start < tail.upperBound {
                    var end = start + 1
                    if end < tail.upperBound, !isOverride(start), !isOverride(end),
                        let step = Step(ids[start], stamps[start], ids[end], stamps[end])
                    {
                        end += 1
                        while end < tail.upperBound
                            && Step(ids[end - 1], stamps[end - 1], ids[end], stamps[end]) == step && !isOverride(end)
                        {
                            end += 1
                        }
                    }
                    if end - start >= shortest {
                        made.append(Run(ids[start..<end], stamps[start..<end]))
                    } else {
                        for offset in start..<end {
                            keptIDs.append(ids[offset])
                            keptStamps.append(stamps[offset])
                        }
                    }
                    start = end
                }
            }
        }
        return (made, keptIDs, keptStamps)
    }

    /// Puts the runs `found` made among the points in `tail` into ``runs``, and its points that stay
    /// in place of the tail (the index is the caller's).
    private mutating func replace(
        _ tail: Range<Int>,
        with found: (runs: [Run], keptIDs: ContiguousArray<RowID>, keptStamps: ContiguousArray<Stamp>)
    ) {
        runRows += found.runs.reduce(0) { $0 + Int($1.length) }
        runs = Self.merged(runs, found.runs.sorted { ($0.replica, $0.first) < ($1.replica, $1.first) })
        ids.replaceSubrange(tail, with: found.keptIDs)
        stamps.replaceSubrange(tail, with: found.keptStamps)
    }

    /// The runs of `a` and `b` (each ordered, disjoint from the other) in one ordered array, a run that
    /// continues the one before it joined to it (a block compacted in two parts).
    private static func merged(_ a: ContiguousArray<Run>, _ b: [Run]) -> ContiguousArray<Run> {
        var merged = ContiguousArray<Run>()
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            let next: Run
            if j == b.count || (i < a.count && (a[i].replica, a[i].first) < (b[j].replica, b[j].first)) {
                next = a[i]
                i += 1
            } else {
                next = b[j]
                j += 1
            }
            if let last = merged.last, last.replica == next.replica, last.first + last.length == next.first,
                last.lamportStep == next.lamportStep, last.counterStep == next.counterStep,
                last.stamp(at: last.length) == next.stamp
            {
                merged[merged.count - 1].length += next.length
            } else {
                merged.append(next)
            }
        }
        return merged
    }

    /// The step from one point to the next inside a run: the row ID's counter one above or below, the
    /// delete dot of the same replica one above or below, the Lamport time the same or one apart.
    private struct Step: Equatable {
        var row: UInt64
        var counter: UInt64
        var lamport: UInt64

        /// The step from the point `a` (deleted by `s`) to `b` (deleted by `t`), or nil when it is none.
        init?(_ a: RowID, _ s: Stamp, _ b: RowID, _ t: Stamp) {
            guard a.replica == b.replica, s.dot.replica == t.dot.replica else { return nil }
            (row, counter, lamport) = (b.counter &- a.counter, t.dot.counter &- s.dot.counter, t.lamport &- s.lamport)
            guard row == 1 || row == .max, counter == 1 || counter == .max, lamport <= 1 || lamport == .max else {
                return nil
            }
        }
    }

}

extension Tombstones.Run {
    /// The run of the points `ids`, deleted by `stamps` (at least two, each step the same
    /// ``Tombstones/Step``), from its lowest row.
    fileprivate init(_ ids: Slice<UnsafeBufferPointer<RowID>>, _ stamps: Slice<UnsafeBufferPointer<Stamp>>) {
        let ascending = ids[ids.startIndex + 1].counter > ids[ids.startIndex].counter
        let lowest = ascending ? ids.startIndex : ids.endIndex - 1
        let next = ascending ? lowest + 1 : lowest - 1
        self.init(
            replica: ids[lowest].replica, first: ids[lowest].counter, length: UInt64(ids.count), stamp: stamps[lowest],
            lamportStep: Int64(bitPattern: stamps[next].lamport &- stamps[lowest].lamport),
            counterStep: Int64(bitPattern: stamps[next].dot.counter &- stamps[lowest].dot.counter))
    }
}
