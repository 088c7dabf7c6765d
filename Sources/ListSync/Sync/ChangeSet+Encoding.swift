/// ListSync's binary format for change sets and snapshots: version 6, whose deleted rows are runs.
/// Versions 4 and 5 (deleted rows one by one, 5 with field registers) and 1 to 3 (keys as plain bytes
/// from before keys had levels, mapped into the grammar of levels) are still read. Protocol.md specifies
/// it byte by byte.
extension ChangeSet {
    /// What the encoded bytes hold.
    enum Kind: UInt8 {
        case changeSet = 1
        case snapshot = 2
    }

    static let magic: [UInt8] = [0x4C, 0x53]  // "LS"
    /// The format version written.
    static let formatVersion: UInt8 = 6

    /// Flag bits of an encoded row update.
    fileprivate enum Flag {
        static let position: UInt64 = 1 << 0
        static let value: UInt64 = 1 << 1
        /// Versions 1 to 5.
        static let deletion: UInt64 = 1 << 2
        static let positionByInsert: UInt64 = 1 << 3
        static let valueByInsert: UInt64 = 1 << 4
        static let valueStampIsPositionStamp: UInt64 = 1 << 5
        /// Version 6: the entry is a run of inserted rows.
        static let run: UInt64 = 1 << 6
        /// The flags of an insert: position and value, both stamped by the insert, with one stamp.
        static let insert = position | value | positionByInsert | valueByInsert | valueStampIsPositionStamp
        /// The row's replica index is stored above the flag bits, in the same column (6 in versions 1 to 5).
        static let replicaShift: UInt64 = 7
        static let legacyReplicaShift: UInt64 = 6
    }

    /// The encoded bytes.
    public func encoded() -> [UInt8] { encoded(as: .changeSet) }

    /// Decodes a change set made by ``encoded()``.
    /// - Throws: ``BinaryDecodingError`` saying what is wrong and at which offset.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        var decoded = Decoded()
        try decoded.decode(bytes)
        self.init(
            coverage: decoded.coverage, updates: decoded.updates, payloads: decoded.payloads, fields: decoded.fields,
            deletions: decoded.deletions)
    }

    /// The most updates a change set may hold for its row IDs to be checked for repeats pairwise.
    static let smallChangeSet = 8

    /// The contents of one encoded change set, decoded and checked, in the order of the encoding: what
    /// ``init(decoding:)`` makes a change set of, and what ``Combination/add(decoding:)`` folds in. Decoding
    /// again reuses the arrays' storage.
    struct Decoded {
        private(set) var coverage = DotRanges()
        private(set) var updates: [RowUpdate] = []
        private(set) var payloads: [Payload?] = []
        private(set) var fields: [RowID: FieldRegisters] = [:]
        private(set) var deletions: [DeletionRun] = []

        /// Replaces the contents with those of `bytes`; on error they are left partly decoded.
        mutating func decode(_ bytes: [UInt8]) throws(BinaryDecodingError) {
            try bytes.withUnsafeBufferPointer { buffer throws(BinaryDecodingError) in
                try decode(bytes, reading: buffer)
            }
        }

        /// ``decode(_:)`` reading `bytes` through `buffer`, its memory.
        private mutating func decode(
            _ bytes: [UInt8], reading buffer: UnsafeBufferPointer<UInt8>
        ) throws(BinaryDecodingError) {
            var encoded = try EncodedUpdates(buffer, as: .changeSet)
            updates.removeAll(keepingCapacity: true)
            payloads.removeAll(keepingCapacity: true)
            if !fields.isEmpty { fields = [:] }
            updates.reserveCapacity(encoded.count)
            payloads.reserveCapacity(encoded.count)
            // Row IDs come once each: checked against those before in a small change set (most of those a
            // live peer sends hold one row), with an index in a larger one.
            let isSmall = encoded.count <= ChangeSet.smallChangeSet
            var seenRows = isSmall ? nil : RowIDIndex()
            seenRows?.reserveCapacity(encoded.count)
            for _ in 0..<encoded.count {
                var value: EncodedUpdates.Value?
                guard let update = try encoded.next(value: &value) else { continue }
                let isRepeated =
                    isSmall
                    ? updates.contains { $0.id == update.id }
                    : seenRows!.insert(Int32(updates.count), for: update.id, unlessPresent: { updates[Int($0)].id })
                        != nil
                guard !isRepeated else { throw .notCanonical(offset: encoded.rowIDsOffset) }
                if let registers = encoded.fields { fields[update.id] = registers }
                updates.append(update)
                payloads.append(value.map { Payload(typeIdentifier: encoded.types[$0.type], bytes: bytes[$0.bytes]) })
            }
            try encoded.expectEnd()
            deletions = try encoded.deletions()
            // A row is deleted or updated, not both.
            for update in updates where Tombstones.run(holding: update.id, in: deletions) != nil {
                throw .notCanonical(offset: encoded.rowIDsOffset)
            }
            coverage = encoded.coverage
        }
    }

    func encoded(as kind: Kind) -> [UInt8] {
        var writer = BinaryWriter()
        for byte in Self.magic { writer.write(byte) }
        let hasFields = !fields.isEmpty
        writer.write(Self.formatVersion)
        writer.write(kind.rawValue)

        // The tables hold exactly the replicas and types the rest refers to (types in order of first use).
        var replicaSet = Set(coverage.entries.map(\.replica))
        var types: [String] = []
        var typeIndex: [String: UInt64] = [:]
        var writtenKeys: [PositionKey] = []
        for (update, payload) in zip(updates, payloads) {
            let written = UpdateColumnWriter.registers(of: update, payload: payload)
            replicaSet.insert(update.id.replica)
            if written.position, let key = update.position {
                replicaSet.insert(update.positionStamp.dot.replica)
                writtenKeys.append(key)
            }
            if written.value { replicaSet.insert(update.valueStamp.dot.replica) }
            if written.value, let type = payload?.typeIdentifier, typeIndex[type] == nil {
                typeIndex[type] = UInt64(types.count)
                types.append(type)
            }
        }
        replicaSet.formUnion(KeyGrammar.replicas(namedBy: writtenKeys))
        for run in deletions {
            replicaSet.insert(run.replica)
            replicaSet.insert(run.stamp.dot.replica)
        }
        for registers in fields.values {
            for register in registers.values { replicaSet.insert(register.stamp.dot.replica) }
        }
        let replicas = replicaSet.sorted()
        let replicaIndex = Dictionary(uniqueKeysWithValues: replicas.enumerated().map { ($1, UInt64($0)) })
        writer.writeVarint(UInt64(replicas.count))
        for replica in replicas { writer.writeFixed64(replica.rawValue) }

        writer.writeVarint(UInt64(types.count))
        for type in types { writer.writeLengthPrefixed(Array(type.utf8)) }

        var names: [String] = []
        var nameIndex: [String: UInt64] = [:]
        for update in updates where hasFields {
            for (name, _) in Self.sortedFields(fields[update.id]) where nameIndex[name] == nil {
                nameIndex[name] = UInt64(names.count)
                names.append(name)
            }
        }
        writer.writeVarint(UInt64(names.count))
        for name in names { writer.writeLengthPrefixed(Array(name.utf8)) }

        writer.writeVarint(UInt64(coverage.entries.count))
        for entry in coverage.entries {
            writer.writeVarint(replicaIndex[entry.replica]!)
            writer.writeVarint(UInt64(entry.counters.ranges.count))
            var previousUpper: UInt64 = 0
            for range in entry.counters.ranges {
                writer.writeVarint(range.lowerBound - previousUpper - 1)
                writer.writeVarint(range.upperBound - range.lowerBound)
                previousUpper = range.upperBound
            }
        }

        DeletionRunCoding.write(deletions, replicaIndex: replicaIndex, to: &writer)

        var columns = UpdateColumnWriter(replicaIndex: replicaIndex, typeIndex: typeIndex, nameIndex: nameIndex)
        for (update, payload) in zip(updates, payloads) {
            columns.append(update, payload: payload, fields: Self.sortedFields(hasFields ? fields[update.id] : nil))
        }
        var body = BinaryWriter()
        for column in columns.finish().prefix(hasFields ? 16 : 12) { body.writeLengthPrefixed(column) }
        // Decoders take at most one update a byte after the count: updates that compress below that (a
        // regular progression of edits with empty values) are padded to it.
        let padding = Padding.length(updates: updates.count, bytes: body.bytes.count)
        writer.writeVarint(UInt64(updates.count) << 1 | (padding == nil ? 0 : 1))
        writer.write(contentsOf: body.bytes)
        if let padding {
            writer.writeVarint(UInt64(padding))
            writer.write(contentsOf: repeatElement(0, count: padding))
        }
        return writer.bytes
    }

    /// A row's field registers in their encoded order: by the UTF-8 bytes of their names.
    fileprivate static func sortedFields(_ registers: FieldRegisters?) -> [(String, FieldRegister)] {
        guard let registers else { return [] }
        return registers.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}

