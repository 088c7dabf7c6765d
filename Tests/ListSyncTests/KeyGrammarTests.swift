import Testing

@testable import ListSync

/// The grammar of keys (``KeyGrammar``), the labels of replicas and the run integers against their
/// definitions, on random inputs.
struct KeyGrammarTests {
    /// Random digits in `base`, 0 to 5 of them, not ending in 0.
    static func digits(_ generator: inout SplitMix64, base: Int64) -> [Int64] {
        var digits = (0..<Int(generator.next() % 6)).map { _ in
            // Extreme digits often, so that carries and full digits come up.
            [0, 1, base - 1].randomElement(using: &generator)!
        }
        if let last = digits.last, last == 0 { digits[digits.count - 1] = 1 }
        return digits
    }

    /// The fraction `digits` stand for, compared exactly: lexicographically, shorter (zero-padded) first.
    static func precedes(_ a: [Int64], _ b: [Int64]) -> Bool {
        for index in 0..<max(a.count, b.count) {
            let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
            if x != y { return x < y }
        }
        return false
    }

    /// Appends `digits` as ``KeyGrammar/digit(_:at:offset:)`` reads them (`offset + 2 d + m`).
    static func append(digits: [Int64], offset: UInt8, to key: inout PositionKey) {
        for (index, digit) in digits.enumerated() {
            key.append(offset + UInt8(digit << 1) | (index + 1 < digits.count ? 1 : 0))
        }
    }

    /// ``KeyGrammar/appendBetween(_:_:_:_:base:offset:to:)`` on digits, each bound written after `prefix`
    /// bytes (so that digits start inside a key); nil when the result is not well formed (a continuation
    /// bit on its last byte or missing on another).
    static func between(_ low: [Int64], _ high: [Int64]?, base: Int64, prefix: [UInt8]) -> [Int64]? {
        let offset: UInt8 = base == KeyGrammar.digitBase ? 0x40 : 0
        var (lowKey, highKey) = (PositionKey(prefix), PositionKey(prefix.reversed()))
        append(digits: low, offset: offset, to: &lowKey)
        append(digits: high ?? [], offset: offset, to: &highKey)
        var result = PositionKey(prefix)
        KeyGrammar.appendBetween(
            lowKey, prefix.count..<lowKey.count, highKey, high.map { _ in prefix.count..<highKey.count }, base: base,
            offset: offset, to: &result)
        let bytes = result.bytes.dropFirst(prefix.count)
        guard bytes.dropLast().allSatisfy({ $0 & 1 == 1 }), bytes.last.map({ $0 & 1 == 0 }) == true else { return nil }
        return bytes.indices.map { KeyGrammar.digit(result, at: $0, offset: offset) }
    }

