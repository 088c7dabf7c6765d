import Dispatch
import ListSync
import Synchronization

/// Decodes the change records of a replica's log segments on another thread while the opening thread
/// loads the snapshot, so that opening a large store takes about as long as the larger of the two
/// instead of their sum.
///
/// It only reads: every decision of recovery (which segments are replayed, where damage cuts the log,
/// what is truncated or set aside) is still taken by ``Recovery``, in order. What this hands over per
/// segment is its scan and the combination of its change records, which the replay uses in place of
/// reading, scanning and decoding the file again while it replays every record. The directory is
/// locked for the whole open and recovery changes a segment only once it replays it, so the files
/// read here are those the replay would read.
final class LogPredecoding: Sendable {
    /// A segment scanned and its change records decoded.
    struct Segment: Sendable {
        /// The size of the file.
        let byteCount: Int
        /// The records its scan found (``LogScanner/records``), the bodies of change records left out.
        let records: [(record: LogRecord, end: Int)]
        /// How its scan ended.
        let end: LogScanner.End
        /// The combination of its change records.
        let changes: ChangeSet.Combination
    }

    private let done = DispatchGroup()
    private let segments = Mutex<[UInt64: Segment]>([:])

    /// Starts decoding segments `numbers` of the replica `replica` in `directory`.
    init(directory: ReplicaDirectory, replica: ReplicaID, numbers: [UInt64]) {
        DispatchQueue.global(qos: .userInitiated).async(group: done) { [self] in
            var decoded: [UInt64: Segment] = [:]
            for number in numbers {
                decoded[number] = Self.decode(directory.file(LogSegment.fileName(number)), replica, number)
            }
            segments.withLock { $0 = decoded }
        }
    }

    /// Waits until every segment is decoded (the work is bounded: one read and one decode of each file,
    /// as a replay without this does); returns those whose every change record decoded, by number.
    func finish() -> [UInt64: Segment] {
        done.wait()
        return segments.withLock { $0 }
    }

    /// Segment `number` at `path` decoded, or nil when it cannot be read, its header is not that of
    /// `replica`'s segment `number`, or one of its change records does not decode (the replay then finds
    /// out why by itself).
    private static func decode(_ path: String, _ replica: ReplicaID, _ number: UInt64) -> Segment? {
        guard let bytes = try? FileSystem.readFile(path), bytes.count >= LogSegment.headerSize else { return nil }
        do throws(StoreError) {
            try LogSegment.checkHeader(bytes, replica: replica, number: number, path: path)
        } catch {
            return nil
        }
        let scanner = LogScanner(bytes, from: LogSegment.headerSize)
        var combination = ChangeSet.Combination()
        var records: [(record: LogRecord, end: Int)] = []
        records.reserveCapacity(scanner.records.count)
        for (record, end) in scanner.records {
            switch record {
            case .localChange(let changes), .mergedChanges(let changes):
                do throws(BinaryDecodingError) {
                    try combination.add(decoding: changes)
                } catch {
                    return nil
                }
                let withoutBody: LogRecord =
                    if case .localChange = record { .localChange([]) } else { .mergedChanges([]) }
                records.append((withoutBody, end))
            case .reservation, .previousSegment: records.append((record, end))
            }
        }
        return Segment(byteCount: bytes.count, records: records, end: scanner.end, changes: combination)
    }
}
