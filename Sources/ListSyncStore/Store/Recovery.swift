import ListSync

/// Opens a replica directory: takes its lock, reads or creates its identity, loads the snapshot,
/// replays the log, applies the recovery rules of Protocol.md section 3, and starts a fresh log segment.
struct Recovery<Element: Codable & Sendable> {
    /// What opening produced.
    struct Recovered {
        var state: ReplicaState<Element>
        var replica: ReplicaID
        var report: RecoveryReport
    }

    /// How replaying one segment ended.
    private enum SegmentOutcome {
        /// The whole segment was replayed (a torn tail of the last segment cut off).
        case complete
        /// Salvage cut the log inside this segment; later segments must go.
        case cut
    }

    private let directory: ReplicaDirectory
    private let options: StoreOptions
    /// Whether recovery may change files (cut torn tails, remove leftovers); false for a reload.
    private let modifiesFiles: Bool
    private var report = RecoveryReport()
    /// The highest counter reservation seen in the snapshot and the log.
    private var reservedThrough: UInt64 = 0
    /// The combination of the records replayed so far, when they are merged together at the end (nil:
    /// each is merged as it is read).
    private var combination: ChangeSet.Combination?
    /// Whether salvage set a damaged snapshot aside, so the log is replayed from an empty state.
    private var snapshotSetAside = false
    /// The number of a last segment removed because its creation never finished: the next one takes it.
    private var reusableSegment: UInt64?
    /// The segment replayed last, whole, and its length in bytes (after cutting a torn tail).
    private var lastReplayed: (number: UInt64, length: Int)?
    /// The bytes of the log segments replayed (as far as they were replayed).
    private var replayedBytes = 0
    /// The size of the snapshot loaded (0 when none was).
    private var snapshotBytes = 0
    /// Log segments whose change records were decoded while the snapshot loaded, by number; each is
    /// taken out as its segment is replayed.
    private var segmentsDecodedAhead: [UInt64: LogPredecoding.Segment] = [:]

    /// Opens the replica in `directory`.
    static func open(directory: String, options: StoreOptions) throws(StoreError) -> Recovered {
        var recovery = Recovery(directory: ReplicaDirectory(path: directory), options: options)
        return try recovery.run()
    }

    /// The list the files of the open replica `replica` in `directory` hold, read without changing
    /// anything: how a store rebuilds its list after a change that could not be logged.
    static func reload(
        directory: String, replica: ReplicaID, options: StoreOptions
    ) throws(StoreError) -> ReplicatedList<Element> {
        var strict = options
        strict.recovery = .strict
        strict.log = nil
        var recovery = Recovery(directory: ReplicaDirectory(path: directory), options: strict, modifiesFiles: false)
        let (list, firstSegment) = try recovery.loadSnapshot(replica: replica)
        _ = try recovery.replayLog(into: list, from: firstSegment, replica: replica)
        return list
    }

    private init(directory: ReplicaDirectory, options: StoreOptions, modifiesFiles: Bool = true) {
        self.directory = directory
        self.options = options
        self.modifiesFiles = modifiesFiles
    }

    private mutating func run() throws(StoreError) -> Recovered {
        let (lock, hasIdentity) = try directory.lockAndInspect()
        let replica = try hasIdentity ? readIdentity() : createIdentity()
        // A directory that cannot be listed now fails the replay later, as it would without this.
        let segments = (try? directory.segmentNumbers())?.filter { $0 <= StoreLimits.maximumSegment } ?? []
        let predecoding =
            segments.isEmpty ? nil : LogPredecoding(directory: directory, replica: replica, numbers: segments)
        let list: ReplicatedList<Element>
        let firstSegment: UInt64
        do {
            (list, firstSegment) = try loadSnapshot(replica: replica)
        } catch {
            _ = predecoding?.finish()
            throw error
        }
        segmentsDecodedAhead = predecoding?.finish() ?? [:]
        let nextSegment = try replayLog(into: list, from: firstSegment, replica: replica)
        try systemStep { () throws(SystemError) in try directory.removeSegments(below: firstSegment) }
        let floor = Swift.max(reservedThrough + 1, list.nextOperationCounter)
        list.reserveOperationCounters(from: floor)
        let reserved = StoreLimits.reservation(after: floor - 1, block: options.counterReservationBlock)
        let log = try systemStep { () throws(SystemError) in
            try LogWriter(
                directory: directory.path, replica: replica, number: nextSegment,
                previousSegmentLength: lastReplayed.flatMap { $0.number + 1 == nextSegment ? $0.length : nil },
                reservedThrough: reserved, faults: options.faults)
        }
        let state = ReplicaState(
            list: list, log: log, lock: lock, reservedThrough: reserved, earlierLogBytes: replayedBytes,
            snapshotBytes: snapshotBytes)
        return Recovered(state: state, replica: replica, report: report)
    }

