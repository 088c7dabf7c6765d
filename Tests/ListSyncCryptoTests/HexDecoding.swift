extension Array where Element == UInt8 {
    /// Decodes hex digits, skipping spaces, newlines and colons; traps on any other character or an odd digit count.
    init(hex: String) {
        let digits = hex.unicodeScalars.filter { !" \n:".unicodeScalars.contains($0) }.map { scalar -> UInt8 in
            guard let value = UInt8(String(scalar), radix: 16) else {
                preconditionFailure("invalid hex digit \(scalar) in test vector")
            }
            return value
        }
        precondition(digits.count.isMultiple(of: 2), "odd number of hex digits in test vector")
        self = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
