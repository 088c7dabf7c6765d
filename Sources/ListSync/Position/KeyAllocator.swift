/// Allocates position keys between neighbours so that runs stay short and never interleave.
///
/// Keys follow ``KeyGrammar``: levels of a sub-range `T`, the allocating replica's tag and a run
/// integer. A fresh allocation of k rows between keys `lower` and `upper` gives them k keys that share
/// one prefix ending in this replica's tag, at the first level where the bounds differ or one level
/// deeper along `lower`; every key with that prefix lies inside the gap. Another replica allocating
/// into the same gap concurrently computes the same level and writes its own tag there, so the two
/// runs' keys lie in disjoint intervals and never interleave, whatever happens next: no randomness, no
/// probability (docs/interleaving.md has the argument).
///
/// When a replica inserts again right after a row of one of its two most recent runs (a forward run,
/// like appending or typing, also after deleting some of the run's rows), or right before one (a
/// backward run, like inserting repeatedly at the top), the allocator continues in that run's sub-range
/// with the next or previous run integer, so key length grows with the logarithm of the run's length
/// instead of halving the gap each time. Two runs, because writers go back: they fix a typo a few words
/// earlier and carry on typing where they were, which then continues the run instead of nesting a new
/// one inside it (the clownschool trace's keys average 8 bytes instead of 32).
///
/// The allocator's run state is local to the replica and never replicated. It is pure.
struct KeyAllocator: Sendable {
    /// A run: a sub-range prefix and the lowest and highest run integers allocated in it.
    private struct Run: Sendable {
        var prefix: PositionKey
        var lowest: Int64
        var highest: Int64
    }

    /// This replica's tag, a label of its ``ReplicaLabels``, kept as a key: compared and appended
    /// without an array.
    private let tag: PositionKey

    /// The most recent run and the one before it, which the next allocation may continue; none while
    /// the prefix is empty.
    private var run = Run(prefix: .empty, lowest: 0, highest: 0)
    private var previousRun = Run(prefix: .empty, lowest: 0, highest: 0)

    /// Creates an allocator with no run, for the replica labelled `tag`.
    init(tag: PositionKey) { self.tag = tag }

    /// Appends to `keys` `count` increasing keys strictly between `lower` and `upper`, where an empty
    /// key (``PositionKey/empty``) stands for the list's start or end.
    ///
    /// Bounds are not optional: copying an optional key costs a generic value-witness call.
    /// - Precondition: `lower < upper` when both are given, and both are valid labelled keys.
    mutating func allocate(
        count: Int, after lower: PositionKey, before upper: PositionKey, into keys: inout [PositionKey]
    ) {
        precondition(count > 0, "allocate at least one key")
        if lower.count > 0 && upper.count > 0 {
            precondition(lower < upper, "allocation gap is empty: \(lower) >= \(upper)")
        }
        if Self.extend(&run, count: count, after: lower, before: upper, into: &keys) { return }
        if Self.borders(previousRun, lower, upper),
            Self.extend(&previousRun, count: count, after: lower, before: upper, into: &keys)
        {
            swap(&run, &previousRun)
            return
        }
        let start = keys.count
        var (prefix, integer) = Self.freshRun(count: count, after: lower, before: upper, tag: tag)
        var (first, last) = Self.appendKeys(prefix, from: integer, count: count, step: 1, to: &keys)
        if !(lower.count == 0 || lower < keys[start]) || !(upper.count == 0 || keys[keys.count - 1] < upper) {
            // The integers chosen next to a bound's ran into it (a block too large for the room left).
            keys.removeSubrange(start...)
            (prefix, integer) = Self.nestedRun(count: count, after: lower, before: upper, tag: tag)
            (first, last) = Self.appendKeys(prefix, from: integer, count: count, step: 1, to: &keys)
        }
        swap(&previousRun, &run)
        run = Run(prefix: prefix, lowest: first, highest: last)
    }

