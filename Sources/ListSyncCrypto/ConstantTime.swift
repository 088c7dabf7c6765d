/// Comparisons whose running time does not depend on the contents of secret data.
package enum ConstantTime {
    /// Returns whether `lhs` and `rhs` hold the same bytes; the time taken depends only on their lengths.
    package static func isEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}
