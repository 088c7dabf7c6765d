/// Allocates position keys between neighbours so that runs stay short and never interleave.
///
/// A fresh allocation between keys `lower` and `upper` picks a prefix `T` at the shortest length that
/// leaves at least 256 candidates strictly inside the gap, near the middle of the gap with 8 bits of
/// jitter, and returns `T + RunInteger(i)` keys. Every key with prefix `T` lies inside the gap, so `T`
/// is a sub-range that belongs to this allocation: another replica allocating concurrently into the
/// same gap picks a different prefix (except with probability 1/256), and the two runs cannot
/// interleave. A block of k rows gets k keys sharing `T`.
///
/// When a replica inserts again right after a row of one of its two most recent runs (a forward run,
/// like appending or typing, also after deleting some of the run's rows), or right before one (a
/// backward run, like inserting repeatedly at the top), the allocator continues in that run's sub-range
/// with the next or previous run integer, so key length grows with the logarithm of the run's length
/// instead of halving the gap each time. Two runs, because writers go back: they fix a typo a few words
/// earlier and carry on typing where they were, which then continues the run instead of nesting a new
/// one inside it (the clownschool trace's keys average 8.2 bytes instead of 32.1).
///
/// The allocator's run state is local to the replica and never replicated. It is pure: the jitter is
/// an input.
struct KeyAllocator: Sendable {
    /// A run: a sub-range prefix and the lowest and highest run integers allocated in it.
    private struct Run: Sendable {
        var prefix: PositionKey
        var lowest: Int64
        var highest: Int64
    }

    /// Minimum number of candidate prefixes in the gap: 8 bits of jitter.
    static let candidates: Int64 = 256

    /// The most recent run and the one before it, which the next allocation may continue; none while
    /// the prefix is empty.
    private var run = Run(prefix: .empty, lowest: 0, highest: 0)
    private var previousRun = Run(prefix: .empty, lowest: 0, highest: 0)

    /// Creates an allocator with no run.
    init() {}

    /// Appends to `keys` `count` increasing keys strictly between `lower` and `upper`, where an empty
    /// key (``PositionKey/empty``) stands for the list's start or end.
    ///
    /// Bounds are not optional: copying an optional key costs a generic value-witness call.
    /// - Precondition: `lower < upper` when both are given, and both are valid keys.
    /// - Parameter jitter: random bits choosing where in the gap a fresh run starts.
    mutating func allocate(
        count: Int, after lower: PositionKey, before upper: PositionKey, jitter: UInt64, into keys: inout [PositionKey]
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
        let prefix = Self.freshPrefix(after: lower, before: upper, jitter: jitter)
        let (first, last) = Self.appendKeys(prefix, from: -Int64(min(count, 128) / 2), count: count, step: 1, to: &keys)
        swap(&previousRun, &run)
        run = Run(prefix: prefix, lowest: first, highest: last)
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
        let limit = RunInteger.range
        let start = keys.count
        if lower.count > 0, run.highest < limit.upperBound - Int64(count) - 64, lower.isRunKey(of: run.prefix) {
            let (_, highest) = Self.appendKeys(run.prefix, from: run.highest + 1, count: count, step: 1, to: &keys)
            if lower < keys[start] && (upper.count == 0 || keys[keys.count - 1] < upper) {
                run.highest = highest
                return true
            }
            keys.removeSubrange(start...)
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

    /// A prefix `T` such that every key extending it lies strictly between `lower` and `upper`.
    ///
    /// Treats the first m bytes of keys as base-256 numbers: the valid m-byte prefixes are the numbers
    /// in `[lo, hi)`, where `lo` is `lower`'s first m bytes (plus one when `lower` is longer than m, since
    /// a prefix of `lower` would include keys below it) and `hi` is `upper`'s first m bytes. m grows from
    /// just past the common prefix until the gap holds ``candidates`` prefixes. Up to seven bytes, both
    /// numbers are read from the keys' first words at once; past that, the difference grows a digit at a
    /// time.
    static func freshPrefix(after lower: PositionKey, before upper: PositionKey, jitter: UInt64) -> PositionKey {
        let common = upper.count == 0 ? 0 : lower.commonPrefixCount(with: upper)
        let cap: Int64 = 1 << 40
        var difference: Int64 = 0  // hi - (lower's first m bytes), a base-256 number
        var length = common
        var gap: Int64 = 0
        repeat {
            if length < 7 {
                // The first `length + 1` bytes as numbers below 2^56; past a key's end its digits are zero,
                // and the list's end is 256^(length + 1).
                let shift = UInt64(56 - 8 * length)
                let upperDigits = upper.count == 0 ? Int64(1) << (64 - shift) : Int64(upper.word0 >> shift)
                difference = upperDigits - Int64(lower.word0 >> shift)
            } else {
                let upperDigit = length < upper.count ? Int64(upper.byte(at: length)) : 0
                let lowerDigit = length < lower.count ? Int64(lower.byte(at: length)) : 0
                difference = min(difference * 256 + upperDigit - lowerDigit, cap)
            }
            length += 1
            gap = difference - (lower.count > length ? 1 : 0)
            precondition(length < 1 << 16, "no room between keys")
        } while gap < candidates
        let window = min(gap, candidates)
        let offset = UInt64((gap - window) / 2) + jitter % UInt64(window)
        // prefix = lower's first `length` bytes (+1 when lower is longer) + offset, in base 256.
        return lower.prefix(length, plus: offset + (lower.count > length ? 1 : 0))
    }
}
