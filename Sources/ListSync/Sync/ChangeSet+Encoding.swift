/// ListSync's binary format (version 1) for change sets and snapshots; Protocol.md specifies it byte by byte.
extension ChangeSet {
    /// What the encoded bytes hold.
    enum Kind: UInt8 {
        case changeSet = 1
        case snapshot = 2
    }

    static let magic: [UInt8] = [0x4C, 0x53]  // "LS"
    static let formatVersion: UInt8 = 1

    /// Flag bits of an encoded row update.
    private enum Flag {
        static let position: UInt8 = 1 << 0
        static let value: UInt8 = 1 << 1
        static let deletion: UInt8 = 1 << 2
        static let positionByInsert: UInt8 = 1 << 3
        static let valueByInsert: UInt8 = 1 << 4
        static let sameReplica: UInt8 = 1 << 5
        static let known: UInt8 = 0b0011_1111
    }

    /// The encoded bytes.
    public func encoded() -> [UInt8] { encoded(as: .changeSet) }

    /// Decodes a change set made by ``encoded()``.
    /// - Throws: ``BinaryDecodingError`` saying what is wrong and at which offset.
    public init(decoding bytes: [UInt8]) throws(BinaryDecodingError) {
        self = try Self.decode(bytes, as: .changeSet)
    }

    func encoded(as kind: Kind) -> [UInt8] {
        var writer = BinaryWriter()
        for byte in Self.magic { writer.write(byte) }
        writer.write(Self.formatVersion)
        writer.write(kind.rawValue)

        var replicaSet = Set(coverage.byReplica.keys)
        for update in updates {
            replicaSet.insert(update.id.replica)
            for stamp in [update.positionStamp, update.valueStamp, update.deletion] where stamp.isSet {
                replicaSet.insert(stamp.dot.replica)
            }
        }
        let replicas = replicaSet.sorted()
        let replicaIndex = Dictionary(uniqueKeysWithValues: replicas.enumerated().map { ($1, UInt64($0)) })
        writer.writeVarint(UInt64(replicas.count))
        for replica in replicas { writer.writeFixed64(replica.rawValue) }

        var types: [String] = []
        var typeIndex: [String: UInt64] = [:]
        for payload in payloads.lazy.compactMap({ $0 }) where typeIndex[payload.typeIdentifier] == nil {
            typeIndex[payload.typeIdentifier] = UInt64(types.count)
            types.append(payload.typeIdentifier)
        }
        writer.writeVarint(UInt64(types.count))
        for type in types { writer.writeLengthPrefixed(Array(type.utf8)) }

        let covered = coverage.byReplica.sorted { $0.key < $1.key }
        writer.writeVarint(UInt64(covered.count))
        for (replica, counters) in covered {
            writer.writeVarint(replicaIndex[replica]!)
            writer.writeVarint(UInt64(counters.ranges.count))
            var previousUpper: UInt64 = 0
            for range in counters.ranges {
                writer.writeVarint(range.lowerBound - previousUpper - 1)
                writer.writeVarint(range.upperBound - range.lowerBound)
                previousUpper = range.upperBound
            }
        }

        writer.writeVarint(UInt64(updates.count))
        var previous: RowID?
        for (update, payload) in zip(updates, payloads) {
            var flags: UInt8 = 0
            if update.positionStamp.isSet { flags |= Flag.position }
            if update.valueStamp.isSet { flags |= Flag.value }
            if update.deletion.isSet { flags |= Flag.deletion }
            if update.positionStamp.dot == update.id { flags |= Flag.positionByInsert }
            if update.valueStamp.dot == update.id { flags |= Flag.valueByInsert }
            let sameReplica = previous?.replica == update.id.replica
            if sameReplica { flags |= Flag.sameReplica }
            writer.write(flags)
            if !sameReplica { writer.writeVarint(replicaIndex[update.id.replica]!) }
            writer.writeVarint(update.id.counter - (sameReplica ? previous!.counter : 0))
            previous = update.id
            func writeStamp(_ stamp: Stamp, byInsert: Bool) {
                writer.writeVarint(stamp.lamport)
                if byInsert { return }
                writer.writeVarint(replicaIndex[stamp.dot.replica]!)
                writer.writeVarint(stamp.dot.counter)
            }
            if let key = update.position, update.positionStamp.isSet {
                writer.writeLengthPrefixed(key.bytes)
                writeStamp(update.positionStamp, byInsert: flags & Flag.positionByInsert != 0)
            }
            if let payload, update.valueStamp.isSet {
                writeStamp(update.valueStamp, byInsert: flags & Flag.valueByInsert != 0)
                writer.writeVarint(typeIndex[payload.typeIdentifier]!)
                writer.writeLengthPrefixed(payload.bytes)
            }
            if update.deletion.isSet { writeStamp(update.deletion, byInsert: false) }
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8], as kind: Kind) throws(BinaryDecodingError) -> ChangeSet {
        var reader = BinaryReader(bytes)
        for byte in magic {
            guard try reader.readByte() == byte else { throw .badMagic }
        }
        let version = try reader.readByte()
        guard version == formatVersion else { throw .unsupportedVersion(version) }
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
        for _ in 0..<typeCount {
            let start = reader.offset
            guard let type = String(validating: try reader.readLengthPrefixed(), as: UTF8.self) else {
                throw .invalidUTF8(offset: start)
            }
            types.append(type)
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
                guard !overflowLower && !overflowOne && !overflowUpper else { throw .invalidStamp(offset: rangeStart) }
                if previousUpper > 0 && gap == 0 { throw .notCanonical(offset: rangeStart) }
                coverage.insert(lowerBound...upperBound, of: replica)
                previousUpper = upperBound
            }
        }