/// An encoded change set or snapshot being read: its header (replicas, value types, coverage, number
/// of updates), then its updates one at a time, validated as they are read.
///
/// Noncopyable, as its column reader: a reader is about 1 KB with a dozen references, and each copy
/// Swift made of it on the way out of an initializer retained and released them all (a log of change
/// sets of one row each decodes about a fifth faster without the copies).
@usableFromInline
struct EncodedUpdates: ~Copyable {
    /// A value as encoded: an index into ``types`` and the range of its bytes in the encoded buffer.
    @usableFromInline
    struct Value {
        @usableFromInline var type: Int
        @usableFromInline var bytes: Range<Int>
    }

    /// The operations the change set accounts for.
    let coverage: DotRanges
    /// The number of entries in the update columns, each read with ``next(value:)``: the updates, and
    /// before version 6 the deleted rows.
    let count: Int
    /// The type identifiers values refer to.
    let types: [String]
    /// The replica table, in increasing ID order.
    let replicas: [ReplicaID]
    /// Version 6's deletion runs; nil for earlier versions, whose deletions come among the updates.
    private let deletionRuns: [DeletionRun]?
    /// Where the update count ends, and whether padding follows the columns (version 6).
    private let countEnd: Int
    private let isPadded: Bool
    private var reader: BinaryReader
    private var columns: UpdateColumnReader

    /// Reads the header of `bytes`, which must be of `kind`; the updates are read from `bytes` too, so
    /// use this only inside the `withUnsafeBufferPointer` call that gave it (``BinaryReader``).
    init(_ bytes: UnsafeBufferPointer<UInt8>, as kind: ChangeSet.Kind) throws(BinaryDecodingError) {
        // Everything is read into locals before any property is set: a noncopyable value is never left
        // partly set.
        var reader = BinaryReader(bytes)
        for byte in ChangeSet.magic {
            guard try reader.readByte() == byte else { throw .badMagic }
        }
        let version = try reader.readByte()
        let layout: RunLengthReader.Layout
        switch version {
        case 1: layout = .pairs
        case 2...ChangeSet.formatVersion: layout = .groups
        default: throw .unsupportedVersion(version)
        }
        let hasLevels = version >= 4
        let hasDeletionRuns = version >= 6
        let foundKind = try reader.readByte()
        guard foundKind == kind.rawValue else { throw .wrongKind(expected: kind.rawValue, found: foundKind) }

        let replicaCount = try reader.readCount(minimumSize: 8)
        var replicas: [ReplicaID] = []
        replicas.reserveCapacity(replicaCount)
        for _ in 0..<replicaCount {
            let start = reader.offset
            let replica = ReplicaID(try reader.readFixed64())
            if let last = replicas.last, !(last < replica) { throw .notCanonical(offset: start) }
            replicas.append(replica)
        }
        func readReplica(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> ReplicaID {
            let start = reader.offset
            let index = try reader.readVarint()
            guard index < UInt64(replicas.count) else { throw .indexOutOfRange(offset: start) }
            return replicas[Int(index)]
        }

        let typeCount = try reader.readCount()
        var types: [String] = []
        for _ in 0..<typeCount { types.append(try reader.readString()) }

        var names: [String] = []
        let hasFields: Bool
        if hasDeletionRuns || version == 3 || version == 5 {
            let countOffset = reader.offset
            let nameCount = try reader.readCount()
            // Canonical: before version 6, a change set without field registers is written in version 2 or 4.
            guard nameCount > 0 || hasDeletionRuns else { throw .notCanonical(offset: countOffset) }
            for _ in 0..<nameCount { names.append(try reader.readString()) }
            hasFields = nameCount > 0
        } else {
            hasFields = false
        }

        var coverage = DotRanges()
        let coveredCount = try reader.readCount(minimumSize: 2)
        var previousReplica: ReplicaID?
        for _ in 0..<coveredCount {
            let start = reader.offset
            let replica = try readReplica(&reader)
            if let previousReplica, !(previousReplica < replica) { throw .notCanonical(offset: start) }
            previousReplica = replica
            let rangeCount = try reader.readCount(minimumSize: 2)
            var previousUpper: UInt64 = 0
            for _ in 0..<rangeCount {
                let rangeStart = reader.offset
                let gap = try reader.readVarint()
                let length = try reader.readVarint()
                let (lower, overflowLower) = previousUpper.addingReportingOverflow(gap)
                let (lowerBound, overflowOne) = lower.addingReportingOverflow(1)
                let (upperBound, overflowUpper) = lowerBound.addingReportingOverflow(length)
                guard !overflowLower && !overflowOne && !overflowUpper && upperBound <= Dot.maximumCounter else {
                    throw .invalidStamp(offset: rangeStart)
                }
                if previousUpper > 0 && gap == 0 { throw .notCanonical(offset: rangeStart) }
                coverage.insert(lowerBound...upperBound, of: replica)
                previousUpper = upperBound
            }
        }

        let deletionRuns = hasDeletionRuns ? try DeletionRunCoding.read(from: &reader, replicas: replicas) : nil
        let count: Int
        let isPadded: Bool
        if hasDeletionRuns {
            // The count, and in its low bit whether padding follows the columns.
            let countOffset = reader.offset
            let field = try reader.readVarint()
            guard field >> 1 <= UInt64(reader.remaining) else { throw .countTooLarge(offset: countOffset) }
            (count, isPadded) = (Int(field >> 1), field & 1 == 1)
        } else {
            count = try reader.readCount()
            isPadded = false
        }
        let countEnd = reader.offset
        let columns = try UpdateColumnReader(
            from: &reader, layout: layout, replicas: replicas, keysHaveLevels: hasLevels,
            keepsDeletions: !hasDeletionRuns, rows: count, typeCount: types.count, fieldNames: hasFields ? names : nil)
        self.coverage = coverage
        self.count = count
        self.types = types
        self.replicas = replicas
        self.deletionRuns = deletionRuns
        self.countEnd = countEnd
        self.isPadded = isPadded
        self.reader = reader
        self.columns = columns
    }

    /// The deleted rows, in canonical runs: version 6's runs, or the deletions of earlier versions read
    /// among the updates (call it after reading them all). A row deleted twice is `notCanonical`.
    mutating func deletions() throws(BinaryDecodingError) -> [DeletionRun] {
        if let deletionRuns { return deletionRuns }
        var points = columns.deletions
        points.sort { ($0.replica, $0.first) < ($1.replica, $1.first) }
        for (a, b) in zip(points, points.dropFirst()) where a.replica == b.replica && a.first == b.first {
            throw .notCanonical(offset: rowIDsOffset)
        }
        return DeletionRun.canonical(points)
    }

    /// Where the row ID column starts: the offset of an error about row IDs as a whole (one that comes
    /// twice).
    var rowIDsOffset: Int { columns.rowIDsOffset }

    /// The field registers of the update ``next(value:)`` read last, or nil when it has none.
    var fields: FieldRegisters? { columns.fields }

    /// The next update; sets `value` to its value, or nil when it carries none; its field registers are
    /// then in ``fields``. Nil for a deleted row of a version before 6, kept for ``deletions()``.
    ///
    /// Not a tuple of both: destroying that took a generic value-witness call per update.
    mutating func next(value: inout Value?) throws(BinaryDecodingError) -> RowUpdate? {
        try columns.next(value: &value)
    }

    /// The number of updates that are deletions, read ahead from the flags alone (to reserve room).
    func deletionCount() throws(BinaryDecodingError) -> Int {
        try columns.deletionCount(of: count)
    }

    /// Makes the keys of the updates read next carry `tags[r]` for each tag naming the replica of rank `r`
    /// in ``replicas``, instead of its portable tag: one label per replica, of the replica loading them.
    mutating func labelKeys(with tags: [[UInt8]]) {
        columns.tags = tags
    }

    /// Throws unless every update was read and no bytes follow.
    mutating func expectEnd() throws(BinaryDecodingError) {
        try columns.expectEnd()
        if isPadded {
            // Exactly the padding the encoder writes: the least that gives each update a byte, zeros.
            let columnBytes = reader.offset - countEnd
            let start = reader.offset
            let length = try reader.readVarint()
            guard length <= UInt64(reader.remaining),
                Padding.length(updates: count, bytes: columnBytes) == Int(length)
            else { throw .notCanonical(offset: start) }
            for _ in 0..<length {
                let offset = reader.offset
                guard try reader.readByte() == 0 else { throw .notCanonical(offset: offset) }
            }
        }
        try reader.expectEnd()
    }
}

/// The padding of version 6: zero bytes after the columns when the updates take fewer bytes than there
/// are updates, so that every encoding passes the decoders' bound of one update a byte.
enum Padding {
    /// The number of padding bytes after `bytes` bytes of columns holding `updates` updates: nil when
    /// none is needed, else the least `n` for which the columns, the varint `n` and `n` bytes take at
    /// least a byte an update.
    static func length(updates: Int, bytes: Int) -> Int? {
        guard updates > bytes else { return nil }
        var length = updates - bytes - 1
        while bytes + varintSize(UInt64(length)) + length < updates { length += 1 }
        while length > 0 && bytes + varintSize(UInt64(length - 1)) + length - 1 >= updates { length -= 1 }
        return length
    }

