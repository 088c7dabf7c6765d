import Testing

@testable import ListSync

/// The word-level helpers of position keys against their byte-by-byte definitions.
struct PositionKeyInternalsTests {
    @Test func commonPrefixAndPrefixMatchTheBytes() {
        var generator = SplitMix64(seed: 9)
        func randomKey() -> [UInt8] {
            let length = Int(generator.next() % 40) + 1
            // Few distinct bytes, so long shared prefixes across the inline words and the tail are common.
            var bytes = (0..<length).map { _ in UInt8(generator.next() % 2) }
            bytes[length - 1] = 1 + UInt8(generator.next() % 2)
            return bytes
        }
        for _ in 0..<20_000 {
            let a = randomKey()
            let b = randomKey()
            let shared = zip(a, b).prefix { $0 == $1 }.count
            #expect(PositionKey(a).commonPrefixCount(with: PositionKey(b)) == shared, "\(a) and \(b)")
            let length = Int(generator.next() % UInt64(a.count + 1))
            var rebuilt = PositionKey(a).prefix(length)
            #expect(rebuilt.count == length && rebuilt.bytes == Array(a.prefix(length)))
            for byte in a[length...] { rebuilt.append(byte) }
            #expect(rebuilt == PositionKey(a), "\(a) rebuilt from its first \(length) bytes")
        }
    }
}
