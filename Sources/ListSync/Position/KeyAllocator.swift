/// Allocates position keys between neighbours so that runs stay short and never interleave.
///
/// A fresh allocation between keys `lower` and `upper` picks a prefix `T` at the shortest length that
/// leaves at least 256 candidates strictly inside the gap, near the middle of the gap with 8 bits of
/// jitter, and returns `T + RunInteger(i)` keys. Every key with prefix `T` lies inside the gap, so `T`
/// is a sub-range that belongs to this allocation: another replica allocating concurrently into the
/// same gap picks a different prefix (except with probability 1/256), and the two runs cannot
/// interleave. A block of k rows gets k keys sharing `T`.
///
/// When a replica inserts again right after a row of one of its recent runs (a forward run, like
/// appending or typing, also after deleting some of the run's rows), or right before one (a backward
/// run, like inserting repeatedly at the top), the allocator continues in that run's sub-range with the
/// next or previous run integer, so key length grows with the logarithm of the run's length instead of
/// halving the gap each time.
///
/// The allocator's run state is local to the replica and never replicated. It is pure: the jitter is
/// an input.
struct KeyAllocator: Sendable {
    /// A run: a sub-range prefix and the lowest and highest run integers allocated in it.
    private struct Run: Sendable {
        var prefix: [UInt8]
        var lowest: Int64
        var highest: Int64
    }

    /// Minimum number of candidate prefixes in the gap: 8 bits of jitter.
    static let candidates: Int64 = 256
    /// How many recent runs a replica can continue (editing in a few places in turn).
    static let runMemory = 1

    /// Recent runs, most recent first.
    private var runs: [Run] = []

    /// Creates an allocator with no run.
    init() {}

    /// Returns `count` increasing keys strictly between `lower` and `upper` (`nil` meaning the list's
    /// start or end).
    ///
    /// - Precondition: `lower < upper` when both are given, and both are valid keys.
    /// - Parameter jitter: random bits choosing where in the gap a fresh run starts.
    mutating func allocate(
        count: Int, after lower: PositionKey?, before upper: PositionKey?, jitter: UInt64
    ) -> [PositionKey] {
        precondition(count > 0, "allocate at least one key")
        if let lower, let upper { precondition(lower < upper, "allocation gap is empty: \(lower) >= \(upper)") }
        for (index, run) in runs.enumerated() {
            if let (keys, continued) = continuing(run, count: count, after: lower, before: upper) {
                runs.remove(at: index)
                runs.insert(continued, at: 0)
                return keys
            }
        }
        let prefix = Self.freshPrefix(after: lower, before: upper, jitter: jitter)
        let first = -Int64(min(count, 128) / 2)
        let integers = Self.integers(from: first, count: count, step: 1)
        runs.insert(Run(prefix: prefix, lowest: integers.first!, highest: integers.last!), at: 0)
        if runs.count > Self.runMemory { runs.removeLast() }
        return integers.map { Self.key(prefix, $0) }
    }

    /// Continues `run` when the gap starts at one of the run's keys and its next integer fits before
    /// `upper` (a forward run: typing on after one's own rows, also after deleting some of them), or
    /// when the gap ends at one of its keys and the previous integer fits after `lower` (a backward run).
    private func continuing(
        _ run: Run, count: Int, after lower: PositionKey?, before upper: PositionKey?
    ) -> ([PositionKey], Run)? {
        let limit = RunInteger.range
        if let lower, lower.isRunKey(of: run.prefix), run.highest < limit.upperBound - Int64(count) - 64 {
            let integers = Self.integers(from: run.highest + 1, count: count, step: 1)
            let keys = integers.map { Self.key(run.prefix, $0) }
            if lower < keys[0] && (upper.map { keys[keys.count - 1] < $0 } ?? true) {
                return (keys, Run(prefix: run.prefix, lowest: run.lowest, highest: integers.last!))
            }
        }
        if let upper, upper.isRunKey(of: run.prefix), run.lowest > limit.lowerBound + Int64(count) + 64 {
            let integers = Array(Self.integers(from: run.lowest - 1, count: count, step: -1).reversed())
            let keys = integers.map { Self.key(run.prefix, $0) }
            if keys[keys.count - 1] < upper && (lower.map { $0 < keys[0] } ?? true) {
                return (keys, Run(prefix: run.prefix, lowest: integers.first!, highest: run.highest))
            }
        }
        return nil
    }

    /// `count` integers from `start` in direction `step`, skipping those whose encoding ends in zero.
    private static func integers(from start: Int64, count: Int, step: Int64) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(count)
        var value = start
        while result.count < count {
            if RunInteger.endsInNonZeroByte(value) { result.append(value) }
            value += step
        }
        return result
    }

    private static func key(_ prefix: [UInt8], _ integer: Int64) -> PositionKey {
        var bytes = prefix
        RunInteger.append(integer, to: &bytes)
        return PositionKey(bytes)
    }

    /// A prefix `T` such that every key extending it lies strictly between `lower` and `upper`.
    ///
    /// Treats the first m bytes of keys as base-256 numbers: the valid m-byte prefixes are the numbers
    /// in `[lo, hi)`, where `lo` is `lower`'s first m bytes (plus one when `lower` is longer than m, since
    /// a prefix of `lower` would include keys below it) and `hi` is `upper`'s first m bytes. m grows from
    /// just past the common prefix until the gap holds ``candidates`` prefixes.
    static func freshPrefix(after lower: PositionKey?, before upper: PositionKey?, jitter: UInt64) -> [UInt8] {
        let lowerCount = lower?.count ?? 0
        func lowerByte(_ index: Int) -> Int { index < lowerCount ? Int(lower.unsafelyUnwrapped[index]) : 0 }
        var common = 0
        if let lower, let upper {
            while common < lower.count && common < upper.count && lower[common] == upper[common] { common += 1 }
        }
        let cap: Int64 = 1 << 40
        var difference: Int64 = 0  // hi - (lower's first m bytes), a base-256 number
        var length = common
        var gap: Int64 = 0
        repeat {
            length += 1
            let upperDigit: Int64
            if let upper {
                upperDigit = length - 1 < upper.count ? Int64(upper[length - 1]) : 0
            } else {
                upperDigit = length - 1 == common ? 256 : 0
            }
            difference = min(difference * 256 + upperDigit - Int64(lowerByte(length - 1)), cap)
            gap = difference - (lowerCount > length ? 1 : 0)
            precondition(length < 1 << 16, "no room between keys")
        } while gap < candidates
        let window = min(gap, candidates)
        let offset = UInt64((gap - window) / 2) + jitter % UInt64(window)
        // prefix = lower's first `length` bytes (+1 when lower is longer) + offset, in base 256.
        var prefix = (0..<length).map { UInt8(lowerByte($0)) }
        var carry = offset + (lowerCount > length ? 1 : 0)
        var index = length - 1
        while carry > 0 {
            precondition(index >= 0, "prefix overflow")
            let sum = UInt64(prefix[index]) + (carry & 0xFF)
            prefix[index] = UInt8(truncatingIfNeeded: sum)
            carry = (carry >> 8) + (sum >> 8)
            index -= 1
        }
        return prefix
    }
}