    /// The bytes of the varint `value`.
    private static func varintSize(_ value: UInt64) -> Int { max(1, (64 - value.leadingZeroBitCount + 6) / 7) }
}

/// Writes row updates into the columns of the binary format, each run of inserted rows
/// (``InsertRuns``) as one entry.
private struct UpdateColumnWriter {
    private typealias Flag = ChangeSet.Flag
    private let replicaIndex: [ReplicaID: UInt64]
    private let typeIndex: [String: UInt64]
    private var flags = RunLengthWriter()
    private var rowCounter = RunLengthWriter()
    private var keyShared = RunLengthWriter()
    private var keySuffixLength = RunLengthWriter()
    private var keySuffix = BinaryWriter()
    private var stampLamport = RunLengthWriter()
    private var stampReplica = RunLengthWriter()
    private var stampCounter = RunLengthWriter()
    private var valueType = RunLengthWriter()
    private var valueLength = RunLengthWriter()
    private var valueBytes = BinaryWriter()
    private var runs = RunLengthWriter()
    private let nameIndex: [String: UInt64]
    private var fieldCount = RunLengthWriter()
    private var fieldName = RunLengthWriter()
    private var fieldLength = RunLengthWriter()
    private var fieldBytes = BinaryWriter()
    private var previousCounter: UInt64 = 0
    /// Writes the keys' tags as ranks.
    private var keys = KeyGrammar.Converter(from: .portable)
    private var previousKey: [UInt8] = []
    private var previousStampCounter: UInt64 = 0
    /// Inserted rows in a row (in canonical order) that one run entry may hold, not written yet.
    private var pending: [InsertRuns.Row] = []
    /// The steps between the pending rows, once there are two.
    private var pendingSteps: (lamport: Int64, counter: Int64)?

    init(replicaIndex: [ReplicaID: UInt64], typeIndex: [String: UInt64], nameIndex: [String: UInt64]) {
        self.replicaIndex = replicaIndex
        self.typeIndex = typeIndex
        self.nameIndex = nameIndex
    }

    /// Which of `update`'s position and value registers are written: those with a stamp and a key or
    /// a value.
    static func registers(of update: RowUpdate, payload: ChangeSet.Payload?) -> (position: Bool, value: Bool) {
        (update.positionStamp.isSet && update.position != nil, update.valueStamp.isSet && payload != nil)
    }

    /// Appends `update` (in canonical order) with its value and field registers: to the pending run when
    /// it continues it, else after writing the pending rows.
    mutating func append(_ update: RowUpdate, payload: ChangeSet.Payload?, fields: [(String, FieldRegister)]) {
        let (hasPosition, _) = Self.registers(of: update, payload: payload)
        var key: PositionKey?
        if hasPosition, let position = update.position { key = ranked(position) }
        if let key, let payload, fields.isEmpty, InsertRuns.isInsert(update) {
            let row = InsertRuns.Row(
                update: update, payload: payload, key: key, lastLevel: lastLevel(of: update.position!, ranked: key))
            if let last = pending.last, let steps = InsertRuns.steps(from: last, to: row),
                pending.count == 1 || steps == pendingSteps!
            {
                pending.append(row)
                pendingSteps = steps
                return
            }
            writePending()
            pending.append(row)
            return
        }
        writePending()
        writeSingle(update, payload: payload, key: key, fields: fields)
    }

    /// `key` (portable) with its tags as ranks of the replica table (keys of a change set are valid).
    private mutating func ranked(_ key: PositionKey) -> PositionKey {
        let replicaIndex = self.replicaIndex
        return keys.convert(key) { key, tag, result in
            let rank = replicaIndex[KeyGrammar.portableReplica(key, tagAt: tag.lowerBound)!]!
            KeyGrammar.rankLabel(Int(rank), of: replicaIndex.count, into: &result)
            return true
        }!
    }

