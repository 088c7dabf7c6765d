/// An IPv4 address, as an A record carries it.
struct IPv4Address: Hashable, Sendable, CustomStringConvertible {
    /// The four bytes in network order.
    let bytes: [UInt8]

    /// The address `a.b.c.d`.
    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { bytes = [a, b, c, d] }

    /// The address made of `bytes`, if there are exactly 4.
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 4 else { return nil }
        self.bytes = Array(bytes)
    }

    /// Dotted decimal: `192.168.1.20`.
    var description: String { bytes.map(String.init).joined(separator: ".") }
}
