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

    @Test func prefixPlusAddsInBaseTwoFiftySix() {
        var generator = SplitMix64(seed: 10)
        for _ in 0..<20_000 {
            // Bytes near 0xFF, so that sums carry across bytes, words and the inline end.
            let key = randomKeyBytes(distinctBytes: 2, using: &generator).map { $0 == 0 ? 0xFF : 0xFE - $0 }
            let length = Int(generator.next() % UInt64(key.count + 9)) + 1
            let addend = generator.next() >> (22 + generator.next() % 42)
            var expected = Array(key.prefix(length)) + Array(repeating: 0, count: max(0, length - key.count))
            var carry = addend
            for index in expected.indices.reversed() {
                let sum = UInt64(expected[index]) + (carry & 0xFF)
                expected[index] = UInt8(truncatingIfNeeded: sum)
                carry = (carry >> 8) + (sum >> 8)
            }
            guard carry == 0 else { continue }  // past the first byte: a precondition failure
            let sum = PositionKey(key).prefix(length, plus: addend)
            #expect(sum.count == length && sum.bytes == expected, "\(key) first \(length) bytes + \(addend)")
        }
    }

    @Test func headsOrderLikeTheirKeysAndHoldShortKeys() {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            // Keys of 1 to 12 bytes (a suffix keeps the non-zero last byte), from two byte values so that
            // many share their first seven bytes.
            let a = Array(randomKeyBytes(distinctBytes: 2, using: &generator).suffix(1 + Int(generator.next() % 12)))
            let b = Array(randomKeyBytes(distinctBytes: 2, using: &generator).suffix(1 + Int(generator.next() % 12)))
            let (headA, headB) = (PositionKey(a).head, PositionKey(b).head)
            #expect(PositionKey(head: headA) == (a.count < 8 ? PositionKey(a) : nil), "\(a)")
            if (headA ^ headB) > 0xFF {
                #expect((headA < headB) == (PositionKey(a) < PositionKey(b)), "\(a) and \(b)")
            } else if a.count < 8 && b.count < 8 {
                #expect((headA == headB) == (a == b), "\(a) and \(b)")
            }
        }
    }
}
