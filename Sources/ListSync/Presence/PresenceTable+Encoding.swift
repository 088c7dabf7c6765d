/// The binary form of presence updates, as a PRESENCE message carries them (Protocol.md section 2.3):
///
/// ```
/// updates   = count:varint update*          count ≤ PresenceTable.maximumPeerCount
/// update    = replica:fixed64 clock:varint (0x00 | 0x01 presence)      0x00: the peer left
/// presence  = name:bytes rows drag pending
/// rows      = count:varint row*             count ≤ Presence.Limits.rowCount
/// row       = replica:fixed64 counter:varint          counter in 1...Dot.maximumCounter
/// drag      = 0x00 | 0x01 rows hover
/// hover     = 0x00 | 0x01 row | 0x02 | 0x03 row       none, before ROW, end, onto ROW
/// pending   = count:varint (placeholders:varint (0x00 | 0x01 row))*   count ≤ pendingDropCount
/// ```
///
/// `name` is length-prefixed UTF-8 of at most ``Presence/Limits/nameByteCount`` bytes; placeholders
/// is 1 to ``Presence/Limits/placeholderCount``.
extension PresenceTable.Update {
    /// `updates` encoded.
    /// - Precondition: every presence is within ``Presence/Limits``, and there are at most
    ///   ``PresenceTable/maximumPeerCount`` updates.
    public static func encode(_ updates: [PresenceTable.Update]) -> [UInt8] {
        precondition(
            updates.count <= PresenceTable.maximumPeerCount, "\(updates.count) presence updates in one message")
        var writer = BinaryWriter()
        writer.writeVarint(UInt64(updates.count))
        for update in updates {
            writer.writeFixed64(update.replica.rawValue)
            writer.writeVarint(update.clock)
            guard let presence = update.presence else {
                writer.write(0)
                continue
            }
            precondition(presence.limitExceeded == nil, "presence beyond its limits: \(presence.limitExceeded!)")
            writer.write(1)
            writer.writeLengthPrefixed(Array(presence.name.utf8))
            write(presence.selection, to: &writer)
            if let drag = presence.drag {
                writer.write(1)
                write(drag.rows, to: &writer)
                switch drag.hover {
                case nil: writer.write(0)
                case .before(let row)?:
                    writer.write(1)
                    write(row, to: &writer)
                case .end?: writer.write(2)
                case .onto(let row)?:
                    writer.write(3)
                    write(row, to: &writer)
                }
            } else {
                writer.write(0)
            }
            writer.writeVarint(UInt64(presence.pendingDrops.count))
            for drop in presence.pendingDrops {
                writer.writeVarint(UInt64(drop.count))
                if let after = drop.after {
                    writer.write(1)
                    write(after, to: &writer)
                } else {
                    writer.write(0)
                }
            }
        }
        return writer.bytes
    }

    /// Decodes updates encoded by ``encode(_:)``, checking every count, flag, row ID and limit.
    /// - Throws: ``BinaryDecodingError`` naming the first byte at fault.
    public static func decode(_ bytes: [UInt8]) throws(BinaryDecodingError) -> [PresenceTable.Update] {
        try bytes.withUnsafeBufferPointer { buffer throws(BinaryDecodingError) in
            var reader = BinaryReader(buffer)
            let count = try readCount(&reader, limit: PresenceTable.maximumPeerCount, minimumSize: 10)
            var updates: [PresenceTable.Update] = []
            updates.reserveCapacity(count)
            for _ in 0..<count {
                let replica = ReplicaID(try reader.readFixed64())
                let clock = try reader.readVarint()
                let presence: Presence? =
                    switch try readFlag(&reader, cases: 2) {
                    case 0: nil
                    default: try readPresence(&reader)
                    }
                updates.append(PresenceTable.Update(replica: replica, clock: clock, presence: presence))
            }
            try reader.expectEnd()
            return updates
        }
    }

    private static func write(_ rows: [RowID], to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(rows.count))
        for row in rows { write(row, to: &writer) }
    }

    private static func write(_ row: RowID, to writer: inout BinaryWriter) {
        writer.writeFixed64(row.replica.rawValue)
        writer.writeVarint(row.counter)
    }

    private static func readPresence(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> Presence {
        let nameOffset = reader.offset
        let nameBytes = try reader.readLengthPrefixed()
        guard nameBytes.count <= Presence.Limits.nameByteCount else { throw .limitExceeded(offset: nameOffset) }
        guard let name = String(validating: nameBytes, as: UTF8.self) else { throw .invalidUTF8(offset: nameOffset) }
        let selection = try readRows(&reader)
        var drag: Presence.Drag?
        if try readFlag(&reader, cases: 2) == 1 {
            let rows = try readRows(&reader)
            let hover: Presence.Hover? =
                switch try readFlag(&reader, cases: 4) {
                case 0: nil
                case 1: .before(try readRow(&reader))
                case 2: .end
                default: .onto(try readRow(&reader))
                }
            drag = Presence.Drag(rows: rows, hover: hover)
        }
        let dropCount = try readCount(&reader, limit: Presence.Limits.pendingDropCount, minimumSize: 2)
        var pendingDrops: [Presence.PendingDrop] = []
        for _ in 0..<dropCount {
            let countOffset = reader.offset
            let placeholders = try reader.readVarint()
            guard (1...UInt64(Presence.Limits.placeholderCount)).contains(placeholders) else {
                throw .limitExceeded(offset: countOffset)
            }
            let after = try readFlag(&reader, cases: 2) == 1 ? try readRow(&reader) : nil
            pendingDrops.append(Presence.PendingDrop(count: Int(placeholders), after: after))
        }
        return Presence(name: name, selection: selection, drag: drag, pendingDrops: pendingDrops)
    }

    private static func readRows(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> [RowID] {
        let count = try readCount(&reader, limit: Presence.Limits.rowCount, minimumSize: 9)
        var rows: [RowID] = []
        rows.reserveCapacity(count)
        for _ in 0..<count { rows.append(try readRow(&reader)) }
        return rows
    }

    private static func readRow(_ reader: inout BinaryReader) throws(BinaryDecodingError) -> RowID {
        let replica = ReplicaID(try reader.readFixed64())
        let offset = reader.offset
        let counter = try reader.readVarint()
        guard (1...Dot.maximumCounter).contains(counter) else { throw .invalidStamp(offset: offset) }
        return RowID(replica: replica, counter: counter)
    }

    /// A count of at most `limit` elements of at least `minimumSize` bytes each.
    private static func readCount(
        _ reader: inout BinaryReader, limit: Int, minimumSize: Int
    ) throws(BinaryDecodingError) -> Int {
        let offset = reader.offset
        let count = try reader.readCount(minimumSize: minimumSize)
        guard count <= limit else { throw .limitExceeded(offset: offset) }
        return count
    }

    /// A flag byte below `cases`.
    private static func readFlag(_ reader: inout BinaryReader, cases: UInt8) throws(BinaryDecodingError) -> UInt8 {
        let offset = reader.offset
        let flag = try reader.readByte()
        guard flag < cases else { throw .invalidFlags(offset: offset) }
        return flag
    }
}
