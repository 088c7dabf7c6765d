import Testing

@testable import ListSync

/// The word-level helpers of position keys against their byte-by-byte definitions.
struct PositionKeyInternalsTests {
    @Test func commonPrefixAndPrefixMatchTheBytes() {
        var generator = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            let a = randomKeyBytes(distinctBytes: 2, using: &generator)
            let b = randomKeyBytes(distinctBytes: 2, using: &generator)
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