    /// The last level of `ranked`, the latest key ranked, from `key`, the portable key it was ranked from:
    /// its integer, and where it starts in `ranked` (the same bytes end both).
    private func lastLevel(of key: PositionKey, ranked: PositionKey) -> InsertRuns.LastLevel {
        var level = InsertRuns.LastLevel(of: key, startingAt: keys.lastLevelStart, tags: .portable)
        level.integerStart = ranked.count - (key.count - level.integerStart)
        return level
    }

    /// Writes the pending rows: a run entry when there are two or more.
    private mutating func writePending() {
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingSteps = nil
        }
        guard let first = pending.first, let last = pending.last else { return }
        guard let steps = pendingSteps else {
            return writeSingle(first.update, payload: first.payload, key: first.key, fields: [])
        }
        let update = first.update
        flags.append(Flag.insert | Flag.run | replicaIndex[update.id.replica]! << Flag.replicaShift)
        rowCounter.append(signed: Int64(bitPattern: update.id.counter &- previousCounter))
        previousCounter = last.update.id.counter
        appendKey(first.key)
        previousKey = last.key.bytes
        appendStamp(update.positionStamp, byInsert: true)
        runs.append(UInt64(pending.count - 2) * 6 + RunSteps.code(lamport: steps.lamport, counter: steps.counter))
        valueType.append(typeIndex[first.payload.typeIdentifier]!)
        for row in pending {
            valueLength.append(UInt64(row.payload.bytes.count))
            for byte in row.payload.bytes { valueBytes.write(byte) }
        }
        fieldCount.append(0)
    }

    /// Writes one update as an entry of its own.
    private mutating func writeSingle(
        _ update: RowUpdate, payload: ChangeSet.Payload?, key: PositionKey?, fields: [(String, FieldRegister)]
    ) {
        var bits: UInt64 = 0
        let (hasPosition, hasValue) = Self.registers(of: update, payload: payload)
        if hasPosition { bits |= Flag.position }
        if hasValue { bits |= Flag.value }
        if hasPosition && update.positionStamp.dot == update.id { bits |= Flag.positionByInsert }
        if hasValue && update.valueStamp.dot == update.id { bits |= Flag.valueByInsert }
        let valueSharesStamp = hasPosition && hasValue && update.valueStamp == update.positionStamp
        if valueSharesStamp { bits |= Flag.valueStampIsPositionStamp }
        flags.append(bits | replicaIndex[update.id.replica]! << Flag.replicaShift)
        rowCounter.append(signed: Int64(bitPattern: update.id.counter &- previousCounter))
        previousCounter = update.id.counter
        if let key {
            appendKey(key)
            previousKey = key.bytes
            appendStamp(update.positionStamp, byInsert: update.positionStamp.dot == update.id)
        }
        if hasValue, let payload {
            if !valueSharesStamp { appendStamp(update.valueStamp, byInsert: update.valueStamp.dot == update.id) }
            valueType.append(typeIndex[payload.typeIdentifier]!)
            valueLength.append(UInt64(payload.bytes.count))
            for byte in payload.bytes { valueBytes.write(byte) }
        }
        fieldCount.append(UInt64(fields.count))
        for (name, register) in fields {
            fieldName.append(nameIndex[name]!)
            appendStamp(register.stamp, byInsert: false)
            fieldLength.append(register.fragment.map { UInt64($0.count) + 1 } ?? 0)
            for byte in register.fragment ?? [] { fieldBytes.write(byte) }
        }
    }

    /// A key: the bytes it shares with the previous key, then the rest.
    private mutating func appendKey(_ key: PositionKey) {
        let shared = previousKey.withUnsafeBufferPointer { previous in
            var shared = 0
            while shared < min(key.count, previous.count) && key.byte(at: shared) == previous[shared] { shared += 1 }
            return shared
        }
        keyShared.append(UInt64(shared))
        keySuffixLength.append(UInt64(key.count - shared))
        for index in shared..<key.count { keySuffix.write(key.byte(at: index)) }
    }

    /// A stamp: its Lamport time relative to its dot's counter; its dot unless it is the row ID.
    private mutating func appendStamp(_ stamp: Stamp, byInsert: Bool) {
        stampLamport.append(signed: Int64(bitPattern: stamp.lamport &- stamp.dot.counter))
        guard !byInsert else { return }
        stampReplica.append(replicaIndex[stamp.dot.replica]!)
        stampCounter.append(signed: Int64(bitPattern: stamp.dot.counter &- previousStampCounter))
        previousStampCounter = stamp.dot.counter
    }

    /// The columns in encoding order.
    mutating func finish() -> [[UInt8]] {
        writePending()
        return [
            flags.finish(), rowCounter.finish(), keyShared.finish(), keySuffixLength.finish(),
            keySuffix.bytes, stampLamport.finish(), stampReplica.finish(), stampCounter.finish(), valueType.finish(),
            valueLength.finish(), valueBytes.bytes, runs.finish(), fieldCount.finish(), fieldName.finish(),
            fieldLength.finish(), fieldBytes.bytes,
        ]
    }
}

/// Runs of inserted rows (format 6, Protocol.md section 1, *Insert runs*): rows in a row in canonical
/// order, each an insert never moved or edited since, of one replica, counters and stamps stepping
/// evenly, values of one type, keys of one prefix ending in the next run integers. Written as one entry.
private enum InsertRuns {
    /// A key's last level: where its integer starts, and the integer.
    struct LastLevel {
        var integerStart: Int
        var integer: Int64

        /// The level whose integer `integer` starts at `integerStart`.
        init(integerStart: Int, integer: Int64) {
            (self.integerStart, self.integer) = (integerStart, integer)
        }

        /// The last level of `key`, which follows the grammar with tags of `form` and whose last level
        /// starts at `start`.
        init(of key: PositionKey, startingAt start: Int, tags form: KeyGrammar.TagForm) {
            let level = KeyGrammar.level(of: key, at: start, tags: form)!
            (integerStart, integer) = (level.integerStart, level.integer(in: key)!)
        }
    }

    /// A row a run may hold: its update, value, ranked key and the key's last level.
    struct Row {
        var update: RowUpdate
        var payload: ChangeSet.Payload
        var key: PositionKey
        var lastLevel: LastLevel
    }

    /// Whether `update` sets a position and a value by one insert: the stamps equal, their dot the row ID.
    static func isInsert(_ update: RowUpdate) -> Bool {
        update.positionStamp.isSet && update.positionStamp.dot == update.id && update.valueStamp == update.positionStamp
    }

    /// The steps from `a` to `b` when `b` can follow `a` in a run: the same replica and value type,
    /// stamps one step apart (``Stamp/runSteps(to:)``), and `b`'s key `a`'s with the next integer.
    static func steps(from a: Row, to b: Row) -> (lamport: Int64, counter: Int64)? {
        guard a.update.id.replica == b.update.id.replica, a.payload.typeIdentifier == b.payload.typeIdentifier,
            let steps = a.update.positionStamp.runSteps(to: b.update.positionStamp),
            follows(b.key, b.lastLevel, a.key, a.lastLevel)
        else { return nil }
        return steps
    }

    /// Whether `key` (last level `level`) is `previous` (last level `previousLevel`) with its integer
    /// replaced by the next one.
    static func follows(
        _ key: PositionKey, _ level: LastLevel, _ previous: PositionKey, _ previousLevel: LastLevel
    ) -> Bool {
        level.integerStart == previousLevel.integerStart
            && level.integer == RunInteger.successor(of: previousLevel.integer)
            && key.commonPrefixCount(with: previous) >= level.integerStart
    }
}

