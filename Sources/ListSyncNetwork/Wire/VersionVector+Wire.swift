import ListSync

/// The wire encoding of a version vector (Protocol.md section 2.1).
extension VersionVector {
    /// Writes `count` varint, then per replica in increasing order its ID (u64) and counter (varint, at least 1).
    func write(to writer: inout BinaryWriter) {
        let entries = counters.sorted { $0.key < $1.key }
        writer.writeVarint(UInt64(entries.count))
        for (replica, counter) in entries {
            writer.writeFixed64(replica.rawValue)
            writer.writeVarint(counter)
        }
    }

    /// Reads what ``write(to:)`` writes; replicas must be strictly increasing and counters positive.
    init(reading reader: inout WireReader) throws(SyncError) {
        let count = try reader.readVarint()
        guard count <= UInt64(reader.remaining.count / 9) else { throw reader.malformed("\(count) entries do not fit") }
        var counters: [ReplicaID: UInt64] = [:]
        var previous: ReplicaID?
        for _ in 0..<count {
            let replica = ReplicaID(try reader.readUInt64())
            guard previous.map({ $0 < replica }) ?? true else { throw reader.malformed("replicas out of order") }
            let counter = try reader.readVarint()
            guard counter > 0 else { throw reader.malformed("zero counter") }
            counters[replica] = counter
            previous = replica
        }
        self.init(counters)
    }
}
