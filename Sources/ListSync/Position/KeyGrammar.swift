/// The grammar of position keys: a key is a sequence of levels, each naming the replica that allocated
/// it, so that runs of two replicas allocated into one gap never interleave (Protocol.md section 1).
///
/// A level is `T tag integer`:
/// - `T`, the sub-range, is a possibly empty fraction in base 96, one byte per digit: `0x40 + 2 d + m`,
///   where `m` is 1 when another digit follows. It never ends in the digit 0, so its bytes order like
///   the fraction, and an empty `T` sorts first (the next byte is a tag, below 0x40).
/// - the tag names the allocating replica. It is `0x00` for the structural tag, which names no replica
///   and sorts below every other; otherwise its form depends on where the key is kept
///   (``KeyGrammar/TagForm``). Tags order like the replica IDs they name, in every form.
/// - the integer is a ``RunInteger``.
///
/// Levels compare by `T`, then tag, then integer, and a key that is a proper prefix of another sorts
/// first: exactly the bytewise order of the keys, which is what the order index compares.
enum KeyGrammar {
    /// How the tags of a key are written.
    enum TagForm {
        /// A label: base-32 digits in bytes below 0x40, `2 d + m` with `m` as in `T`, not ending in the
        /// digit 0 (except the structural tag `0x00`). A replica's keys in memory use the labels of its
        /// ``ReplicaLabels``; an encoded change set uses the ranks of its replica table
        /// (``rankLabel(_:of:into:)``).
        case label
        /// `0x01` and the replica ID as 8 big-endian bytes: keys that mean the same on every replica, as
        /// change sets hold them in memory.
        case portable
    }

    /// One level of a key: byte offsets of its parts.
    struct Level: Equatable {
        /// Where `T` starts (the level's first byte).
        var start: Int
        /// Where `T` ends and the tag starts.
        var tagStart: Int
        /// Where the tag ends and the integer starts.
        var integerStart: Int
        /// Where the level ends.
        var end: Int

        /// The level's integer in `key`, or nil when it is not one a key may hold
        /// (``RunInteger/decodableRange``).
        func integer(in key: PositionKey) -> Int64? {
            var offset = integerStart
            return RunInteger.decode(key, at: &offset)
        }
    }

    /// Largest base-`T` digit plus one.
    static let digitBase: Int64 = 96
    /// Largest label digit plus one.
    static let labelBase: Int64 = 32
    /// The structural tag.
    static let structural: UInt8 = 0x00
    /// The first byte of a portable tag that names a replica.
    static let portableMarker: UInt8 = 0x01

    /// The levels of `key` with tags of `form`, or nil when `key` does not follow the grammar.
    static func levels(of key: PositionKey, tags form: TagForm) -> [Level]? {
        var levels: [Level] = []
        var offset = 0
        while offset < key.count {
            guard let level = level(of: key, at: offset, tags: form), level.integer(in: key) != nil else { return nil }
            levels.append(level)
            offset = level.end
        }
        guard let last = levels.last, key.byte(at: key.count - 1) != 0, !endsAtTheBottom(key, levelStart: last.start)
        else { return nil }
        return levels
    }

    /// Whether the level of `key` at `levelStart`, its last, is the structural tag with the lowest
    /// integer a key may hold: no key lies between such a key and the one without that level, so
    /// decoders refuse it and the allocator never makes it.
    static func endsAtTheBottom(_ key: PositionKey, levelStart: Int) -> Bool {
        guard key.byte(at: levelStart) == structural else { return false }
        var offset = levelStart + 1
        return RunInteger.decode(key, at: &offset) == RunInteger.decodableRange.lowerBound
    }

    /// The level of `key` starting at `start`, or nil when the bytes there are not one. Its integer is
    /// only delimited, by its head byte: ``Level/integer(in:)`` decodes and checks it.
    static func level(of key: PositionKey, at start: Int, tags form: TagForm) -> Level? {
        var offset = start
        // T: digits while the continuation bit says so.
        if offset < key.count && key.byte(at: offset) >= 0x40 {
            while true {
                guard offset < key.count else { return nil }
                let byte = key.byte(at: offset)
                guard byte >= 0x40 else { return nil }
                offset += 1
                if byte & 1 == 0 {
                    guard byte != 0x40 else { return nil }  // T never ends in the digit 0
                    break
                }
            }
        }
        let tagStart = offset
        guard let tagEnd = tagEnd(of: key, at: tagStart, form: form), let end = integerEnd(of: key, at: tagEnd)
        else { return nil }
        return Level(start: start, tagStart: tagStart, integerStart: tagEnd, end: end)
    }