/// A run of inserted rows as a reader goes through it: plain values, mutated in place row by row.
private struct InsertRunReading {
    /// The steps of a run, Lamport time and counter.
    struct Steps: Equatable {
        var lamport: Int64
        var counter: Int64
    }

    /// A row read that a run holds or could hold: its ID, stamp, value type, key as encoded, the key's
    /// last level, and the run's steps (nil for a row of its own).
    struct LastRow {
        var id: RowID
        var stamp: Stamp
        var type: Int
        var key: PositionKey
        var lastLevel: InsertRuns.LastLevel
        var steps: Steps?

        /// Whether `next`, the first row of the next entry, continues this row's run (or, for a row of
        /// its own, would make a run with it): what a canonical encoding never leaves apart.
        func isContinued(by next: LastRow) -> Bool {
            guard id.replica == next.id.replica, type == next.type,
                let (lamport, counter) = stamp.runSteps(to: next.stamp),
                steps.map({ $0 == Steps(lamport: lamport, counter: counter) }) ?? true
            else { return false }
            return InsertRuns.follows(next.key, next.lastLevel, key, lastLevel)
        }
    }

    /// The rows still to read (0: no run).
    var remaining = 0
    /// The latest row's replica, counter, Lamport time and key integer, and the steps to the next row's.
    var replica = ReplicaID(0)
    var counter: UInt64 = 0
    var counterStep: Int64 = 0
    var lamport: UInt64 = 0
    var lamportStep: Int64 = 0
    var integer: Int64 = 0
    /// The rows' value type.
    var type = 0
    /// The rows' keys with the reader's tags, without their integer.
    var outputPrefix = PositionKey.empty
    /// Where the integer of the run's keys starts, as encoded.
    var encodedIntegerStart = 0
    /// Where the run's key is encoded: the offset of an error about the run's keys.
    var keyOffset = 0
}

/// The steps of a run (deleted or inserted rows) as one number of the format: (Lamport step + 1) × 2,
/// plus 1 when the counter step is 1, 0 to 5. A run of one row has the steps (0, 1), code 3.
private enum RunSteps {
    static func code(lamport: Int64, counter: Int64) -> UInt64 { UInt64((lamport + 1) * 2 + (counter > 0 ? 1 : 0)) }

    /// The steps (Lamport time, counter) of `code`, or nil when it is none.
    static func steps(code: UInt64) -> (lamport: Int64, counter: Int64)? {
        guard code <= 5 else { return nil }
        return (Int64(code / 2) - 1, code % 2 == 1 ? 1 : -1)
    }
}

/// Reads row updates from the columns of the binary format, validating as it goes.
private struct UpdateColumnReader: ~Copyable {
    private typealias Flag = ChangeSet.Flag

    // The columns of the update section, in their order in the encoding (format 3's field columns last).
    private var flags: RunLengthReader
    private var rowCounter: RunLengthReader
    private var keyShared: RunLengthReader
    private var keySuffixLength: RunLengthReader
    private var keySuffix: BinaryReader
    private var stampLamport: RunLengthReader
    private var stampReplica: RunLengthReader
    private var stampCounter: RunLengthReader
    private var valueType: RunLengthReader
    private var valueLength: RunLengthReader
    private var valueBytes: BinaryReader
    /// Version 6's run column: per run of inserted rows, its length and steps; nil before.
    private var runs: RunLengthReader?
    /// Format 3's field columns and name table; nil for formats 1 and 2.
    private var fieldColumns: FieldColumns?
    private let fieldNames: [String]
    /// The field registers of the update read last.
    private(set) var fields: FieldRegisters?
    private let replicas: [ReplicaID]
    /// Whether keys follow ``KeyGrammar`` with rank labels (versions 4 to 6), not plain bytes.
    private let keysHaveLevels: Bool
    /// Whether updates may be deletions (versions 1 to 5), which are kept in ``deletions``.
    private let keepsDeletions: Bool
    /// The deleted rows read so far, one run each (versions 1 to 5).
    private(set) var deletions: [DeletionRun] = []
    /// Gives decoded keys their tags.
    private var converter = KeyGrammar.Converter(from: .label)
    /// The tag decoded keys get for each replica of the table; nil for portable tags, made from the
    /// replica table as keys need them (most change sets are read with them: no array per replica).
    var tags: [[UInt8]]? {
        didSet {
            tagsAreRanks =
                tags.map { tags in
                    tags.indices.allSatisfy { rank in
                        var label = PositionKey.empty
                        KeyGrammar.rankLabel(rank, of: tags.count, into: &label)
                        return label.bytes == tags[rank]
                    }
                } ?? false
        }
    }
    /// Whether ``tags`` are the ranks' labels themselves, so that keys are only checked.
    private var tagsAreRanks = false
    private let typeCount: Int
    private var previousCounter: UInt64 = 0
    /// The previous key as encoded (the next one shares a prefix with it).
    private var previousKey = PositionKey([])
    private var previousStampCounter: UInt64 = 0
    /// Where the row ID column starts: the offset of an error about row IDs as a whole (one that comes
    /// twice).
    let rowIDsOffset: Int
    /// Where the flags end and the row replica index starts in column 0.
    private let replicaShift: UInt64
    /// The rows not read yet.
    private var rowsLeft: Int
    /// The run of inserted rows being read (none when it has no rows left).
    private var run = InsertRunReading()
    /// The last row read when it is an insert a run could have held, for the check that runs are as
    /// long as they can be.
    private var lastInsert: InsertRunReading.LastRow?

    /// A reader of the columns that follow in `reader` (each a varint length, then its bytes), whose
    /// run-length columns are grouped as `layout`; format 3's field columns follow when `fieldNames`
    /// is not nil.
    init(
        from reader: inout BinaryReader, layout: RunLengthReader.Layout, replicas: [ReplicaID], keysHaveLevels: Bool,
        keepsDeletions: Bool, rows: Int, typeCount: Int, fieldNames: [String]?
    ) throws(BinaryDecodingError) {
        func column() throws(BinaryDecodingError) -> BinaryReader {
            let start = reader.offset
            let length = try reader.readVarint()
            guard length <= UInt64(reader.remaining) else { throw .truncated(offset: start) }
            return try reader.subreader(Int(length))
        }
        func runLengthColumn() throws(BinaryDecodingError) -> RunLengthReader {
            RunLengthReader(try column(), layout: layout)
        }
        // Every column is read before any property is set: a noncopyable value is never left partly set.
        let flags = try runLengthColumn()
        let rowCounter = try runLengthColumn()
        let keyShared = try runLengthColumn()
        let keySuffixLength = try runLengthColumn()
        let keySuffix = try column()
        let stampLamport = try runLengthColumn()
        let stampReplica = try runLengthColumn()
        let stampCounter = try runLengthColumn()
        let valueType = try runLengthColumn()
        let valueLength = try runLengthColumn()
        let valueBytes = try column()
        // Version 6 (whose deleted rows are runs apart) has the run column and a wider flag field.
        let runs = keepsDeletions ? nil : try runLengthColumn()
        let fieldColumns =
            fieldNames == nil
            ? nil
            : FieldColumns(
                count: try runLengthColumn(), name: try runLengthColumn(), length: try runLengthColumn(),
                bytes: try column())
        self.flags = flags
        self.rowCounter = rowCounter
        self.keyShared = keyShared
        self.keySuffixLength = keySuffixLength
        self.keySuffix = keySuffix
        self.stampLamport = stampLamport
        self.stampReplica = stampReplica
        self.stampCounter = stampCounter
        self.valueType = valueType
        self.valueLength = valueLength
        self.valueBytes = valueBytes
        self.runs = runs
        self.fieldColumns = fieldColumns
        rowIDsOffset = rowCounter.valueOffset
        replicaShift = keepsDeletions ? Flag.legacyReplicaShift : Flag.replicaShift
        rowsLeft = rows
        self.fieldNames = fieldNames ?? []
        self.replicas = replicas
        self.keysHaveLevels = keysHaveLevels
        self.keepsDeletions = keepsDeletions
        tags = nil
        self.typeCount = typeCount
    }

