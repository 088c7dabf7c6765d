/// Deleted rows: their IDs and the stamp of (the least) delete, kept forever so deletes are final.
///
/// Recent deletes are kept one per row (points), found through a hash index. Once there are many
/// of them they are compacted into runs (``DeletionRun``): consecutive row IDs of one replica whose
/// delete stamps step evenly. A run is one entry, found by binary search. In the rustcode trace,
/// 457,313 deleted rows make 12,028 runs. Runs also come in whole from change sets and snapshots, so a
/// deletion of any number of rows costs one entry however it arrives.
///
/// A point may lie inside a run: a later delete of that row with a smaller stamp, which overrides the
/// run's. Points and runs never hold the same row otherwise.
struct Tombstones {
    private var index = RowIDIndex()
    private var ids: ContiguousArray<RowID> = []
    private var stamps: ContiguousArray<Stamp> = []
    /// The runs, ordered by replica, then first counter; disjoint (while a bulk load adds runs, in the
    /// order they come, until ``indexUnindexed(unlessIn:)``).
    private(set) var runs: ContiguousArray<DeletionRun> = []
    /// The rows the runs hold (saturated: runs from peers may claim any number).
    private var runRows: UInt64 = 0
    /// The points that lie inside a run.
    private var overrides = 0

    /// The fewest points a compaction looks at, and the shortest run it makes.
    private let compaction: (points: Int, shortestRun: Int)
    /// The points added before the last compaction, which looked at them: ``compact()`` looks at the
    /// others.
    private var examined = 0

    /// The longest run that ``insert(contentsOf:)`` adds row by row, as points; longer ones are merged
    /// with the runs in one pass.
    private let longestPointRun: UInt64

    /// No deleted rows. A compaction happens once `compactingAt` points (and as many as there are runs)
    /// were added since the last one; it makes runs of at least `shortestRun` rows. Runs of at most
    /// `longestPointRun` rows from change sets are added as points.
    init(compactingAt points: Int = 4_096, shortestRun: Int = 4, longestPointRun: UInt64 = 8) {
        precondition(shortestRun >= 2, "a run has a step, so at least two rows")
        compaction = (points, shortestRun)
        self.longestPointRun = longestPointRun
    }

    /// Whether no row is deleted.
    var isEmpty: Bool { ids.isEmpty && runs.isEmpty }

