/// Exponential backoff with jitter for reconnecting: initial, doubled per failure, capped, then scaled by
/// a random factor in [0.5, 1) so that peers that failed together do not retry together.
public struct Backoff: Sendable, Hashable {
    /// The delay after the first failure, before jitter.
    public var initial: Duration
    /// The largest delay, before jitter.
    public var maximum: Duration
    /// Failures since the last success.
    public private(set) var failures = 0

    /// A backoff starting at `initial` and capped at `maximum`.
    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
    }

    /// Records a failure and returns the delay before the next attempt; `random` is uniform in [0, 1).
    public mutating func nextDelay(random: Double) -> Duration {
        let doubled = initial * Double(1 << min(failures, 30))
        failures += 1
        return min(doubled, maximum) * (0.5 + random / 2)
    }

    /// Records a success: the next failure waits `initial` again.
    public mutating func reset() { failures = 0 }
}

extension Duration {
    /// The duration in whole milliseconds, for log lines.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