    private func readIdentity() throws(StoreError) -> ReplicaID {
        let path = directory.file(IdentityFile.name)
        let bytes = try systemStep { () throws(SystemError) in try FileSystem.readFile(path) }
        return try IdentityFile.decode(bytes, path: path)
    }

    private mutating func createIdentity() throws(StoreError) -> ReplicaID {
        let replica = options.newReplicaID ?? .random()
        let path = directory.file(IdentityFile.name)
        try systemStep { () throws(SystemError) in
            try FileSystem.replaceFile(path, in: directory.path, with: IdentityFile.encode(replica))
        }
        report.created = true
        return replica
    }

    /// The list in the snapshot (empty when there is none) and the first log segment it does not cover.
    private mutating func loadSnapshot(replica: ReplicaID) throws(StoreError) -> (ReplicatedList<Element>, UInt64) {
        let path = directory.file(SnapshotFile.name)
        guard try systemStep({ () throws(SystemError) in try FileSystem.kind(of: path) }) != .missing else {
            return (ReplicatedList(replicaID: replica), 0)
        }
        let bytes = try systemStep { () throws(SystemError) in try FileSystem.readFile(path) }
        let fileSize = bytes.count
        do throws(StoreError) {
            let contents = try SnapshotFile.decode(consume bytes, path: path)
            guard contents.replica == replica else {
                throw .replicaMismatch(path: path, expected: replica, found: contents.replica)
            }
            let list: ReplicatedList<Element>
            do {
                list = try ReplicatedList(snapshot: contents.payload, replicaID: replica)
            } catch {
                throw .corrupt(path: path, offset: SnapshotFile.headerSize, reason: "snapshot does not load: \(error)")
            }
            guard contents.firstSegment <= StoreLimits.maximumSegment else {
                throw .corrupt(path: path, offset: 16, reason: "first segment \(contents.firstSegment) out of range")
            }
            guard contents.reservedThrough <= Dot.maximumCounter else {
                throw .corrupt(
                    path: path, offset: 24, reason: "counter reservation \(contents.reservedThrough) out of range")
            }
            reservedThrough = contents.reservedThrough
            report.snapshotLoaded = true
            snapshotBytes = fileSize
            return (list, contents.firstSegment)
        } catch {
            try damaged(error, path: path, cutAt: 0)
            snapshotSetAside = true
            return (ReplicatedList(replicaID: replica), 0)
        }
    }

    /// Replays segments from `firstSegment` on; returns the number the next new segment gets.
    ///
    /// The records' change sets are combined into one (``ChangeSet/init(combining:)``) and merged once,
    /// so replaying costs one search per row touched instead of one per record. When that merge fails,
    /// the log is replayed again one record at a time to find the record at fault.
    private mutating func replayLog(
        into list: ReplicatedList<Element>, from firstSegment: UInt64, replica: ReplicaID
    ) throws(StoreError) -> UInt64 {
        combination = ChangeSet.Combination()
        lastReplayed = nil
        replayedBytes = 0
        let next = try replaySegments(into: list, from: firstSegment, replica: replica)
        let replayed = combination ?? ChangeSet.Combination()
        combination = nil  // so that `replayed` holds the only copy, edited in place
        let combined = replayed.combined()
        do {
            try list.merge(combined)
            return next
        } catch {
            report.recordsReplayed = 0
            lastReplayed = nil
            replayedBytes = 0
            return try replaySegments(into: list, from: firstSegment, replica: replica)
        }
    }