    /// Appends to `keys`, as ``allocate(count:after:before:into:)`` does, `count` keys right after a key
    /// of the latest allocation's run whose integer is at most the run's highest (the caller knows the
    /// row before the gap is one the latest allocation placed, with its key unchanged), and before
    /// `upper`; returns false, leaving `keys` as it was, when they do not fit there (for
    /// ``allocate(count:after:before:into:)`` with the lower bound's key).
    mutating func continueRun(count: Int, before upper: PositionKey, into keys: inout [PositionKey]) -> Bool {
        precondition(count > 0, "allocate at least one key")
        return Self.extendForward(&run, count: count, after: .empty, before: upper, into: &keys)
    }

    /// Whether `lower` or `upper` is a key of `run`, which ``extend(_:count:after:before:into:)`` needs: a
    /// check cheap enough for every allocation.
    @inline(__always)
    private static func borders(_ run: Run, _ lower: PositionKey, _ upper: PositionKey) -> Bool {
        run.prefix.count > 0 && (lower.isRunKey(of: run.prefix) || upper.isRunKey(of: run.prefix))
    }

    /// Continues `run` when the gap starts at one of the run's keys and its next integer fits before
    /// `upper` (a forward run: typing on after one's own rows, also after deleting some of them), or
    /// when the gap ends at one of its keys and the previous integer fits after `lower` (a backward run).
    /// Appends the keys, extends the run and returns true, or returns false and leaves `keys` as it was.
    private static func extend(
        _ run: inout Run, count: Int, after lower: PositionKey, before upper: PositionKey,
        into keys: inout [PositionKey]
    ) -> Bool {
        guard run.prefix.count > 0 else { return false }
        let limit = RunInteger.decodableRange  // what every peer reads back
        let start = keys.count
        if lower.count > 0, lower.isRunKey(of: run.prefix),
            extendForward(&run, count: count, after: lower, before: upper, into: &keys)
        {
            return true
        }
        if upper.count > 0, run.lowest > limit.lowerBound + Int64(count) + 64, upper.isRunKey(of: run.prefix) {
            let (lowest, _) = Self.appendKeys(run.prefix, from: run.lowest - 1, count: count, step: -1, to: &keys)
            if keys[keys.count - 1] < upper && (lower.count == 0 || lower < keys[start]) {
                run.lowest = lowest
                return true
            }
            keys.removeSubrange(start...)
        }
        return false
    }

    /// Continues `run` forward after `lower` (a key of the run; empty when the caller knows it is one
    /// whose integer is at most the run's highest) and before `upper`: appends the keys, extends the run
    /// and returns true, or returns false and leaves `keys` as it was.
    private static func extendForward(
        _ run: inout Run, count: Int, after lower: PositionKey, before upper: PositionKey,
        into keys: inout [PositionKey]
    ) -> Bool {
        guard run.prefix.count > 0, run.highest < RunInteger.decodableRange.upperBound - Int64(count) - 64
        else { return false }
        let start = keys.count
        let (_, highest) = Self.appendKeys(run.prefix, from: run.highest + 1, count: count, step: 1, to: &keys)
        guard (lower.count == 0 || lower < keys[start]) && (upper.count == 0 || keys[keys.count - 1] < upper) else {
            keys.removeSubrange(start...)
            return false
        }
        run.highest = highest
        return true
    }

    /// Appends the keys `prefix + RunInteger(i)` for `count` integers `i` from `start` in direction
    /// `step`, skipping those whose encoding ends in zero, in increasing order; returns the lowest and
    /// highest `i`.
    private static func appendKeys(
        _ prefix: PositionKey, from start: Int64, count: Int, step: Int64, to keys: inout [PositionKey]
    ) -> (lowest: Int64, highest: Int64) {
        let first = keys.count
        keys.reserveCapacity(first + count)
        var value = start
        var (lowest, highest) = (Int64.max, Int64.min)
        while keys.count - first < count {
            if RunInteger.endsInNonZeroByte(value) {
                var key = prefix
                RunInteger.append(value, to: &key)
                keys.append(key)
                (lowest, highest) = (min(lowest, value), max(highest, value))
            }
            value += step
        }
        if step < 0 { keys[first...].reverse() }
        return (lowest, highest)
    }