    /// The key `encoded`, read from the keys' columns at `offset`, with this reader's tags; for versions 1 to 3, the plain bytes `b1 ... bn`
    /// as the levels `(0x00, b1 - 192) ... (0x00, bn - 192)`, which order like the bytes did.
    private mutating func key(_ encoded: PositionKey, at offset: Int) throws(BinaryDecodingError) -> PositionKey {
        guard keysHaveLevels else {
            var key = PositionKey.empty
            for index in 0..<encoded.count {
                key.append(KeyGrammar.structural)
                RunInteger.append(Int64(encoded.byte(at: index)) - 192, to: &key)
            }
            return key
        }
        let (tags, replicas) = (self.tags, self.replicas)
        let key =
            tagsAreRanks
            ? converter.checked(encoded) { key, tag in
                KeyGrammar.rank(ofLabel: key, tag, count: replicas.count) != nil
            }
            : converter.convert(encoded) { key, tag, result in
                guard let rank = KeyGrammar.rank(ofLabel: key, tag, count: replicas.count) else { return false }
                if let tags {
                    for byte in tags[rank] { result.append(byte) }
                } else {
                    KeyGrammar.appendPortable(replicas[rank], to: &result)
                }
                return true
            }
        guard let key else { throw .invalidPositionKey(offset: offset) }
        return key
    }

    /// The replica numbered `index`, whose encoding is at `offset`.
    private func replica(_ index: UInt64, at offset: Int) throws(BinaryDecodingError) -> ReplicaID {
        guard index < UInt64(replicas.count) else { throw .indexOutOfRange(offset: offset) }
        return replicas[Int(index)]
    }

    // Each error names the offset where the value at fault is encoded (a run's value, for a run).

    /// The next update, or nil for a deleted row (versions 1 to 5), which goes to ``deletions``.
    mutating func next(value: inout EncodedUpdates.Value?) throws(BinaryDecodingError) -> RowUpdate? {
        rowsLeft -= 1
        if run.remaining > 0 { return try nextRunRow(value: &value) }
        let flagsAndReplica = try flags.next()
        let flagsOffset = flags.valueOffset
        let bits = flagsAndReplica & ((1 << replicaShift) - 1)
        let hasPosition = bits & Flag.position != 0
        let hasValue = bits & Flag.value != 0
        let hasDeletion = bits & Flag.deletion != 0
        let fieldCount = try fieldColumns?.count.next() ?? 0
        let isRun = bits & Flag.run != 0
        guard hasPosition || hasValue || hasDeletion || fieldCount > 0, !(hasDeletion && fieldCount > 0),
            keepsDeletions || !hasDeletion,
            fieldCount <= UInt64(fieldNames.count),
            !(hasDeletion && (hasPosition || hasValue)),
            hasPosition || bits & Flag.positionByInsert == 0, hasValue || bits & Flag.valueByInsert == 0,
            bits & Flag.valueStampIsPositionStamp == 0
                || (hasPosition && hasValue && (bits & Flag.valueByInsert != 0) == (bits & Flag.positionByInsert != 0)),
            !isRun || (runs != nil && bits == Flag.insert | Flag.run && fieldCount == 0)
        else { throw .invalidFlags(offset: flagsOffset) }
        let counter = previousCounter &+ UInt64(bitPattern: try rowCounter.nextSigned())
        guard counter > 0 && counter <= Dot.maximumCounter else { throw .invalidStamp(offset: rowCounter.valueOffset) }
        previousCounter = counter
        let id = RowID(replica: try replica(flagsAndReplica >> replicaShift, at: flagsOffset), counter: counter)
        // The update is made at the end from these: a partly built update alive across the throwing reads
        // below would be copied at each of them.
        var position: PositionKey?
        var positionStamp = Stamp.none
        var valueStamp = Stamp.none
        var keyOffset = 0
        value = nil
        if hasPosition {
            (position, keyOffset) = try nextKey()
            positionStamp = try nextStamp(byInsert: bits & Flag.positionByInsert != 0, id: id)
        }
        if hasValue {
            if bits & Flag.valueStampIsPositionStamp != 0 {
                valueStamp = positionStamp
            } else {
                valueStamp = try nextStamp(byInsert: bits & Flag.valueByInsert != 0, id: id)
                // Canonical: a value stamp equal to the position stamp is flagged (bit 5), not written again.
                guard !hasPosition || valueStamp != positionStamp else {
                    throw .notCanonical(offset: stampLamport.valueOffset)
                }
            }
            value = try nextValue(type: try nextType())
        }
        if fieldCount > 0 {
            fields = try nextFields(count: Int(fieldCount), id: id, after: valueStamp)
        } else if fields != nil {
            fields = nil
        }
        if hasDeletion {
            deletions.append(DeletionRun(id, deletedBy: try nextStamp(byInsert: false, id: id)))
            return nil
        }
        if runs != nil {
            // An insert of its own or the first of a run: it must not continue the insert read before.
            if bits & Flag.insert == Flag.insert && fieldCount == 0 {
                let row = InsertRunReading.LastRow(
                    id: id, stamp: positionStamp, type: value!.type, key: previousKey,
                    lastLevel: InsertRuns.LastLevel(
                        of: previousKey, startingAt: converter.lastLevelStart, tags: .label),
                    steps: nil)
                if let lastInsert, lastInsert.isContinued(by: row) { throw .notCanonical(offset: flagsOffset) }
                lastInsert = row
            } else {
                lastInsert = nil
            }
            if isRun { try startRun(at: lastInsert!, output: position!, keyOffset: keyOffset) }
        }
        return RowUpdate(id: id, position: position, positionStamp: positionStamp, valueStamp: valueStamp)
    }

    /// The key at the head of the key columns, with this reader's tags, and where its suffix is encoded.
    private mutating func nextKey() throws(BinaryDecodingError) -> (PositionKey, offset: Int) {
        let shared = try keyShared.next()
        let suffixLength = try keySuffixLength.next()
        guard shared <= UInt64(previousKey.count) else { throw .invalidPositionKey(offset: keyShared.valueOffset) }
        guard suffixLength <= UInt64(keySuffix.remaining) else {
            throw .invalidPositionKey(offset: keySuffixLength.valueOffset)
        }
        let suffixStart = keySuffix.offset
        var key = previousKey.prefix(Int(shared))
        for _ in 0..<suffixLength { key.append(try keySuffix.readByte()) }
        let offset = suffixLength > 0 ? suffixStart : keySuffixLength.valueOffset
        guard key.count > 0 && key[key.count - 1] != 0 else { throw .invalidPositionKey(offset: offset) }
        previousKey = key
        return (try self.key(key, at: offset), offset)
    }

