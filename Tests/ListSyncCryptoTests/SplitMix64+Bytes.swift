import ListSync

extension SplitMix64 {
    /// Returns `count` pseudorandom bytes.
    mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}