    /// The prefix and first integer of a fresh run of `count` keys between `lower` and `upper` (empty:
    /// the list's start or end), at the first level `j` where they differ, with `a` and `b` their levels
    /// there:
    /// - `a` and `b` share `T` and this replica's tag, with room between their integers: the integers
    ///   between, at the middle;
    /// - `a` and `b` share `T`, and this replica's tag is `a`'s, `b`'s or between theirs: after `a`'s
    ///   integer, before `b`'s, or centred on 0;
    /// - `a` and `b` differ in `T`: a `T` between theirs;
    /// - otherwise one level deeper along `lower`, above its level `j + 1` (past level `j`, `upper` bounds
    ///   nothing), or nested under `lower` when it has no such level (``nestedRun(count:after:before:tag:)``).
    /// `lower` a proper prefix of `upper` (or the start of the list), or `upper` the list's end: see
    /// ``nestedRun(count:after:before:tag:)`` and the code. Every choice depends only on the bounds and on how
    /// this replica's ID compares with the tags in them, so two replicas allocating into one gap choose
    /// the same level, and their tags there keep their runs apart.
    private static func freshRun(
        count: Int, after lower: PositionKey, before upper: PositionKey, tag: PositionKey
    ) -> (prefix: PositionKey, integer: Int64) {
        let center = -Int64(min(count, 128) / 2)
        // The first level at which the bounds differ, `a` in `lower` and `b` in `upper`, read in step
        // (no arrays: this runs for every fresh allocation).
        let common = lower.commonPrefixCount(with: upper)
        var shared = 0
        var a: KeyGrammar.Level?
        while true {
            a = shared < lower.count ? KeyGrammar.level(of: lower, at: shared, tags: .label) : nil
            // A level of `lower` inside the bytes both share is also `upper`'s: it need not be read twice.
            guard let level = a, common >= level.end, level.end < upper.count else { break }
            shared = level.end
        }
        guard let a else {
            // `lower` is the list's start or a proper prefix of `upper` (whose next level nestedRun reads).
            return nestedRun(count: count, after: lower, before: upper, tag: tag)
        }
        // Where `a`'s `T` and tag lie inside the bytes both share, they are also `b`'s: only `b`'s integer
        // is read, and its tag compares with this replica's like `a`'s.
        let sharesTag = common >= a.integerStart
        var b: KeyGrammar.Level?
        if sharesTag {
            b = KeyGrammar.level(of: upper, sharingPartsOf: a)
        } else if shared < upper.count {
            b = KeyGrammar.level(of: upper, at: shared, tags: .label)
        }
        guard let b else {
            // `upper` is the list's end: a `T` above `a`'s.
            var prefix = lower.prefix(a.start)
            appendAbove(lower, a, tag: tag, to: &prefix)
            return (prefix, center)
        }
        if a.tagStart == b.tagStart && common >= a.tagStart {
            // The same `T`: the first integer, when this level has room for the run, then the prefix.
            let aTag = KeyGrammar.compare(tag, lower, a.tagStart..<a.integerStart)
            let bTag = sharesTag ? aTag : KeyGrammar.compare(tag, upper, b.tagStart..<b.integerStart)
            var integer: Int64?
            // Integers are decoded only where they are used (the bounds are valid keys).
            if aTag == 0 && bTag == 0 {
                let low = a.integer(in: lower)!
                let room = b.integer(in: upper)! - low - 1
                if room >= Int64(count) + Int64(count) / 128 {
                    integer = low + 1 + (room - Int64(count)) / 2
                }
            } else if aTag == 0 {
                // Integers only where every peer reads them back (RunInteger.decodableRange).
                let low = a.integer(in: lower)!
                if low + 2 * Int64(count) + 2 < RunInteger.decodableRange.upperBound {
                    integer = low + 1
                }
            } else if bTag == 0 {
                integer = Self.integer(before: b.integer(in: upper)!, count: count)
            } else if aTag > 0 && bTag < 0 {
                integer = center
            }
            if let integer {
                var prefix = lower.prefix(a.tagStart)
                prefix.append(contentsOf: tag)
                return (prefix, integer)
            }
        } else {
            var prefix = lower.prefix(shared)
            KeyGrammar.appendBetween(
                lower, a.start..<a.tagStart, upper, b.start..<b.tagStart, base: KeyGrammar.digitBase, offset: 0x40,
                to: &prefix)
            prefix.append(contentsOf: tag)
            return (prefix, center)
        }
        if a.end < lower.count, let next = KeyGrammar.level(of: lower, at: a.end, tags: .label) {
            // One level deeper along `lower`: above its next level, under its levels up to `j`.
            var prefix = lower.prefix(a.end)
            appendAbove(lower, next, tag: tag, to: &prefix)
            return (prefix, center)
        }
        return nestedRun(count: count, after: lower, before: upper, tag: tag)
    }