    /// The next value type index.
    private mutating func nextType() throws(BinaryDecodingError) -> Int {
        let type = try valueType.next()
        guard type < UInt64(typeCount) else { throw .indexOutOfRange(offset: valueType.valueOffset) }
        return Int(type)
    }

    /// The next value, of type `type`.
    private mutating func nextValue(type: Int) throws(BinaryDecodingError) -> EncodedUpdates.Value {
        let length = try valueLength.next()
        guard length <= UInt64(valueBytes.remaining) else { throw .truncated(offset: valueBytes.offset) }
        return EncodedUpdates.Value(type: type, bytes: try valueBytes.skip(Int(length)))
    }

    /// Starts the run whose first row, `first`, was just read (its output key `output`, encoded at
    /// `keyOffset`): reads its length and steps and checks that every row's counter and Lamport time
    /// lie in their ranges.
    private mutating func startRun(
        at first: InsertRunReading.LastRow, output: PositionKey, keyOffset: Int
    ) throws(BinaryDecodingError) {
        let code = try runs!.next()
        let offset = runs!.valueOffset
        let (lamportStep, counterStep) = RunSteps.steps(code: code % 6)!
        let more = code / 6 + 1  // rows after the first
        guard more <= UInt64(rowsLeft) else { throw .countTooLarge(offset: offset) }
        let (counter, lamport) = (first.id.counter, first.stamp.lamport)
        guard counterStep > 0 ? more <= Dot.maximumCounter - counter : more < counter,
            lamportStep == 0 || (lamportStep > 0 ? more <= Stamp.maximumLamport - lamport : more < lamport)
        else { throw .invalidStamp(offset: offset) }
        let integerLength = first.key.count - first.lastLevel.integerStart
        run = InsertRunReading(
            remaining: Int(more), replica: first.id.replica, counter: counter, counterStep: counterStep,
            lamport: lamport, lamportStep: lamportStep, integer: first.lastLevel.integer, type: first.type,
            outputPrefix: output.prefix(output.count - integerLength),
            encodedIntegerStart: first.lastLevel.integerStart,
            keyOffset: keyOffset)
    }

    /// The next row of the run being read.
    private mutating func nextRunRow(value: inout EncodedUpdates.Value?) throws(BinaryDecodingError) -> RowUpdate {
        run.integer = RunInteger.successor(of: run.integer)
        guard run.integer <= RunInteger.decodableRange.upperBound else {
            throw .invalidPositionKey(offset: run.keyOffset)
        }
        run.counter &+= UInt64(bitPattern: run.counterStep)
        run.lamport &+= UInt64(bitPattern: run.lamportStep)
        run.remaining -= 1
        let id = RowID(replica: run.replica, counter: run.counter)
        let stamp = Stamp(lamport: run.lamport, dot: id)
        var key = run.outputPrefix
        RunInteger.append(run.integer, to: &key)
        value = try nextValue(type: run.type)
        fields = nil
        if run.remaining == 0 {
            // The next entry continues from the run's last row, as encoded.
            // `previousKey` is still the run's first key.
            let integerStart = run.encodedIntegerStart
            var encoded = previousKey.prefix(integerStart)
            RunInteger.append(run.integer, to: &encoded)
            previousKey = encoded
            previousCounter = id.counter
            lastInsert = InsertRunReading.LastRow(
                id: id, stamp: stamp, type: run.type, key: encoded,
                lastLevel: InsertRuns.LastLevel(integerStart: integerStart, integer: run.integer),
                steps: InsertRunReading.Steps(lamport: run.lamportStep, counter: run.counterStep))
        }
        return RowUpdate(id: id, position: key, positionStamp: stamp, valueStamp: stamp)
    }

    /// Reads `count` field registers of row `id`, whose value stamp in this update is `valueStamp`:
    /// names strictly increasing by their UTF-8 bytes, stamps newer than the value's, values one JSON
    /// value each.
    private mutating func nextFields(count: Int, id: RowID, after valueStamp: Stamp) throws(BinaryDecodingError)
        -> FieldRegisters
    {
        // Only called with a count read from the field columns, so they are there.
        var registers = FieldRegisters(minimumCapacity: count)
        var previousName: String?
        for _ in 0..<count {
            let index = try fieldColumns!.name.next()
            let nameOffset = fieldColumns!.name.valueOffset
            guard index < UInt64(fieldNames.count) else { throw .indexOutOfRange(offset: nameOffset) }
            let name = fieldNames[Int(index)]
            if let previousName, !previousName.utf8.lexicographicallyPrecedes(name.utf8) {
                throw .notCanonical(offset: nameOffset)
            }
            previousName = name
            let stamp = try nextStamp(byInsert: false, id: id)
            // Canonical: a register not newer than the value it comes with is never written.
            guard stamp > valueStamp else { throw .notCanonical(offset: stampLamport.valueOffset) }
            let length = try fieldColumns!.length.next()
            var fragment: [UInt8]?
            if length > 0 {
                let start = fieldColumns!.bytes.offset
                guard length - 1 <= UInt64(fieldColumns!.bytes.remaining) else { throw .truncated(offset: start) }
                let bytes = Array(try fieldColumns!.bytes.readBytes(Int(length - 1)))
                guard JSONFields.isFragment(bytes[...]) else { throw .invalidFieldValue(offset: start) }
                fragment = bytes
            }
            registers[name] = FieldRegister(stamp: stamp, fragment: fragment)
        }
        return registers
    }

    private mutating func nextStamp(byInsert: Bool, id: RowID) throws(BinaryDecodingError) -> Stamp {
        let relativeLamport = try stampLamport.nextSigned()
        var dot = id
        if !byInsert {
            let counter = previousStampCounter &+ UInt64(bitPattern: try stampCounter.nextSigned())
            previousStampCounter = counter
            // Read the index first: a mutation inside the call's arguments would copy the whole reader.
            let replicaIndex = try stampReplica.next()
            dot = Dot(replica: try replica(replicaIndex, at: stampReplica.valueOffset), counter: counter)
            guard counter > 0 && counter <= Dot.maximumCounter else {
                throw .invalidStamp(offset: stampCounter.valueOffset)
            }
            // Canonical: a dot that is the row ID is flagged (bits 3 and 4), not written; a deletion's
            // dot never is.
            guard dot != id else { throw .notCanonical(offset: stampCounter.valueOffset) }
        }
        let lamport = dot.counter &+ UInt64(bitPattern: relativeLamport)
        guard lamport > 0 && lamport <= Stamp.maximumLamport else {
            throw .invalidStamp(offset: stampLamport.valueOffset)
        }
        return Stamp(lamport: lamport, dot: dot)
    }

    /// The number of deletions among the next `count` updates, read from a copy of the flags column (none
    /// in version 6, whose deleted rows are runs apart).
    func deletionCount(of count: Int) throws(BinaryDecodingError) -> Int {
        guard keepsDeletions else { return 0 }
        var flags = self.flags
        var deletions = 0
        for _ in 0..<count where try flags.next() & Flag.deletion != 0 { deletions += 1 }
        return deletions
    }

