/// An IPv6 address, as an AAAA record carries it (without a scope: a link-local address is used with the
/// interface it was received on).
struct IPv6Address: Hashable, Sendable, CustomStringConvertible {
    /// The sixteen bytes in network order.
    let bytes: [UInt8]

    /// The address made of `bytes`, if there are exactly 16.
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Whether this is a link-local unicast address (`fe80::/10`), usable only with an interface.
    var isLinkLocal: Bool { bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 }

    /// The text form of RFC 5952: lower-case hexadecimal groups, the longest run of two or more zero
    /// groups (the first of equal runs) written `::`, as in `fe80::1`.
    var description: String {
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var best = 0..<0
        var runStart: Int?
        for index in 0...8 {
            if index < 8, groups[index] == 0 {
                runStart = runStart ?? index
            } else if let start = runStart {
                if index - start > best.count { best = start..<index }
                runStart = nil
            }
        }
        func text(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        return best.count >= 2 ? text(0..<best.lowerBound) + "::" + text(best.upperBound..<8) : text(0..<8)
    }
}
