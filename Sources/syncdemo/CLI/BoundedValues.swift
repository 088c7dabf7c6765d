import Foundation

/// Why a value the user gave (an option, a prompt word, a scenario word) cannot be used: the value,
/// quoted, and what is accepted instead.
struct ValueError: Error, Equatable, CustomStringConvertible {
    /// What was wrong and what range is accepted.
    var description: String
}

extension Duration {
    /// The longest duration syncdemo accepts anywhere (a `wait`, a drop's `--delay`, `--load-delay`).
    static let longestAccepted = Duration.seconds(3600)

    /// What every duration error ends with.
    private static let accepted = "durations go from 0 to 1h, e.g. 500ms, 2s or 1m"

    /// Parses `250ms`, `2s`, `1.5s`, `1m` or a bare number of seconds, from 0 to 1 hour (to the millisecond).
    /// - Throws: ``ValueError`` for text that is not a finite number with a unit, a negative duration or
    ///   one longer than ``longestAccepted``; nothing is converted before the range is checked.
    init(validating text: String) throws(ValueError) {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
        guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite else {
            throw ValueError(description: "\(text.quoted) is not a duration; \(Self.accepted)")
        }
        guard number >= 0 else { throw ValueError(description: "\(text.quoted) is negative; \(Self.accepted)") }
        let milliseconds = number * unit.seconds * 1000
        guard milliseconds <= Double(Self.longestAccepted / .milliseconds(1)) else {
            throw ValueError(description: "\(text.quoted) is too long; \(Self.accepted)")
        }
        self = .milliseconds(Int64(milliseconds.rounded()))
    }
}

/// A size in bytes as the user writes it: `65536`, `512KiB`, `4MiB`, `1GiB`.
enum ByteSize {
    /// The units, largest first.
    private static let units: [(suffix: String, bytes: Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]

    /// Parses a size within `range`.
    /// - Throws: ``ValueError`` for text that is not a finite number with a unit, or a size out of `range`;
    ///   nothing is converted to an integer before the range is checked.
    static func parse(_ text: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        let accepted = "sizes go from \(format(range.lowerBound)) to \(format(range.upperBound)), e.g. 512KiB or 4MiB"
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
        guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite else {
            throw ValueError(description: "\(text.quoted) is not a size; \(accepted)")
        }
        let bytes = number * Double(unit.bytes)
        guard bytes >= Double(range.lowerBound) else {
            throw ValueError(description: "\(text.quoted) is too small; \(accepted)")
        }
        guard bytes <= Double(range.upperBound) else {
            throw ValueError(description: "\(text.quoted) is too large; \(accepted)")
        }
        return Int(bytes.rounded())
    }

    /// `4MiB` for a whole number of a unit, else the bytes: `1000 bytes`.
    static func format(_ bytes: Int) -> String {
        guard let unit = units.first(where: { bytes >= $0.bytes && bytes % $0.bytes == 0 }) else {
            return "\(bytes.formatted()) bytes"
        }
        return "\(bytes / unit.bytes)\(unit.suffix)"
    }
}