    private mutating func replaySegments(
        into list: ReplicatedList<Element>, from firstSegment: UInt64, replica: ReplicaID
    ) throws(StoreError) -> UInt64 {
        let numbers = try systemStep { () throws(SystemError) in try directory.segmentNumbers() }
        if let last = numbers.last, last > StoreLimits.maximumSegment {
            throw .corrupt(
                path: directory.file(LogSegment.fileName(last)), offset: 0, reason: "segment number out of range")
        }
        let live = numbers.filter { $0 >= firstSegment }
        // Without a snapshot the log starts at segment 1; segments follow one another without a gap.
        var expected = snapshotSetAside ? live.first ?? 1 : Swift.max(firstSegment, 1)
        for (index, number) in live.enumerated() {
            if number != expected {
                let missing = directory.file(LogSegment.fileName(expected))
                let reason = "log segment missing (the next one present is \(LogSegment.fileName(number)))"
                try damaged(.corrupt(path: missing, offset: 0, reason: reason), path: nil, cutAt: 0)
                for later in live[index...] { try setAsideFollowing(later, damage: missing) }
                break
            }
            let isLast = index == live.count - 1
            if try replaySegment(number, into: list, replica: replica, isLast: isLast) == .cut {
                let path = directory.file(LogSegment.fileName(number))
                for later in live[(index + 1)...] { try setAsideFollowing(later, damage: path) }
                break
            }
            expected = number + 1
        }
        return reusableSegment ?? Swift.max((numbers.last ?? 0) + 1, firstSegment)
    }

    private mutating func replaySegment(
        _ number: UInt64, into list: ReplicatedList<Element>, replica: ReplicaID, isLast: Bool
    ) throws(StoreError) -> SegmentOutcome {
        let path = directory.file(LogSegment.fileName(number))
        let scan:
            (
                byteCount: Int, records: [(record: LogRecord, end: Int)], end: LogScanner.End,
                changes: ChangeSet.Combination?
            )
        if combination != nil, let ahead = segmentsDecodedAhead.removeValue(forKey: number) {
            scan = (ahead.byteCount, ahead.records, ahead.end, ahead.changes)
        } else {
            let bytes = try systemStep { () throws(SystemError) in try FileSystem.readFile(path) }
            if bytes.count < LogSegment.headerSize && isLast {
                // The process stopped while creating the segment, before its header was durable.
                if modifiesFiles { try systemStep { () throws(SystemError) in try FileSystem.remove(path) } }
                reusableSegment = number
                tornTail(path: path, offset: 0, droppedBytes: bytes.count, reason: "segment header incomplete")
                return .complete
            }
            do throws(StoreError) {
                try LogSegment.checkHeader(bytes, replica: replica, number: number, path: path)
            } catch {
                try damaged(error, path: path, cutAt: 0)
                return .cut
            }
            let scanner = LogScanner(bytes, from: LogSegment.headerSize)
            scan = (bytes.count, scanner.records, scanner.end, nil)
        }
        var start = LogSegment.headerSize
        for (index, (record, end)) in scan.records.enumerated() {
            do throws(StoreError) {
                try apply(
                    record, to: list, path: path, offset: start, segment: number, decodedAhead: scan.changes != nil)
            } catch {
                if scan.changes != nil {
                    // The log is cut here: only the change records before this one are replayed, read again.
                    let bytes = try systemStep { () throws(SystemError) in try FileSystem.readFile(path) }
                    var offset = LogSegment.headerSize
                    for (earlier, earlierEnd) in LogScanner(bytes, from: offset).records.prefix(index) {
                        try apply(earlier, to: list, path: path, offset: offset, segment: number, decodedAhead: false)
                        offset = earlierEnd
                    }
                }
                try damaged(error, path: path, cutAt: start)
                return .cut
            }
            switch record {
            case .localChange, .mergedChanges: report.recordsReplayed += 1
            case .reservation, .previousSegment: break
            }
            start = end
        }
        if let changes = scan.changes { combination?.add(changes) }
        switch scan.end {
        case .clean:
            lastReplayed = (number, scan.byteCount)
            replayedBytes += scan.byteCount
            return .complete
        case .torn(let offset, let reason) where isLast:
            if modifiesFiles {
                try systemStep { () throws(SystemError) in try FileSystem.truncateFile(path, to: offset) }
            }
            tornTail(path: path, offset: offset, droppedBytes: scan.byteCount - offset, reason: reason)
            lastReplayed = (number, offset)
            replayedBytes += offset
            return .complete
        case .torn(let offset, let reason), .damaged(let offset, let reason):
            try damaged(.corrupt(path: path, offset: offset, reason: reason), path: path, cutAt: offset)
            return .cut
        }
    }