    /// The level of `key` with the `T` and tag of `level`, a level of another key with the same bytes up to
    /// its integer (where ``level(of:at:tags:)`` would find the same parts): only its integer is delimited.
    static func level(of key: PositionKey, sharingPartsOf level: Level) -> Level? {
        guard let end = integerEnd(of: key, at: level.integerStart) else { return nil }
        return Level(start: level.start, tagStart: level.tagStart, integerStart: level.integerStart, end: end)
    }

    /// Where the integer starting at `start` of `key` ends, by its head byte, or nil when there is none.
    @inline(__always)
    private static func integerEnd(of key: PositionKey, at start: Int) -> Int? {
        guard start < key.count else { return nil }
        let end = start + RunInteger.encodedLength(head: key.byte(at: start))
        return end > start && end <= key.count ? end : nil
    }

    /// Where the tag of `form` starting at `start` ends, or nil when there is none.
    @inline(__always)
    private static func tagEnd(of key: PositionKey, at start: Int, form: TagForm) -> Int? {
        guard start < key.count else { return nil }
        let first = key.byte(at: start)
        if first == structural { return start + 1 }
        switch form {
        case .portable:
            guard first == portableMarker, start + 9 <= key.count else { return nil }
            return start + 9
        case .label:
            var offset = start
            while true {
                guard offset < key.count else { return nil }
                let byte = key.byte(at: offset)
                guard byte < 0x40 else { return nil }
                offset += 1
                if byte & 1 == 0 { return byte == 0 ? nil : offset }  // a label never ends in the digit 0
            }
        }
    }

    /// The replica a portable tag names, nil for the structural tag.
    static func portableReplica(_ key: PositionKey, tagAt start: Int) -> ReplicaID? {
        guard key.byte(at: start) == portableMarker else { return nil }
        var raw: UInt64 = 0
        for index in start + 1..<start + 9 { raw = raw << 8 | UInt64(key.byte(at: index)) }
        return ReplicaID(raw)
    }

    /// Appends the portable tag of `replica` (nil: the structural tag).
    static func appendPortable(_ replica: ReplicaID?, to key: inout PositionKey) {
        guard let replica else { return key.append(structural) }
        key.append(portableMarker)
        for shift in stride(from: 56, through: 0, by: -8) {
            key.append(UInt8(truncatingIfNeeded: replica.rawValue >> UInt64(shift)))
        }
    }

    /// How the tag `label` compares with the tag at byte range `tag` of `key`: negative below, 0 equal,
    /// positive above.
    static func compare(_ label: PositionKey, _ key: PositionKey, _ tag: Range<Int>) -> Int {
        var index = 0
        while index < label.count && index < tag.count {
            let (byte, other) = (label.byte(at: index), key.byte(at: tag.lowerBound + index))
            if byte != other { return byte < other ? -1 : 1 }
            index += 1
        }
        return label.count < tag.count ? -1 : label.count == tag.count ? 0 : 1
    }

    // MARK: Labels

    /// The number of label digits the ranks of a table of `count` replicas take: each rank's label has
    /// exactly this many.
    static func rankWidth(of count: Int) -> Int {
        var width = 1
        var capacity = labelBase - 1  // labels of `width` digits not ending in 0
        while capacity < Int64(count) {
            width += 1
            capacity = capacity &* labelBase
        }
        return width
    }

    /// Appends the label of rank `rank` in a table of `count` replicas: the `rank`-th of the labels of
    /// ``rankWidth(of:)`` digits that do not end in the digit 0, so labels order like ranks.
    static func rankLabel(_ rank: Int, of count: Int, into key: inout PositionKey) {
        let width = rankWidth(of: count)
        let value = Int64(rank / Int(labelBase - 1)) * labelBase + Int64(rank % Int(labelBase - 1)) + 1
        for position in stride(from: width - 1, through: 0, by: -1) {
            var digit = value
            for _ in 0..<position { digit /= labelBase }
            let more: UInt8 = position > 0 ? 1 : 0
            key.append(UInt8(truncatingIfNeeded: digit % labelBase) << 1 | more)
        }
    }

    /// The rank the label at byte range `tag` of `key` stands for in a table of `count` replicas, or
    /// nil when it is not such a label.
    static func rank(ofLabel key: PositionKey, _ tag: Range<Int>, count: Int) -> Int? {
        guard tag.count == rankWidth(of: count) else { return nil }
        var value: Int64 = 0
        var index = tag.lowerBound
        while index < tag.upperBound {
            value = value * labelBase + Int64(key.byte(at: index) >> 1)
            index += 1
        }
        let rank = (value / labelBase) * (labelBase - 1) + value % labelBase - 1
        return rank < Int64(count) ? Int(rank) : nil
    }