    /// Throws unless every column was read to its end.
    func expectEnd() throws(BinaryDecodingError) {
        // Column by column, in their order: an array of the columns would copy each of them.
        try flags.expectEnd()
        try rowCounter.expectEnd()
        try keyShared.expectEnd()
        try keySuffixLength.expectEnd()
        try keySuffix.expectEnd()
        try stampLamport.expectEnd()
        try stampReplica.expectEnd()
        try stampCounter.expectEnd()
        try valueType.expectEnd()
        try valueLength.expectEnd()
        try valueBytes.expectEnd()
        try runs?.expectEnd()
        guard run.remaining == 0 else { throw .truncated(offset: valueLength.valueOffset) }
        if let fieldColumns {
            try fieldColumns.count.expectEnd()
            try fieldColumns.name.expectEnd()
            try fieldColumns.length.expectEnd()
            try fieldColumns.bytes.expectEnd()
        }
    }
}

/// The field register columns of format 3.
private struct FieldColumns {
    /// Per update: how many field registers it has.
    var count: RunLengthReader
    /// Per register: its name's index in the name table.
    var name: RunLengthReader
    /// Per register: 0 when the field is absent, else its value's length plus one.
    var length: RunLengthReader
    /// The field values, concatenated.
    var bytes: BinaryReader
}

/// The deletion runs of version 6 (Protocol.md section 1, *Deletion runs*): a head byte, then up to five
/// varints per run, so that a run takes at least four bytes, whatever its length.
private enum DeletionRunCoding {
    /// Head bits: the steps code in bits 0 to 2, a length of 1 to 3 in bits 3 and 4 (0: the length
    /// follows), a row replica index follows (else the previous run's), a dot replica index follows
    /// (else the row replica).
    static let lengthShift: UInt64 = 3
    static let rowReplicaFollows: UInt64 = 1 << 5
    static let dotReplicaFollows: UInt64 = 1 << 6
    /// The longest length written in the head.
    static let longestInHead: UInt64 = 3
    /// The fewest bytes a run takes: the head, the first row, the Lamport time and the dot counter.
    static let minimumSize = 4

    /// Writes `runs` (canonical) with the replica table `replicaIndex`.
    static func write(_ runs: [DeletionRun], replicaIndex: [ReplicaID: UInt64], to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(runs.count))
        var previous: DeletionRun?
        for run in runs {
            var head = RunSteps.code(lamport: run.lamportStep, counter: run.counterStep)
            if run.length <= longestInHead { head |= run.length << lengthShift }
            let newReplica = previous?.replica != run.replica
            if newReplica { head |= rowReplicaFollows }
            if run.stamp.dot.replica != run.replica { head |= dotReplicaFollows }
            writer.writeVarint(head)
            if newReplica { writer.writeVarint(replicaIndex[run.replica]!) }
            writer.writeVarint(run.first - (newReplica ? 0 : previous!.end))
            if run.length > longestInHead { writer.writeVarint(run.length) }
            writer.writeVarint(zigzag: Int64(bitPattern: lamportOffset(of: run) &- (previous.map(lamportOffset) ?? 0)))
            if run.stamp.dot.replica != run.replica { writer.writeVarint(replicaIndex[run.stamp.dot.replica]!) }
            writer.writeVarint(zigzag: Int64(bitPattern: run.stamp.dot.counter &- (previous?.stamp.dot.counter ?? 0)))
            previous = run
        }
    }

    /// The first row's Lamport time minus its dot's counter, which runs write as differences.
    private static func lamportOffset(of run: DeletionRun) -> UInt64 { run.stamp.lamport &- run.stamp.dot.counter }

    /// Reads runs written by ``write(_:replicaIndex:to:)`` with the replica table `replicas`, checking that
    /// they are canonical: ordered by row, each as long as it can be (``DeletionRun/Canonical``), every
    /// head in one form, every row and stamp in its valid range.
    static func read(
        from reader: inout BinaryReader, replicas: [ReplicaID]
    ) throws(BinaryDecodingError) -> [DeletionRun] {
        func replica(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> ReplicaID {
            let start = reader.offset
            let index = try reader.readVarint()
            guard index < UInt64(replicas.count) else { throw .indexOutOfRange(offset: start) }
            return replicas[Int(index)]
        }
        let count = try reader.readCount(minimumSize: minimumSize)
        var runs: [DeletionRun] = []
        runs.reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            let head = try reader.readVarint()
            let previous = runs.last
            // One byte; the first run names its replica.
            guard head < 1 << 7, let (lamportStep, counterStep) = RunSteps.steps(code: head & 7),
                previous != nil || head & rowReplicaFollows != 0
            else { throw .notCanonical(offset: start) }
            let lengthInHead = head >> lengthShift & 3
            let rowReplica = head & rowReplicaFollows != 0 ? try replica(&reader) : previous!.replica
            // Canonical: a replica index is written exactly when it changes, runs come in row order.
            if let previous, head & rowReplicaFollows != 0, !(previous.replica < rowReplica) {
                throw .notCanonical(offset: start)
            }
            let firstOffset = reader.offset
            let gap = try reader.readVarint()
            let base = head & rowReplicaFollows != 0 ? 0 : previous!.end
            let (first, overflowFirst) = base.addingReportingOverflow(gap)
            guard !overflowFirst, first >= 1, first <= Dot.maximumCounter else {
                throw .invalidStamp(offset: firstOffset)
            }
            let lengthOffset = lengthInHead > 0 ? start : reader.offset
            let length = lengthInHead > 0 ? lengthInHead : try reader.readVarint()
            guard lengthInHead > 0 || length > longestInHead else { throw .notCanonical(offset: lengthOffset) }
            guard length - 1 <= Dot.maximumCounter - first else { throw .invalidStamp(offset: lengthOffset) }
            guard length > 1 || (lamportStep, counterStep) == (0, 1) else { throw .notCanonical(offset: start) }
            let lamportFieldOffset = reader.offset
            let offset = (previous.map(lamportOffset) ?? 0) &+ UInt64(bitPattern: try reader.readSignedVarint())
            let dotReplicaOffset = reader.offset
            let dotReplica = head & dotReplicaFollows != 0 ? try replica(&reader) : rowReplica
            guard head & dotReplicaFollows == 0 || dotReplica != rowReplica else {
                throw .notCanonical(offset: dotReplicaOffset)
            }
            let counterOffset = reader.offset
            let counter = (previous?.stamp.dot.counter ?? 0) &+ UInt64(bitPattern: try reader.readSignedVarint())
            // The dot counters and Lamport times of the first and the last row, in range.
            guard counter >= 1, counter <= Dot.maximumCounter,
                counterStep > 0 ? length - 1 <= Dot.maximumCounter - counter : length - 1 < counter
            else { throw .invalidStamp(offset: counterOffset) }
            let lamport = counter &+ offset
            guard lamport >= 1, lamport <= Stamp.maximumLamport,
                lamportStep == 0
                    || (lamportStep > 0 ? length - 1 <= Stamp.maximumLamport - lamport : length - 1 < lamport)
            else { throw .invalidStamp(offset: lamportFieldOffset) }
            let run = DeletionRun(
                replica: rowReplica, first: first, length: length,
                stamp: Stamp(lamport: lamport, dot: Dot(replica: dotReplica, counter: counter)),
                lamportStep: lamportStep,
                counterStep: counterStep)
            // Maximal: a run that touches the one before does not continue it.
            if let previous, previous.replica == rowReplica, previous.end == first, previous.isContinued(by: run.stamp)
            {
                throw .notCanonical(offset: start)
            }
            runs.append(run)
        }
        return runs
    }
}
