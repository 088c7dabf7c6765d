import ListSync

/// The wire encoding of a version vector (Protocol.md section 2.1).
extension VersionVector {
    /// Writes `count` varint, then per replica in increasing order its ID (u64), its contiguous counter
    /// (varint), and the ranges covered beyond it: their count (varint), then per range the counters
    /// skipped since the previous one, minus one (varint), and its length minus one (varint).
    func write(to writer: inout BinaryWriter) {
        let replicas = replicas
        writer.writeVarint(UInt64(replicas.count))
        for replica in replicas {
            var ranges = ranges(of: replica)[...]
            let counter = ranges.first.flatMap { $0.lowerBound == 1 ? ranges.popFirst()?.upperBound : nil } ?? 0
            writer.writeFixed64(replica.rawValue)
            writer.writeVarint(counter)
            writer.writeVarint(UInt64(ranges.count))
            var previousUpper = counter
            for range in ranges {
                writer.writeVarint(range.lowerBound - previousUpper - 2)
                writer.writeVarint(range.upperBound - range.lowerBound)
                previousUpper = range.upperBound
            }
        }
    }

    /// Reads what ``write(to:)`` writes; replicas must be strictly increasing and not 0, each covering
    /// something, every counter in 1 ... `Dot.maximumCounter`.
    init(reading reader: inout WireReader) throws(SyncError) {
        let count = try reader.readVarint()
        guard count <= UInt64(reader.remaining.count / 10) else {
            throw reader.malformed("\(count) entries do not fit")
        }
        self.init()
        var previous: ReplicaID?
        for _ in 0..<count {
            let replicaOffset = reader.offset
            let replica = ReplicaID(try reader.readUInt64())
            guard replica.rawValue != 0 else { throw reader.malformed("replica ID 0 is reserved", at: replicaOffset) }
            guard previous.map({ $0 < replica }) ?? true else {
                throw reader.malformed("replicas out of order", at: replicaOffset)
            }
            previous = replica
            let counterOffset = reader.offset
            let counter = try reader.readVarint()
            guard counter <= Dot.maximumCounter else {
                throw reader.malformed("counter \(counter) above 2^62 - 1", at: counterOffset)
            }
            let rangeCount = try reader.readVarint()
            guard counter > 0 || rangeCount > 0 else { throw reader.malformed("an entry covering nothing") }
            guard rangeCount <= UInt64(reader.remaining.count / 2) else {
                throw reader.malformed("\(rangeCount) ranges do not fit")
            }
            if counter > 0 { insert(1...counter, of: replica) }
            var previousUpper = counter
            for _ in 0..<rangeCount {
                let rangeOffset = reader.offset
                let (start, overflowSkip) = previousUpper.addingReportingOverflow(try reader.readVarint())
                let (lower, overflowGap) = start.addingReportingOverflow(2)
                let (upper, overflowLength) = lower.addingReportingOverflow(try reader.readVarint())
                guard !overflowSkip && !overflowGap && !overflowLength && upper <= Dot.maximumCounter else {
                    throw reader.malformed("a range beyond counter 2^62 - 1", at: rangeOffset)
                }
                insert(lower...upper, of: replica)
                previousUpper = upper
            }
        }
    }
}
