import Testing

@testable import ListSync

/// Where the key allocator puts a key between two keys of one level of its own: `T` empty, this
/// replica's tag, then a run integer.
struct KeyAllocatorTests {
    /// This replica's label (base-32 digit 16, the last one).
    static let tag: UInt8 = 0x20

    /// The key of this replica's level with run integer `integer` (one byte: -64...63).
    static func key(_ integer: Int) -> PositionKey { PositionKey([tag, UInt8(0x80 + integer)]) }

    /// Between integers with free ones between them, the key takes the middle free integer at the same
    /// level, as short as its neighbours, even when only one is free (random inserts and moves keep
    /// their keys shorter that way: docs/runs.md); between adjacent integers it goes a level deeper.
    @Test(arguments: [(5, 7, 6), (5, 8, 6), (5, 9, 7), (-60, 60, 0)])
    func aFreeIntegerBetweenOwnKeysIsTaken(low: Int, high: Int, expected: Int) {
        var allocator = KeyAllocator(tag: PositionKey([Self.tag]))
        var keys: [PositionKey] = []
        allocator.allocate(count: 1, after: Self.key(low), before: Self.key(high), into: &keys)
        #expect(keys == [Self.key(expected)])
    }

    @Test func adjacentIntegersPutTheKeyOneLevelDeeper() {
        var allocator = KeyAllocator(tag: PositionKey([Self.tag]))
        var keys: [PositionKey] = []
        allocator.allocate(count: 1, after: Self.key(5), before: Self.key(6), into: &keys)
        #expect(keys.count == 1 && Self.key(5) < keys[0] && keys[0] < Self.key(6) && keys[0].count > 2)
        #expect(keys.first?.hasPrefix(Self.key(5)) == true)
    }
}