        let updateCount = try reader.readCount(minimumSize: 2)
        var updates: [RowUpdate] = []
        var payloads: [Payload?] = []
        updates.reserveCapacity(updateCount)
        payloads.reserveCapacity(updateCount)
        var previous: RowID?
        for _ in 0..<updateCount {
            let start = reader.offset
            let flags = try reader.readByte()
            let hasPosition = flags & Flag.position != 0
            let hasValue = flags & Flag.value != 0
            let hasDeletion = flags & Flag.deletion != 0
            guard flags & ~Flag.known == 0, hasPosition || hasValue || hasDeletion,
                !(hasDeletion && (hasPosition || hasValue)),
                hasPosition || flags & Flag.positionByInsert == 0, hasValue || flags & Flag.valueByInsert == 0,
                previous != nil || flags & Flag.sameReplica == 0
            else { throw .invalidFlags(offset: start) }
            let replica = flags & Flag.sameReplica != 0 ? previous!.replica : try readReplica(&reader)
            let delta = try reader.readVarint()
            let base = flags & Flag.sameReplica != 0 ? previous!.counter : 0
            let (counter, overflow) = base.addingReportingOverflow(delta)
            guard !overflow, counter > 0 else { throw .invalidStamp(offset: start) }
            let id = RowID(replica: replica, counter: counter)
            if let previous, !(previous < id) { throw .notCanonical(offset: start) }
            previous = id
            func readStamp(_ reader: inout BinaryReader, byInsert: Bool) throws(BinaryDecodingError) -> Stamp {
                let stampStart = reader.offset
                let lamport = try reader.readVarint()
                let dot = byInsert ? id : Dot(replica: try readReplica(&reader), counter: try reader.readVarint())
                guard lamport > 0, dot.counter > 0 else { throw .invalidStamp(offset: stampStart) }
                return Stamp(lamport: lamport, dot: dot)
            }
            var update = RowUpdate(id: id)
            var payload: Payload?
            if hasPosition {
                let keyStart = reader.offset
                let key = try reader.readLengthPrefixed()
                guard PositionKey.isValid(key) else { throw .invalidPositionKey(offset: keyStart) }
                update.position = PositionKey(key)
                update.positionStamp = try readStamp(&reader, byInsert: flags & Flag.positionByInsert != 0)
            }
            if hasValue {
                update.valueStamp = try readStamp(&reader, byInsert: flags & Flag.valueByInsert != 0)
                let typeStart = reader.offset
                let typeIndex = try reader.readVarint()
                guard typeIndex < UInt64(types.count) else { throw .indexOutOfRange(offset: typeStart) }
                payload = Payload(typeIdentifier: types[Int(typeIndex)], bytes: Array(try reader.readLengthPrefixed()))
            }
            if hasDeletion { update.deletion = try readStamp(&reader, byInsert: false) }
            updates.append(update)
            payloads.append(payload)
        }
        try reader.expectEnd()
        return ChangeSet(coverage: coverage, updates: updates, payloads: payloads)
    }
}