    /// Applies `record`, at `offset` of segment `segment` (the file at `path`); a change record only
    /// when it was not `decodedAhead`.
    private mutating func apply(
        _ record: LogRecord, to list: ReplicatedList<Element>, path: String, offset: Int, segment: UInt64,
        decodedAhead: Bool
    ) throws(StoreError) {
        switch record {
        case .localChange(let bytes), .mergedChanges(let bytes):
            if decodedAhead { return }
            func notDecoding(_ error: BinaryDecodingError) -> StoreError {
                .corrupt(path: path, offset: offset, reason: "record does not decode: \(error)")
            }
            if combination != nil {
                do throws(BinaryDecodingError) {
                    try combination?.add(decoding: bytes)
                } catch {
                    throw notDecoding(error)
                }
                return
            }
            let changes: ChangeSet
            do throws(BinaryDecodingError) {
                changes = try ChangeSet(decoding: bytes)
            } catch {
                throw notDecoding(error)
            }
            do {
                try list.merge(changes)
            } catch {
                throw .corrupt(path: path, offset: offset, reason: "record does not merge: \(error)")
            }
        case .reservation(let counter):
            guard (1...Dot.maximumCounter).contains(counter) else {
                throw .corrupt(path: path, offset: offset, reason: "counter reservation \(counter) out of range")
            }
            reservedThrough = Swift.max(reservedThrough, counter)
        case .previousSegment(let length):
            // Only the segment just replayed can be checked (one below the snapshot's first is gone).
            guard let previous = lastReplayed, previous.number + 1 == segment, UInt64(previous.length) != length
            else { return }
            let name = LogSegment.fileName(previous.number)
            throw .corrupt(
                path: path, offset: offset,
                reason: "\(name) holds \(previous.length) bytes, but this segment records that it held \(length): "
                    + "records of \(name) are missing")
        }
    }

    /// Damage at `offset` of `path` (nil: a missing file): thrown in strict mode. In salvage mode the
    /// damaged file is renamed aside (``setAside(_:)``) and, when `offset` is past its header, a copy of
    /// the bytes before `offset` takes its place: nothing is deleted. Only
    /// ``StoreError/corrupt(path:offset:reason:)`` is salvaged: a newer format or another replica's file
    /// is never touched.
    private mutating func damaged(_ error: StoreError, path: String?, cutAt offset: Int) throws(StoreError) {
        guard case .corrupt = error, options.recovery == .salvage else { throw error }
        guard let path else {
            salvaged(RecoveryReport.Salvage(damage: error, keptBytes: 0, movedTo: nil))
            return
        }
        let aside = try setAside(path)
        let kept = offset > LogSegment.headerSize ? offset : 0
        if kept > 0 {
            try systemStep { () throws(SystemError) in
                let bytes = try FileSystem.readFile(aside)
                try FileSystem.replaceFile(
                    path, in: directory.path, with: Array(bytes[..<Swift.min(kept, bytes.count)]))
            }
        }
        salvaged(RecoveryReport.Salvage(damage: error, keptBytes: kept, movedTo: aside))
    }

    /// Sets aside log segment `number`, which follows the damage at `damage`, whole.
    private mutating func setAsideFollowing(_ number: UInt64, damage: String) throws(StoreError) {
        let path = directory.file(LogSegment.fileName(number))
        let aside = try setAside(path)
        let error = StoreError.corrupt(path: path, offset: 0, reason: "follows the damage in \(damage)")
        salvaged(RecoveryReport.Salvage(damage: error, keptBytes: 0, movedTo: aside))
    }

    /// Renames `path` to `<path>.damaged-<n>` (the first n not taken), durably; returns the new path.
    private func setAside(_ path: String) throws(StoreError) -> String {
        try systemStep { () throws(SystemError) in
            var number = 1
            while try FileSystem.kind(of: path + ".damaged-\(number)") != .missing { number += 1 }
            let aside = path + ".damaged-\(number)"
            try FileSystem.rename(path, to: aside)
            try FileSystem.syncDirectory(directory.path)
            return aside
        }
    }

    private mutating func salvaged(_ salvage: RecoveryReport.Salvage) {
        report.salvaged.append(salvage)
        options.log?("ListSyncStore: salvage: \(salvage)")
    }

    private mutating func tornTail(path: String, offset: Int, droppedBytes: Int, reason: String) {
        report.tornTails.append(.init(path: path, offset: offset, droppedBytes: droppedBytes, reason: reason))
        options.log?("ListSyncStore: truncated \(droppedBytes) torn bytes at offset \(offset) of \(path): \(reason)")
    }
}