    /// The digit of the label or `T` byte at `index` of `key`: the byte is `offset + 2 d + m`, with
    /// `offset` 0x40 for `T` and 0 for labels, and `m` the continuation bit.
    @inline(__always)
    static func digit(_ key: PositionKey, at index: Int, offset: UInt8) -> Int64 {
        Int64((key.byte(at: index) - offset) >> 1)
    }

    /// Appends to `result` a short fraction in base `base`, not ending in 0, strictly between the
    /// fraction of bytes `low` of `lowKey` and that of bytes `high` of `highKey` (nil: 1), both written
    /// as ``digit(_:at:offset:)`` reads them, not ending in 0, `low` the lower: the shortest after the
    /// digits the two share, nearest their middle at that length, else one digit deeper along `low`.
    /// Digits are read from the keys and written to `result` as they come, without arrays.
    /// - Complexity: O(digits of the bounds and the result).
    static func appendBetween(
        _ lowKey: PositionKey, _ low: Range<Int>, _ highKey: PositionKey, _ high: Range<Int>?, base: Int64,
        offset: UInt8, to result: inout PositionKey
    ) {
        /// Appends `digit`, followed by more digits when `more`.
        func append(_ digit: Int64, more: Bool) {
            result.append(offset + UInt8(truncatingIfNeeded: digit << 1) | (more ? 1 : 0))
        }
        var (low, high) = (low, high)
        while true {
            if let upper = high {
                let first = digit(highKey, at: upper.lowerBound, offset: offset)
                if low.isEmpty ? first == 0 : digit(lowKey, at: low.lowerBound, offset: offset) == first {
                    // Both continue with this digit (an empty `low` with zeros).
                    append(first, more: true)
                    low = low.dropFirst()
                    high = upper.dropFirst()
                    continue
                }
            }
            for length in 1...3 {
                guard var middle = Self.middle(lowKey, low, highKey, high, length: length, base: base, offset: offset)
                else { continue }
                var power: Int64 = 1
                for _ in 1..<length { power *= base }
                for position in 0..<length {
                    append(middle / power, more: position < length - 1)
                    middle %= power
                    power /= base
                }
                return
            }
            // No room at this depth: keep `low`'s first digit and go past it, where `high` bounds nothing.
            append(low.isEmpty ? 0 : digit(lowKey, at: low.lowerBound, offset: offset), more: true)
            low = low.dropFirst()
            high = nil
        }
    }

    /// The fraction of `length` digits nearest the middle strictly between those of ``appendBetween``,
    /// whose first digits differ, not ending in 0, as an integer in base `base`; nil when there is none.
    private static func middle(
        _ lowKey: PositionKey, _ low: Range<Int>, _ highKey: PositionKey, _ high: Range<Int>?, length: Int,
        base: Int64, offset: UInt8
    ) -> Int64? {
        /// The first `length` digits of bytes `digits` of `key` as an integer, zero-padded.
        func value(_ key: PositionKey, _ digits: Range<Int>) -> Int64 {
            var result: Int64 = 0
            for index in digits.lowerBound..<digits.lowerBound + length {
                result = result * base + (index < digits.upperBound ? digit(key, at: index, offset: offset) : 0)
            }
            return result
        }
        var power: Int64 = 1
        for _ in 0..<length { power *= base }
        let lowest = value(lowKey, low) + 1
        // Below `high`: its first digits, less one when `high` has no more digits than that.
        let highest = high.map { value(highKey, $0) - ($0.count <= length ? 1 : 0) } ?? power - 1
        guard lowest <= highest else { return nil }
        var middle = lowest + (highest - lowest) / 2
        if middle % base == 0 {
            if middle + 1 <= highest {
                middle += 1
            } else if middle - 1 >= lowest {
                middle -= 1
            } else {
                return nil
            }
        }
        return middle
    }
}

extension KeyGrammar {
    /// Replaces the tags of keys, one key after another: the levels a key shares with the previous one
    /// (keys usually come sorted, sharing prefixes) are taken from the previous result instead of being
    /// converted again. Order-preserving when the tag mapping is: keys compare at their first differing
    /// byte, which lies in the same part of the same level of both.
    struct Converter {
        /// The form of the tags read.
        let form: TagForm
        /// Where each level of the previous key ends, in it and in its result.
        private var levelEnds: [(source: Int, converted: Int)] = []
        /// The previous key and its result.
        private var previousSource = PositionKey.empty
        private var previous = PositionKey.empty
        /// Where the last level of the latest key converted or checked starts, in that key.
        private(set) var lastLevelStart = 0
        /// The last level of the previous key, as read in it.
        private var lastLevel: Level?

