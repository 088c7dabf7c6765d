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

    @Test func freshPrefixMatchesItsDigitByDigitDefinition() {
        /// The prefix as the allocator's documentation defines it, one base-256 digit at a time.
        func reference(after lower: [UInt8], before upper: [UInt8], jitter: UInt64) -> [UInt8] {
            let common = upper.isEmpty ? 0 : zip(lower, upper).prefix { $0 == $1 }.count
            var (difference, length, gap): (Int64, Int, Int64) = (0, common, 0)
            repeat {
                let upperDigit =
                    upper.isEmpty ? (length == 0 ? 256 : 0) : Int64(length < upper.count ? upper[length] : 0)
                let lowerDigit = Int64(length < lower.count ? lower[length] : 0)
                length += 1
                difference = difference * 256 + upperDigit - lowerDigit
                gap = difference - (lower.count > length ? 1 : 0)
            } while gap < KeyAllocator.candidates
            var digits = (0..<length).map { $0 < lower.count ? lower[$0] : 0 }
            var carry = UInt64((gap - 256) / 2) + jitter % 256 + (lower.count > length ? 1 : 0)
            for index in digits.indices.reversed() {
                let sum = UInt64(digits[index]) + (carry & 0xFF)
                digits[index] = UInt8(truncatingIfNeeded: sum)
                carry = (carry >> 8) + (sum >> 8)
            }
            return digits
        }
        var generator = SplitMix64(seed: 12)
        // Keys from extreme and middle byte values, sharing prefixes of up to 23 bytes, so that gaps open at
        // every length, inside and past the first word; an empty bound is the list's start or end.
        let values: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF]
        func randomKey() -> [UInt8] {
            var bytes = (0..<(1 + Int(generator.next() % 12))).map { _ in values[Int(generator.next() % 6)] }
            bytes[bytes.count - 1] = max(bytes[bytes.count - 1], 1)
            return bytes
        }
        var lengths = Set<Int>()
        for trial in 0..<20_000 {
            // The second key shares a random number of leading bytes with the first.
            let first = randomKey() + randomKey()
            var (lower, upper) = (first, Array(first.prefix(Int(generator.next() % UInt64(first.count)))) + randomKey())
            if PositionKey(upper) < PositionKey(lower) { swap(&lower, &upper) }
            guard lower != upper else { continue }
            if trial % 7 == 0 { lower = [] }
            if trial % 7 == 1 { upper = [] }
            let jitter = generator.next()
            let prefix = KeyAllocator.freshPrefix(after: PositionKey(lower), before: PositionKey(upper), jitter: jitter)
            #expect(prefix.bytes == reference(after: lower, before: upper, jitter: jitter), "\(lower) to \(upper)")
            lengths.insert(prefix.count)
        }
        #expect(lengths.contains { $0 < 7 } && lengths.contains { $0 > 8 }, "prefixes of every kind of length")
    }
}
