/// A row's position: a byte string from a dense total order, compared lexicographically.
///
/// Keys are never empty and never end in a zero byte, so a key always exists strictly between two
/// different keys. The first 24 bytes are stored inline (most keys are shorter than 10 bytes, and keys
/// nested by editing inside old text average about 20); longer keys keep the rest in an array.
public struct PositionKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Bytes 0..<8, big-endian, zero-padded.
    @usableFromInline var word0: UInt64
    /// Bytes 8..<16, big-endian, zero-padded.
    @usableFromInline var word1: UInt64
    /// Bytes 16..<24, big-endian, zero-padded.
    @usableFromInline var word2: UInt64
    /// Bytes 24..., when the key is longer than 24 bytes.
    @usableFromInline var tail: [UInt8]?
    /// The number of bytes.
    public private(set) var count: Int

    /// Number of bytes kept inline.
    @usableFromInline static let inlineCapacity = 24

    /// Creates a key from its parts (see ``PackedKey``).
    @inline(__always)
    init(word0: UInt64, word1: UInt64, word2: UInt64, tail: [UInt8]?, count: Int) {
        self.word0 = word0
        self.word1 = word1
        self.word2 = word2
        self.tail = tail
        self.count = count
    }

    /// Creates a key from its bytes. The caller guarantees the bytes are a valid key (see ``isValid(_:)``).
    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if let key = bytes.withContiguousStorageIfAvailable(Self.init(buffer:)) {
            self = key
        } else {
            self = Array(bytes).withUnsafeBufferPointer(Self.init(buffer:))
        }
    }

    /// Creates a key from the bytes in `buffer`.
    private init(buffer: UnsafeBufferPointer<UInt8>) {
        /// Bytes `start..<start + 8` (those present) as a big-endian word, zero-padded.
        func word(at start: Int) -> UInt64 {
            let available = buffer.count - start
            guard available > 0 else { return 0 }
            if available >= 8 {
                return UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + start).loadUnaligned(as: UInt64.self)
                    .bigEndian
            }
            var word: UInt64 = 0
            for index in start..<buffer.count { word = word << 8 | UInt64(buffer[index]) }
            return word << UInt64(8 * (8 - available))
        }
        word0 = word(at: 0)
        word1 = word(at: 8)
        word2 = word(at: 16)
        tail = buffer.count > Self.inlineCapacity ? Array(buffer[Self.inlineCapacity...]) : nil
        count = buffer.count
    }

    /// The first seven bytes, and in the low byte the length capped at 8: heads that differ in their
    /// first seven bytes order like their keys, and a head with a length below 8 is the whole key.
    var head: UInt64 { word0 & ~0xFF | UInt64(truncatingIfNeeded: min(count, 8)) }

    /// The key `head` (a ``head``) stands for, if it holds the whole key.
    init?(head: UInt64) {
        guard head & 0xFF < 8 else { return nil }
        word0 = head & ~0xFF
        word1 = 0
        word2 = 0
        tail = nil
        count = Int(head & 0xFF)
    }

    /// Whether `bytes` form a valid key: not empty and not ending in a zero byte.
    public static func isValid<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard let last = bytes.last else { return false }
        return last != 0
    }

    /// The byte at `index`.
    @inlinable
    public subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "PositionKey index out of range")
        return byte(at: index)
    }

    /// The byte at `index`, which the caller guarantees is in `0..<count`.
    @inlinable @inline(__always)
    func byte(at index: Int) -> UInt8 {
        // A masking shift, in range by the caller's guarantee: no checks for negative or wide shifts.
        let shift = UInt64(truncatingIfNeeded: 56 &- 8 &* (index & 7))
        if index < 8 { return UInt8(truncatingIfNeeded: word0 &>> shift) }
        if index < 16 { return UInt8(truncatingIfNeeded: word1 &>> shift) }
        if index < 24 { return UInt8(truncatingIfNeeded: word2 &>> shift) }
        return tail.unsafelyUnwrapped[index - 24]
    }

    /// The eight bytes from `index` on as a big-endian word, zero past the end of the key.
    /// - Precondition: `index` in `0..<count`.
    @inline(__always)
    func bytes(at index: Int) -> UInt64 {
        guard index + 8 <= Self.inlineCapacity else {
            var word: UInt64 = 0
            for offset in index..<index + 8 { word = word << 8 | UInt64(offset < count ? byte(at: offset) : 0) }
            return word
        }
        let shift = UInt64(truncatingIfNeeded: 8 &* (index & 7))
        switch index >> 3 {
        case 0: return shift == 0 ? word0 : word0 &<< shift | word1 &>> (64 &- shift)
        case 1: return shift == 0 ? word1 : word1 &<< shift | word2 &>> (64 &- shift)
        default: return word2  // index 16
        }
    }

    /// The number of leading bytes the key shares with `other`.
    func commonPrefixCount(with other: PositionKey) -> Int {
        let limit = min(count, other.count)
        // Both are zero-padded, so the first differing bit of the words is the first differing byte.
        if word0 != other.word0 { return min(limit, (word0 ^ other.word0).leadingZeroBitCount / 8) }
        if word1 != other.word1 { return min(limit, 8 + (word1 ^ other.word1).leadingZeroBitCount / 8) }
        if word2 != other.word2 { return min(limit, 16 + (word2 ^ other.word2).leadingZeroBitCount / 8) }
        var common = Self.inlineCapacity
        while common < limit && byte(at: common) == other.byte(at: common) { common += 1 }
        return min(limit, common)
    }

    /// Appends `byte`; the caller keeps the key valid (see ``isValid(_:)``) once it is complete.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        let index = count
        guard index < Self.inlineCapacity else { return appendToTail(byte) }
        count += 1
        let shifted = UInt64(byte) &<< UInt64(truncatingIfNeeded: 56 &- 8 &* (index & 7))
        switch index >> 3 {
        case 0: word0 |= shifted
        case 1: word1 |= shifted
        default: word2 |= shifted
        }
    }

    /// Appends the low `count` bytes of `bytes`, the most significant first: inline, one or two words
    /// are updated at once instead of a byte at a time.
    /// - Precondition: `count` in 1...8.
    @inline(__always)
    mutating func append(lowBytes bytes: UInt64, count added: Int) {
        let start = count
        guard start + added <= Self.inlineCapacity else {
            // A while loop: a reversed stride went through unspecialised library code here.
            var shift = 8 * added
            while shift > 0 {
                shift -= 8
                append(UInt8(truncatingIfNeeded: bytes &>> UInt64(shift)))
            }
            return
        }
        count = start + added
        // The bytes at the top of a word, then shifted to the key's offset inside its word.
        let aligned = bytes &<< UInt64(truncatingIfNeeded: 64 &- 8 &* added)
        let offset = UInt64(truncatingIfNeeded: 8 &* (start & 7))
        let first = aligned &>> offset
        let spills = Int(offset) &+ 8 &* added > 64
        let second = spills ? aligned &<< (64 &- offset) : 0
        switch start >> 3 {
        case 0:
            word0 |= first
            word1 |= second
        case 1:
            word1 |= first
            word2 |= second
        default: word2 |= first  // the end is inline: nothing spills past the last word
        }
    }

    /// ``append(_:)`` past the inline bytes, kept out of line so that appends inline stay short.
    @inline(never)
    private mutating func appendToTail(_ byte: UInt8) {
        count += 1
        if tail == nil { tail = [] }
        tail!.append(byte)
    }

    /// Appends the bytes of `other`.
    mutating func append(contentsOf other: PositionKey) {
        for index in 0..<other.count { append(other.byte(at: index)) }
    }

    /// No bytes: not a valid key, but the start of one built with ``append(_:)``, and
    /// the list's start or end where the key allocator takes a bound.
    static let empty = PositionKey([UInt8]())

    /// `word` with only its first `bytes` bytes kept, the rest zero (as in a shorter key's padding).
    private static func leading(_ word: UInt64, _ bytes: Int) -> UInt64 {
        bytes >= 8 ? word : bytes <= 0 ? 0 : word & ~(UInt64.max >> UInt64(8 * bytes))
    }

    /// Whether the key starts with `prefix`.
    func hasPrefix(_ prefix: PositionKey) -> Bool {
        guard prefix.count <= count else { return false }
        guard Self.leading(word0, prefix.count) == prefix.word0, Self.leading(word1, prefix.count - 8) == prefix.word1,
            Self.leading(word2, prefix.count - 16) == prefix.word2
        else { return false }
        guard let prefixTail = prefix.tail else { return true }
        // Byte by byte through buffers: `starts(with:)` went through the arrays' iterators here.
        return tail.unsafelyUnwrapped.withUnsafeBufferPointer { tail in
            prefixTail.withUnsafeBufferPointer { prefixTail in
                for index in prefixTail.indices where tail[index] != prefixTail[index] { return false }
                return true
            }
        }
    }

    /// The first `length` bytes, to be completed with ``append(_:)`` (a prefix alone may not be a valid key).
    func prefix(_ length: Int) -> PositionKey {
        precondition(length >= 0 && length <= count, "prefix length \(length) out of range 0...\(count)")
        var key = self
        key.word0 = Self.leading(word0, length)
        key.word1 = Self.leading(word1, length - 8)
        key.word2 = Self.leading(word2, length - 16)
        key.tail = length > Self.inlineCapacity ? Array(tail.unsafelyUnwrapped[..<(length - Self.inlineCapacity)]) : nil
        key.count = length
        return key
    }

    /// Whether the key is `prefix` followed by exactly one ``RunInteger``: a key of the run `prefix`.
    @inline(__always)
    func isRunKey(of prefix: PositionKey) -> Bool {
        // The first word rules out most keys before any byte is read.
        prefix.count < count && Self.leading(word0, prefix.count) == prefix.word0
            && RunInteger.encodedLength(head: byte(at: prefix.count)) == count - prefix.count && hasPrefix(prefix)
    }

    /// The bytes of the key.
    public var bytes: [UInt8] { (0..<count).map { self[$0] } }

    @inlinable
    public static func < (lhs: PositionKey, rhs: PositionKey) -> Bool {
        if lhs.word0 != rhs.word0 { return lhs.word0 < rhs.word0 }
        if lhs.word1 != rhs.word1 { return lhs.word1 < rhs.word1 }
        if lhs.word2 != rhs.word2 { return lhs.word2 < rhs.word2 }
        if let left = lhs.tail, let right = rhs.tail {
            for (a, b) in zip(left, right) where a != b { return a < b }
        }
        return lhs.count < rhs.count
    }

    /// The key in hexadecimal, as in `9f80`.
    public var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