        /// A converter of keys with tags of `form`.
        init(from form: TagForm) { self.form = form }

        /// `key` with every tag but the structural one replaced: `mapTag(key, tag, &result)` appends the
        /// new tag for the tag at byte range `tag` of `key`, or returns false. Nil when `key` does not
        /// follow the grammar or a tag is refused; the converter is then not to be used again.
        /// - Complexity: O(length of the levels not shared with the previous key).
        mutating func convert(
            _ key: PositionKey, mapTag: (PositionKey, Range<Int>, inout PositionKey) -> Bool
        ) -> PositionKey? {
            convert(key, rebuilding: true, mapTag: mapTag)
        }

        /// `key` itself when it follows the grammar and `isValid(key, tag)` holds for each tag but the
        /// structural one, else nil (and the converter is not to be used again). A tag the key shares
        /// with the previous key was checked with that key and is not checked again, so `isValid` must
        /// depend on the tag's bytes alone.
        mutating func checked(_ key: PositionKey, isValid: (PositionKey, Range<Int>) -> Bool) -> PositionKey? {
            convert(key, rebuilding: false) { key, tag, _ in isValid(key, tag) }
        }

        /// ``convert(_:mapTag:)`` when `rebuilding`, else ``checked(_:isValid:)`` with `mapTag` as the check
        /// (its result argument unused).
        private mutating func convert(
            _ key: PositionKey, rebuilding: Bool, mapTag: (PositionKey, Range<Int>, inout PositionKey) -> Bool
        ) -> PositionKey? {
            let shared = previousSource.count == 0 ? 0 : key.commonPrefixCount(with: previousSource)
            if !rebuilding, let last = lastLevel, shared >= last.integerStart,
                let level = KeyGrammar.level(of: key, sharingPartsOf: last), level.end == key.count,
                level.integer(in: key) != nil, key.byte(at: key.count - 1) != 0,
                !KeyGrammar.endsAtTheBottom(key, levelStart: level.start)
            {
                // Only the last level's integer differs from the previous key's (the next row of a run,
                // most often): its `T` and tag were read with that key.
                levelEnds[levelEnds.count - 1] = (level.end, level.end)
                previousSource = key
                lastLevel = level
                return key
            }
            var kept = 0
            while kept < levelEnds.count && levelEnds[kept].source <= shared { kept += 1 }
            while levelEnds.count > kept { levelEnds.removeLast() }  // removeLast(_:) is generic code here
            var result = kept == 0 || !rebuilding ? PositionKey.empty : previous.prefix(levelEnds[kept - 1].converted)
            var offset = kept == 0 ? 0 : levelEnds[kept - 1].source
            var lastStart = kept >= 2 ? levelEnds[kept - 2].source : 0  // the last kept level's start
            while offset < key.count {
                guard let level = KeyGrammar.level(of: key, at: offset, tags: form), level.integer(in: key) != nil
                else { return nil }
                lastLevel = level
                lastStart = level.start
                let tag = level.tagStart..<level.integerStart
                let isStructural = key.byte(at: level.tagStart) == KeyGrammar.structural
                if rebuilding {
                    for index in level.start..<level.tagStart { result.append(key.byte(at: index)) }
                    if isStructural {
                        result.append(KeyGrammar.structural)
                    } else if !mapTag(key, tag, &result) {
                        return nil
                    }
                    for index in level.integerStart..<level.end { result.append(key.byte(at: index)) }
                } else if !isStructural && !mapTag(key, tag, &result) {
                    return nil
                }
                offset = level.end
                levelEnds.append((offset, rebuilding ? result.count : offset))
            }
            guard key.count > 0, key.byte(at: key.count - 1) != 0,
                !KeyGrammar.endsAtTheBottom(key, levelStart: lastStart)
            else { return nil }
            previousSource = key
            lastLevelStart = lastStart
            guard rebuilding else { return key }
            previous = result
            return result
        }
    }
}

extension KeyGrammar {
    /// The replicas the tags of portable `keys` name, in the order the keys name them (a replica named
    /// by several keys in a row once): the levels a key shares with the previous one are not read again.
    /// Keys that do not follow the grammar name none.
    /// - Complexity: O(length of the levels the keys do not share with the key before).
    static func replicas(namedBy keys: some Sequence<PositionKey>) -> [ReplicaID] {
        var named: [ReplicaID] = []
        var converter = Converter(from: .portable)
        for key in keys {
            let valid = converter.checked(key) { key, tag in
                let replica = portableReplica(key, tagAt: tag.lowerBound)!
                if named.last != replica { named.append(replica) }
                return true
            }
            if valid == nil { converter = Converter(from: .portable) }  // not to be used again after a refusal
        }
        return named
    }
}