    @Test(arguments: [KeyGrammar.digitBase, KeyGrammar.labelBase])
    func betweenLiesStrictlyBetweenAndNeverEndsInZero(base: Int64) throws {
        var generator = SplitMix64(seed: UInt64(base))
        for step in 0..<20_000 {
            var (low, high) = (Self.digits(&generator, base: base), Self.digits(&generator, base: base))
            if Self.precedes(high, low) { swap(&low, &high) }
            let upper: [Int64]? = generator.next() % 5 == 0 || !Self.precedes(low, high) ? nil : high
            let prefix: [UInt8] = [[], [0x20], [0x9f, 0x21, 0x05]][step % 3]
            let middle = try #require(Self.between(low, upper, base: base, prefix: prefix), "\(low) < \(high)")
            #expect(Self.precedes(low, middle), "\(low) < \(middle)")
            if let upper { #expect(Self.precedes(middle, upper), "\(middle) < \(upper)") }
            #expect(middle.last.map { $0 != 0 } == true && middle.allSatisfy { (0..<base).contains($0) })
            // Bytes order like the fractions (what keys compare).
            var (lowBytes, middleBytes) = (PositionKey.empty, PositionKey.empty)
            Self.append(digits: low, offset: 0x40, to: &lowBytes)
            Self.append(digits: middle, offset: 0x40, to: &middleBytes)
            #expect(lowBytes < middleBytes)
        }
    }

    @Test func betweenStaysShortWhenOneGapIsSplitOverAndOver() throws {
        // Always just above the lower bound: one more digit every few splits, never a failure.
        var high: [Int64] = [1]
        for _ in 0..<500 { high = try #require(Self.between([], high, base: KeyGrammar.labelBase, prefix: [])) }
        #expect(high.count <= 500 / 4 + 2 && high.last != 0)
    }

    @Test func runIntegersDecodeToWhatWasEncoded() {
        var generator = SplitMix64(seed: 3)
        let limits = RunInteger.decodableRange
        for step in 0..<50_000 {
            let value: Int64 =
                switch step % 3 {
                case 0: Int64.random(in: -70_000...70_000, using: &generator)
                case 1: Int64.random(in: limits, using: &generator)
                default:
                    [limits.lowerBound, limits.upperBound, -65, -64, 63, 64, 319, 320].randomElement(using: &generator)!
                }
            var key = PositionKey.empty
            RunInteger.append(value, to: &key)
            var offset = 0
            #expect(RunInteger.decode(key, at: &offset) == value && offset == key.count, "\(value)")
            // Truncated, it is no integer.
            if key.count > 1 {
                var short = 0
                #expect(RunInteger.decode(PositionKey(key.bytes.dropLast()), at: &short) == nil)
            }
        }
        for outside in [limits.lowerBound - 1, limits.upperBound + 1, RunInteger.range.upperBound] {
            var key = PositionKey.empty
            RunInteger.append(outside, to: &key)
            var offset = 0
            #expect(RunInteger.decode(key, at: &offset) == nil, "\(outside) is outside what keys may hold")
        }
    }

    /// The encodings at the edges of the bands (Protocol.md, section 1), byte for byte.
    @Test func runIntegersHaveTheirBandsEncodings() {
        let vectors: [(Int64, [UInt8])] = [
            (0, [0x80]), (63, [0xBF]), (-64, [0x40]),
            (64, [0xC0, 0x00]), (319, [0xC0, 0xFF]), (320, [0xC1, 0x00, 0x00]), (65_855, [0xC1, 0xFF, 0xFF]),
            (65_856, [0xC2, 0x00, 0x00, 0x00]), (16_843_071, [0xC2, 0xFF, 0xFF, 0xFF]),
            (16_843_072, [0xC3, 0x00, 0x00, 0x00, 0x00]),
            (-65, [0x3F, 0xFF]), (-320, [0x3F, 0x00]), (-321, [0x3E, 0xFF, 0xFF]), (-65_856, [0x3E, 0x00, 0x00]),
            (-65_857, [0x3D, 0xFF, 0xFF, 0xFF]), (-16_843_072, [0x3D, 0x00, 0x00, 0x00]),
            (-16_843_073, [0x3C, 0xFF, 0xFF, 0xFF, 0xFF]),
        ]
        for (value, bytes) in vectors {
            var key = PositionKey.empty
            RunInteger.append(value, to: &key)
            #expect(key.bytes == bytes, "\(value)")
            var offset = 0
            #expect(RunInteger.decode(PositionKey(bytes), at: &offset) == value && offset == bytes.count, "\(value)")
        }
    }

    /// `endsInNonZeroByte` (in closed form) against the encodings' last bytes, and `successor(of:)`
    /// against the next such integer found one by one: around every band's edges and at random.
    @Test func runIntegersEndInAZeroByteExactlyWhereTheirEncodingsDo() {
        var rng = SplitMix64(seed: 0x2E40)
        var values: [Int64] = (1...7).flatMap { length -> [Int64] in
            let reach = Int64(bitPattern: (0x0101_0101_0101_0100 as UInt64) >> (8 * (8 - UInt64(length))) & ~0xFF)
            return [64 + reach, -65 - reach]
        }
        values = values.flatMap { edge in (-600...600).map { edge + $0 } }
        values += (0..<20_000).map { _ in Int64.random(in: RunInteger.decodableRange, using: &rng) }
        for value in values {
            var key = PositionKey.empty
            RunInteger.append(value, to: &key)
            #expect(RunInteger.endsInNonZeroByte(value) == (key.byte(at: key.count - 1) != 0), "\(value)")
            var next = value + 1
            while true {
                var encoded = PositionKey.empty
                RunInteger.append(next, to: &encoded)
                if encoded.byte(at: encoded.count - 1) != 0 { break }
                next += 1
            }
            #expect(RunInteger.successor(of: value) == next, "\(value)")
        }
    }

    @Test func rankLabelsOrderLikeRanksAndReadBack() {
        for count in [1, 2, 30, 31, 32, 100, 961, 962, 2_000] {
            var previous: [UInt8]?
            for rank in 0..<count {
                var key = PositionKey.empty
                KeyGrammar.rankLabel(rank, of: count, into: &key)
                #expect(key.count == KeyGrammar.rankWidth(of: count) && key.bytes.allSatisfy { $0 < 0x40 })
                #expect(key.byte(at: key.count - 1) > 1, "a label never ends in the digit 0")
                #expect(KeyGrammar.rank(ofLabel: key, 0..<key.count, count: count) == rank)
                if let previous { #expect(previous.lexicographicallyPrecedes(key.bytes)) }
                previous = key.bytes
            }
        }
        var tooHigh = PositionKey.empty
        KeyGrammar.rankLabel(30, of: 31, into: &tooHigh)
        #expect(KeyGrammar.rank(ofLabel: tooHigh, 0..<1, count: 30) == nil)
    }

    @Test func labelsOrderLikeReplicaIDsInEveryArrivalOrder() {
        var generator = SplitMix64(seed: 5)
        for trial in 0..<200 {
            // Random IDs, or IDs that keep arriving just above one another (the longest labels).
            let ids: [ReplicaID] =
                trial % 2 == 0
                ? (0..<60).map { _ in ReplicaID(generator.next()) } : (1...60).map { ReplicaID(1_000 + UInt64($0)) }
            var labels = ReplicaLabels(replica: ids[0])
            var given: [ReplicaID: PositionKey] = [:]
            for id in ids { given[id] = labels.label(of: id) }
            for id in ids { #expect(labels.label(of: id) == given[id], "a label never changes") }
            let sorted = given.keys.sorted()
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(given[a]! < given[b]!, "labels order like IDs")
            }
            #expect(labels.count == Set(ids).count)
            #expect(given.values.allSatisfy { $0.count <= 14 })
        }
    }

    @Test func keysWidenAndNarrowWithoutChangingTheirOrder() throws {
        // Keys from lists of five replicas editing the same rows, read through a sixth.
        var generator = SplitMix64(seed: 6)
        let lists = (0..<5).map { _ in ReplicatedList<Int>(replicaID: ReplicaID(generator.next())) }
        for step in 0..<600 {
            let list = lists[Int(generator.next() % 5)]
            if list.count > 1 && generator.next() % 3 == 0 {
                list.move(
                    fromOffsets: [Int(generator.next() % UInt64(list.count))],
                    toOffset: Int(generator.next() % UInt64(list.count + 1)))
            } else {
                list.insert(step, at: Int(generator.next() % UInt64(list.count + 1)))
            }
            if generator.next() % 4 == 0 {
                let other = lists[Int(generator.next() % 5)]
                try other.merge(list.changes(since: other.versionVector))
            }
        }
        let reader = ReplicatedList<Int>(replicaID: ReplicaID(generator.next()))
        for list in lists { try reader.merge(list.changes(since: VersionVector())) }
        for list in lists { try list.merge(reader.changes(since: list.versionVector)) }
        for list in lists + [reader] {
            let portable = list.indices.map { list.positionKey(at: $0) }
            #expect(portable == reader.indices.map { reader.positionKey(at: $0) }, "a row's key is the same everywhere")
            for (a, b) in zip(portable, portable.dropFirst()) { #expect(a <= b) }
            #expect(portable.allSatisfy { KeyGrammar.levels(of: $0, tags: .portable) != nil })
        }
    }

    @Test func aConverterChecksKeysInStreamAsItChecksEachAlone() {
        // Sorted keys of rank-labelled levels, many of them a valid key's `T` and tag with other bytes
        // after them (another integer, one out of range, a zero byte, more levels or garbage): a converter
        // that reads them in order (reusing what each key shares with the one before) accepts exactly
        // the keys that a fresh converter accepts one at a time.
        let replicas = 5
        func isValid(_ key: PositionKey, _ tag: Range<Int>) -> Bool {
            KeyGrammar.rank(ofLabel: key, tag, count: replicas) != nil
        }
        var generator = SplitMix64(seed: 23)
        func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        func integer() -> Int64 { [Int64(random(256)) - 128, Int64(random(1 << 20)) - (1 << 19), 1 << 55][random(3)] }
        var keys: [PositionKey] = []
        for _ in 0..<2_000 {
            var key = PositionKey.empty
            var integerStart = 0
            for _ in 0...random(3) {
                if random(2) == 0 { key.append(0x40 + 2 * UInt8(1 + random(90))) }  // a one-digit `T`
                KeyGrammar.rankLabel(random(replicas), of: replicas, into: &key)
                integerStart = key.count
                RunInteger.append(integer(), to: &key)
            }
            keys.append(key)
            for _ in 0..<4 {
                var variant = key.prefix(integerStart)
                if random(3) == 0 {
                    for _ in 0...random(10) { variant.append(UInt8(random(256))) }
                } else {
                    // In range, or past it (an integer no peer writes).
                    let value = random(2) == 0 ? integer() : (1 << 55) + Int64(random(1 << 20)) << random(7)
                    RunInteger.append(value, to: &variant)
                    if random(4) == 0 { variant.append([0x00, 0x02, 0x41, 0xFF][random(4)]) }
                }
                keys.append(variant)
            }
        }
        keys = Array(Set(keys.filter { $0.count > 0 })).sorted()
        var stream = KeyGrammar.Converter(from: .label)
        var (accepted, refused) = (0, 0)
        for key in keys {
            var alone = KeyGrammar.Converter(from: .label)
            let expected = alone.checked(key, isValid: isValid) != nil
            let streamed = stream.checked(key, isValid: isValid) != nil
            #expect(streamed == expected, "key \(key)")
            if expected { accepted += 1 } else { refused += 1 }
            if !streamed { stream = KeyGrammar.Converter(from: .label) }  // not to be used after a refusal
        }
        #expect(accepted > 1_000 && refused > 1_000, "both kinds: \(accepted) accepted, \(refused) refused")
    }
}