    /// The first integer of a fresh run of `count` keys before a key of this replica's level whose integer
    /// is `high`, leaving room below `high` for a backward run; nil when the run would leave the integers
    /// every peer reads back (``RunInteger/decodableRange``).
    private static func integer(before high: Int64, count: Int) -> Int64? {
        guard high - 16 - 2 * Int64(count) > RunInteger.decodableRange.lowerBound else { return nil }
        return high - 16 - Int64(count) - Int64(count) / 128
    }

    /// Appends a `T` above that of `level` in `key`, then this replica's tag.
    private static func appendAbove(
        _ key: PositionKey, _ level: KeyGrammar.Level, tag: PositionKey, to prefix: inout PositionKey
    ) {
        if level.tagStart == level.start {
            // Above the empty `T`: the middle digit, without the arithmetic.
            prefix.append(0x40 + UInt8(KeyGrammar.digitBase))
            prefix.append(contentsOf: tag)
            return
        }
        KeyGrammar.appendBetween(
            key, level.start..<level.tagStart, .empty, nil, base: KeyGrammar.digitBase, offset: 0x40, to: &prefix)
        prefix.append(contentsOf: tag)
    }

    /// The prefix and first integer of a run nested right under `lower`, below `upper`: `lower + tag`
    /// when `lower` is not a prefix of `upper` (every key extending `lower` is then below `upper`); when
    /// it is (or `lower` is the list's start), `lower + tag` if this level sorts below `upper`'s next
    /// level (an empty `T` below a `T`, a lower tag, or this replica's tag with integers before `upper`'s),
    /// else under a structural level below `upper`'s: `lower + (0x00, i) + tag`.
    ///
    /// `lower` is consumed: the prefix is built in it (copied here, it went through a generic value
    /// witness for its tail).
    private static func nestedRun(
        count: Int, after lower: consuming PositionKey, before upper: PositionKey, tag: PositionKey
    ) -> (prefix: PositionKey, integer: Int64) {
        let center = -Int64(min(count, 128) / 2)
        var prefix = lower
        guard upper.count > 0, upper.hasPrefix(prefix),
            let b = KeyGrammar.level(of: upper, at: prefix.count, tags: .label)
        else {
            prefix.append(contentsOf: tag)
            return (prefix, center)
        }
        let bTag = KeyGrammar.compare(tag, upper, b.tagStart..<b.integerStart)
        if b.tagStart > b.start || bTag < 0 {
            prefix.append(contentsOf: tag)
            return (prefix, center)
        }
        let structuralTag = upper.byte(at: b.tagStart) == KeyGrammar.structural
        // `b`'s integer matters only under this replica's tag or the structural one.
        let high = bTag == 0 || structuralTag ? b.integer(in: upper)! : 0
        if bTag == 0, let integer = Self.integer(before: high, count: count) {
            prefix.append(contentsOf: tag)
            return (prefix, integer)
        }
        if structuralTag && high == RunInteger.decodableRange.lowerBound {
            // No structural level below `b`: under `b`, below `upper`'s next level (decoders refuse a
            // key that ends in this level, so `upper` has one).
            return nestedRun(count: count, after: upper.prefix(b.end), before: upper, tag: tag)
        }
        prefix.append(KeyGrammar.structural)
        RunInteger.append(structuralTag ? high - 1 : 0, to: &prefix)
        prefix.append(contentsOf: tag)
        return (prefix, center)
    }
}