    /// The number of deleted rows, saturated at `UInt64.max`.
    var count: UInt64 { UInt64(ids.count - overrides).addingSaturated(runRows) }

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
        guard let offset = Self.run(holding: id, in: runs) else { return nil }
        return runs[offset].stamp(at: id.counter - runs[offset].first)
    }

    /// The offset in `runs` (ordered, disjoint) of the run holding `id`, if one does.
    /// - Complexity: O(log r) for r runs.
    static func run(holding id: RowID, in runs: some RandomAccessCollection<DeletionRun>) -> Int? {
        let after = runsStarting(atOrBefore: id, count: runs.count) { offset in
            let run = runs[runs.index(runs.startIndex, offsetBy: offset)]
            return (run.replica.rawValue, run.first)
        }
        guard after > 0, runs[runs.index(runs.startIndex, offsetBy: after - 1)].contains(id) else { return nil }
        return after - 1
    }

    /// The number of runs whose first row is `id` or before it, of `count` runs ordered by their first
    /// rows, `first(offset)` the replica and counter of the first row of the run at `offset`: the last of
    /// them is the only run that can hold `id`.
    /// - Complexity: O(log count).
    @inline(__always)
    static func runsStarting(
        atOrBefore id: RowID, count: Int, first: (Int) -> (replica: UInt64, counter: UInt64)
    ) -> Int {
        let wanted = (replica: id.replica.rawValue, counter: id.counter)
        var (low, high) = (0, count)
        while low < high {
            let middle = (low &+ high) &>> 1
            if first(middle) <= wanted { low = middle &+ 1 } else { high = middle }
        }
        return low
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

    /// Records the deletes of `deleted` (ordered, disjoint runs, as a change set holds them); of two
    /// deletes of a row the smaller stamp is kept. Runs of at most ``longestPointRun`` rows are added row
    /// by row; the others are merged with the runs in one pass, whatever their lengths.
    /// - Complexity: O(k) for k rows in short runs, plus O(r + s + min(m, p log s)) when there are s
    ///   longer runs of m rows in all, for r runs and p points kept.
    mutating func insert(contentsOf deleted: [DeletionRun]) {
        var long: [DeletionRun] = []
        for run in deleted {
            guard run.length <= longestPointRun else {
                long.append(run)
                continue
            }
            for offset in 0..<run.length {
                insert(RowID(replica: run.replica, counter: run.first + offset), deletedBy: run.stamp(at: offset))
            }
        }
        guard !long.isEmpty else { return }
        // The points inside the new runs: each keeps the least of its stamp and the run's. One that is not
        // below the run's is dropped (the run says it); one below stays, and is inside a run from now on.
        var dropped: [Int] = []
        forEachPoint(in: long) { offset, run in
            let id = ids[offset]
            let wasOverride = overrides > 0 && runStamp(of: id) != nil
            if run.stamp(at: id.counter - run.first) <= stamps[offset] {
                dropped.append(offset)
                if wasOverride { overrides -= 1 }
            } else if !wasOverride {
                overrides += 1
            }
        }
        runs = Self.least(runs, long)
        runRows = runs.reduce(0) { $0.addingSaturated($1.length) }
        if !dropped.isEmpty { removePoints(at: dropped.sorted()) }
    }

    /// Calls `body` with the offset of each point inside one of `runs` (ordered, disjoint) and that run:
    /// looking up the rows of the runs, or going through the points, whichever is less work.
    private func forEachPoint(in runs: [DeletionRun], _ body: (Int, DeletionRun) -> Void) {
        let rows = runs.reduce(UInt64(0)) { $0.addingSaturated($1.length) }
        if rows <= UInt64(ids.count) {
            for run in runs {
                for counter in run.first..<run.end {
                    if let slot = slot(of: RowID(replica: run.replica, counter: counter)) { body(Int(slot), run) }
                }
            }
        } else {
            for offset in ids.indices {
                if let holder = Self.run(holding: ids[offset], in: runs) { body(offset, runs[holder]) }
            }
        }
    }

    /// Removes the points at `offsets` (ascending) and indexes the others again.
    private mutating func removePoints(at offsets: [Int]) {
        var kept = ContiguousArray<RowID>()
        var keptStamps = ContiguousArray<Stamp>()
        kept.reserveCapacity(ids.count - offsets.count)
        keptStamps.reserveCapacity(ids.count - offsets.count)
        var next = 0
        var examinedKept = 0
        for offset in ids.indices {
            if next < offsets.count && offsets[next] == offset {
                next += 1
                continue
            }
            if offset < examined { examinedKept += 1 }
            kept.append(ids[offset])
            keptStamps.append(stamps[offset])
        }
        (ids, stamps, examined) = (kept, keptStamps, examinedKept)
        index = RowIDIndex()
        let unique = ids.withUnsafeBufferPointer { ids in
            index.insert(contentsOf: 0..<Int32(ids.count), id: { ids[Int($0)] })
        }
        precondition(unique, "points are unique")
    }

    /// The runs of `a` and `b` (each ordered and disjoint, but overlapping each other) as one ordered,
    /// disjoint array in which every row has the least of its delete stamps in `a` and `b`.
    /// - Complexity: O(r + s) for r and s runs.
    private static func least(_ a: ContiguousArray<DeletionRun>, _ b: [DeletionRun]) -> ContiguousArray<DeletionRun> {
        var result = ContiguousArray<DeletionRun>()
        result.reserveCapacity(a.count + b.count)
        func emit(_ run: DeletionRun) {
            guard run.length > 0 else { return }
            if let last = result.last, last.replica == run.replica, last.end == run.first, last.length > 1,
                run.length > 1, (last.lamportStep, last.counterStep) == (run.lamportStep, run.counterStep),
                last.stamp(at: last.length) == run.stamp
            {
                result[result.count - 1].length += run.length
            } else {
                result.append(run)
            }
        }
        var (i, j) = (0, 0)
        var x = a.first
        var y = b.first
        func nextX() {
            i += 1
            x = i < a.count ? a[i] : nil
        }
        func nextY() {
            j += 1
            y = j < b.count ? b[j] : nil
        }
        while let left = x ?? y {
            guard let p = x, let q = y else {
                emit(left)
                if x != nil { nextX() } else { nextY() }
                continue
            }
            if p.replica != q.replica || p.end <= q.first || q.end <= p.first {
                // Apart: the earlier first.
                if (p.replica, p.first) < (q.replica, q.first) {
                    emit(p)
                    nextX()
                } else {
                    emit(q)
                    nextY()
                }
            } else if p.first != q.first {
                // Overlapping: the rows before the other run starts.
                let (earlier, later) = p.first < q.first ? (p, q) : (q, p)
                let before = later.first - earlier.first
                emit(earlier.slice(from: 0, count: before))
                let rest = earlier.slice(from: before, count: earlier.length - before)
                if p.first < q.first { x = rest } else { y = rest }
            } else {
                // The same first row: the shared rows take the least stamps, the longer run goes on.
                let shared = min(p.length, q.length)
                for piece in leastOfRuns(p.slice(from: 0, count: shared), q.slice(from: 0, count: shared)) {
                    emit(piece)
                }
                if p.length > shared { x = p.slice(from: shared, count: p.length - shared) } else { nextX() }
                if q.length > shared { y = q.slice(from: shared, count: q.length - shared) } else { nextY() }
            }
        }
        return result
    }

    /// Two runs of the same rows as pieces, in order, each taking for its rows the run with the smaller
    /// stamps. Stamps compare by Lamport time, then dot; along the rows the difference of the Lamport
    /// times and that of the counters each change linearly, so each changes sign at most once and at
    /// most five pieces come out.
    private static func leastOfRuns(_ p: DeletionRun, _ q: DeletionRun) -> [DeletionRun] {
        var cuts: [UInt64] = [0, p.length]
        /// The offsets where `start + step × t` may change sign (t ≥ 0), for `|step| ≤ 2`.
        func addCuts(start: Int64, step: Int64) {
            guard step != 0 else { return }
            // The root is -start / step: the first offsets at or past it, and past it.
            let numerator = -start
            let floor = numerator / step - (numerator % step != 0 && (numerator < 0) != (step < 0) ? 1 : 0)
            let ceiling = numerator % step == 0 ? floor : floor + 1
            for cut in [ceiling, floor + 1] where cut > 0 && UInt64(cut) < p.length { cuts.append(UInt64(cut)) }
        }
        addCuts(
            start: Int64(bitPattern: q.stamp.lamport &- p.stamp.lamport), step: q.lamportStep - p.lamportStep)
        addCuts(
            start: Int64(bitPattern: q.stamp.dot.counter &- p.stamp.dot.counter), step: q.counterStep - p.counterStep)
        cuts.sort()
        var pieces: [DeletionRun] = []
        for (start, end) in zip(cuts, cuts.dropFirst()) where start < end {
            let winner = q.stamp(at: start) < p.stamp(at: start) ? q : p
            pieces.append(winner.slice(from: start, count: end - start))
        }
        return pieces
    }

    /// Adds a tombstone without indexing its ID: for a bulk load, which then calls
    /// ``indexUnindexed(unlessIn:)``. Until then the tombstone is not found by ID.
    mutating func insertUnindexed(_ id: RowID, deletedBy stamp: Stamp) {
        ids.append(id)
        stamps.append(stamp)
    }

    /// Adds the rows of `run` as ``insertUnindexed(_:deletedBy:)`` does, as one entry unless it is one row.
    mutating func insertUnindexed(_ run: DeletionRun) {
        guard run.length > 1 else {
            return insertUnindexed(RowID(replica: run.replica, counter: run.first), deletedBy: run.stamp)
        }
        runs.append(run)
        runRows = runRows.addingSaturated(run.length)
    }

    /// Indexes the tombstones added by ``insertUnindexed(_:deletedBy:)`` and ``insertUnindexed(_:)``,
    /// compacting the points first when there are many; returns false, leaving the index incomplete,
    /// when two share a row or one is a row of `rows`. Tight loops, as in
    /// ``RowTable/indexUnindexedRows()``.
    /// - Precondition: no tombstone was added otherwise (a bulk load is into an empty replica).
    mutating func indexUnindexed(unlessIn rows: borrowing RowTable) -> Bool {
        precondition(index.count == 0 && overrides == 0, "a bulk load of tombstones beside others")
        runs.sort { ($0.replica, $0.first) < ($1.replica, $1.first) }
        if ids.count >= compaction.points { replace(0..<ids.count, with: findRuns(in: 0..<ids.count)) }
        examined = ids.count
        // A row twice: two runs that overlap (also two points compacted into runs), a point inside a run,
        // two points (the index finds them).
        let disjoint = runs.indices.dropFirst().allSatisfy { offset in
            let (previous, run) = (runs[offset - 1], runs[offset])
            return previous.replica != run.replica || previous.end <= run.first
        }
        guard disjoint, ids.allSatisfy({ runStamp(of: $0) == nil }) else { return false }
        guard !ids.withUnsafeBufferPointer({ rows.containsAny(of: $0) }), rows.slots(in: runs).isEmpty else {
            return false
        }
        return ids.withUnsafeBufferPointer { ids in
            index.insert(contentsOf: 0..<Int32(ids.count), id: { ids[Int($0)] })
        }
    }

    /// The deleted rows whose delete `vector` does not cover (nil: all), in canonical runs
    /// (``DeletionRun/Canonical``): what a replica that has seen `vector` lacks of them.
    /// - Complexity: O(p log p + r) for p points and r runs, plus the pieces coverage cuts them into.
    func deletions(notCoveredBy vector: VersionVector?) -> [DeletionRun] {
        var canonical = DeletionRun.Canonical()
        func add(_ piece: DeletionRun) {
            guard piece.length > 0 else { return }
            guard let vector, let covered = vector.ranges[piece.stamp.dot.replica] else {
                return canonical.append(piece)
            }
            var pieces = covered.gaps(in: piece.dotCounters).map { counters in
                let offsets = piece.offsets(ofDotCounters: counters)
                return piece.slice(from: offsets.lowerBound, count: UInt64(offsets.count))
            }
            if piece.counterStep < 0 { pieces.reverse() }  // dot counters fall as the rows rise
            for piece in pieces { canonical.append(piece) }
        }
        let points = ids.indices.sorted { ids[$0] < ids[$1] }
        var next = 0  // the next point, in row order
        for run in runs {
            var start = run.first  // the first row of the run not added yet
            while next < points.count && ids[points[next]] < RowID(replica: run.replica, counter: run.end) {
                let id = ids[points[next]]
                if run.contains(id) {
                    // A point inside the run overrides it: the run's rows before it, then the point.
                    add(run.slice(from: start - run.first, count: id.counter - start))
                    start = id.counter + 1
                }
                add(DeletionRun(id, deletedBy: stamps[points[next]]))
                next += 1
            }
            if start < run.end { add(run.slice(from: start - run.first, count: run.end - start)) }
        }
        for point in points[next...] { add(DeletionRun(ids[point], deletedBy: stamps[point])) }
        return canonical.runs
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
    ) -> (runs: [DeletionRun], keptIDs: ContiguousArray<RowID>, keptStamps: ContiguousArray<Stamp>) {
        var keptIDs = ContiguousArray<RowID>()
        var keptStamps = ContiguousArray<Stamp>()
        var made: [DeletionRun] = []
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
                        made.append(DeletionRun(ids[start..<end], stamps[start..<end]))
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
        with found: (runs: [DeletionRun], keptIDs: ContiguousArray<RowID>, keptStamps: ContiguousArray<Stamp>)
    ) {
        runRows = found.runs.reduce(runRows) { $0.addingSaturated($1.length) }
        runs = Self.merged(runs, found.runs.sorted { ($0.replica, $0.first) < ($1.replica, $1.first) })
        ids.replaceSubrange(tail, with: found.keptIDs)
        stamps.replaceSubrange(tail, with: found.keptStamps)
    }

    /// The runs of `a` and `b` (each ordered, disjoint from the other) in one ordered array, a run that
    /// continues the one before it joined to it (a block compacted in two parts).
    private static func merged(_ a: ContiguousArray<DeletionRun>, _ b: [DeletionRun]) -> ContiguousArray<DeletionRun> {
        var merged = ContiguousArray<DeletionRun>()
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            let next: DeletionRun
            if j == b.count || (i < a.count && (a[i].replica, a[i].first) < (b[j].replica, b[j].first)) {
                next = a[i]
                i += 1
            } else {
                next = b[j]
                j += 1
            }
            if let last = merged.last, last.replica == next.replica, last.end == next.first,
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

extension DeletionRun {
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
