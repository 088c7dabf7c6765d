import Testing

@testable import ListSync

/// The word-level helpers of position keys against their byte-by-byte definitions.
struct PositionKeyInternalsTests {
    @Test func commonPrefixPrefixAndHasPrefixMatchTheBytes() {
        var generator = SplitMix64(seed: 9)
        for _ in 0..<20_000 {
            let a = randomKeyBytes(distinctBytes: 2, using: &generator)
            let b = randomKeyBytes(distinctBytes: 2, using: &generator)
            let shared = zip(a, b).prefix { $0 == $1 }.count
            #expect(PositionKey(a).commonPrefixCount(with: PositionKey(b)) == shared, "\(a) and \(b)")
            let length = Int(generator.next() % UInt64(a.count + 1))
            var rebuilt = PositionKey(a).prefix(length)
            #expect(rebuilt.count == length && rebuilt.bytes == Array(a.prefix(length)))
            #expect(PositionKey(a).hasPrefix(rebuilt), "\(a) starts with its first \(length) bytes")
            #expect(PositionKey(b).hasPrefix(rebuilt) == b.starts(with: a.prefix(length)), "\(b), \(a) cut at \(length)")
            // `a` with one byte changed: it differs from the prefix in that byte only, in any word.
            var changed = a
            let at = Int(generator.next() % UInt64(a.count))
            changed[at] = at == a.count - 1 ? 3 - a[at] : 1 - a[at]
            #expect(
                PositionKey(changed).hasPrefix(rebuilt) == changed.starts(with: a.prefix(length)),
                "\(changed), \(a) cut at \(length)")
            for byte in a[length...] { rebuilt.append(byte) }
            #expect(rebuilt == PositionKey(a), "\(a) rebuilt from its first \(length) bytes")
        }
    }

    @Test func eightBytesAtAnyOffsetMatchTheBytes() {
        var generator = SplitMix64(seed: 13)
        for _ in 0..<2_000 {
            let bytes = (0..<(1 + Int(generator.next() % 40))).map { _ in UInt8(1 + generator.next() % 255) }
            let key = PositionKey(bytes)
            for index in bytes.indices {
                let expected = (index..<index + 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1 < bytes.count ? bytes[$1] : 0) }
                #expect(key.bytes(at: index) == expected, "\(bytes) at \(index)")
            }
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

    /// A packed key (the row table's, without its length) gives back the key it packed, with its length
    /// and head, and orders and compares as its key does: keys of 1 to 40 bytes, most with zero bytes
    /// inside, so that the length is told from the last nonzero byte in every word and past the inline
    /// bytes.
    @Test func packedKeysUnpackAndOrderLikeTheirKeys() {
        var generator = SplitMix64(seed: 17)
        for _ in 0..<20_000 {
            let (a, b) = (
                PositionKey(randomKeyBytes(distinctBytes: 2, using: &generator)),
                PositionKey(randomKeyBytes(distinctBytes: 2, using: &generator))
            )
            let (packedA, packedB) = (PackedKey(a), PackedKey(b))
            #expect(packedA.key == a && packedA.key.count == a.count && packedA.key.bytes == a.bytes, "\(a)")
            #expect(packedA.head == a.head, "head of \(a)")
            #expect((packedA < packedB) == (a < b) && (packedB < packedA) == (b < a), "\(a) and \(b)")
            #expect((packedA == packedB) == (a == b) && packedA == PackedKey(a), "\(a) and \(b)")
        }
    }

    @Test func appendingLowBytesMatchesAppendingEachByte() {
        var generator = SplitMix64(seed: 13)
        // Every start inside and past the inline words, and every length a run integer's payload has.
        for start in 0..<34 {
            for count in 1...8 {
                let prefix = (0..<start).map { _ in UInt8(1 + generator.next() % 255) }
                let bytes = generator.next()
                var expected = PositionKey(prefix)
                for index in (0..<count).reversed() { expected.append(UInt8(truncatingIfNeeded: bytes >> (8 * index))) }
                var key = PositionKey(prefix)
                key.append(lowBytes: bytes, count: count)
                #expect(key == expected && key.bytes == expected.bytes, "\(count) bytes after \(start)")
            }
        }
    }
}
