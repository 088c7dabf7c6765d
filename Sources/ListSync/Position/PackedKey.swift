/// A valid ``PositionKey`` in 32 bytes instead of 40, as the row table stores it: without its length,
/// which a valid key implies (it never ends in a zero byte, so its inline bytes end at the last nonzero
/// one, and a longer key is its 24 inline bytes and its tail).
///
/// Only valid keys pack: a key being built may end in zero bytes, which their length alone tells apart.
struct PackedKey {
    private var word0: UInt64
    private var word1: UInt64
    private var word2: UInt64
    private var tail: [UInt8]?

    /// Packs `key`, which must be valid (see ``PositionKey/isValid(_:)``).
    @inline(__always)
    init(_ key: consuming PositionKey) {
        assert(key.count > 0 && key.byte(at: key.count - 1) != 0, "packing an invalid key \(key)")
        word0 = key.word0
        word1 = key.word1
        word2 = key.word2
        tail = key.tail
    }

    /// The number of bytes.
    @inline(__always)
    var count: Int {
        if let tail { return PositionKey.inlineCapacity + tail.count }
        if word2 != 0 { return 24 - word2.trailingZeroBitCount / 8 }
        if word1 != 0 { return 16 - word1.trailingZeroBitCount / 8 }
        return 8 - word0.trailingZeroBitCount / 8
    }

    /// The key.
    @inline(__always)
    var key: PositionKey { PositionKey(word0: word0, word1: word1, word2: word2, tail: tail, count: count) }

    /// The key's ``PositionKey/head``.
    @inline(__always)
    var head: UInt64 {
        let isLong = word1 != 0 || word2 != 0 || tail != nil
        return word0 & ~0xFF | UInt64(truncatingIfNeeded: isLong ? 8 : 8 - word0.trailingZeroBitCount / 8)
    }

    /// Whether the two keys are equal.
    @inline(__always)
    static func == (lhs: PackedKey, rhs: PackedKey) -> Bool {
        lhs.word0 == rhs.word0 && lhs.word1 == rhs.word1 && lhs.word2 == rhs.word2 && lhs.tail == rhs.tail
    }

    /// Whether `lhs` orders before `rhs`, as their keys do.
    @inline(__always)
    static func < (lhs: PackedKey, rhs: PackedKey) -> Bool {
        if lhs.word0 != rhs.word0 { return lhs.word0 < rhs.word0 }
        if lhs.word1 != rhs.word1 { return lhs.word1 < rhs.word1 }
        if lhs.word2 != rhs.word2 { return lhs.word2 < rhs.word2 }
        // Equal inline bytes: a key that ends there is a prefix of one that goes on.
        guard let right = rhs.tail else { return false }
        guard let left = lhs.tail else { return true }
        return left.lexicographicallyPrecedes(right)
    }
}
