import Foundation

/// How much a randomized test runs: its seeds, or its operations per seed. `swift test` runs each
/// test's quick size, so the whole debug suite takes minutes; `LISTSYNC_LONG=1` (the release step of
/// `.ci/run`) runs the long sizes; the test's own variable (`LISTSYNC_SEEDS=N` and the like), when it
/// holds a count, wins over both.
public enum RunSize {
    /// Whether this is the long run (`LISTSYNC_LONG=1`).
    public static let isLong = ProcessInfo.processInfo.environment["LISTSYNC_LONG"] == "1"

    /// The count in the environment variable `variable` if it holds a non-negative integer, else
    /// `long` in the long run and `quick` otherwise.
    public static func count(_ variable: String, quick: Int, long: Int) -> Int {
        ProcessInfo.processInfo.environment[variable].flatMap { Int($0) }.map { max(0, $0) }
            ?? (isLong ? long : quick)
    }

    /// `first` and the seeds after it, as many as ``count(_:quick:long:)`` says.
    public static func seeds(_ variable: String, quick: Int, long: Int, from first: UInt64 = 0) -> Range<UInt64> {
        first..<first + UInt64(count(variable, quick: quick, long: long))
    }
}
