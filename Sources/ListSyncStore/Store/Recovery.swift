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
        let (list, firstSegment) = try loadSnapshot(replica: replica)
        let nextSegment = try replayLog(into: list, from: firstSegment, replica: replica)
        try systemStep { () throws(SystemError) in try directory.removeSegments(below: firstSegment) }
        let floor = Swift.max(reservedThrough + 1, list.nextOperationCounter)
        list.reserveOperationCounters(from: floor)
        let reserved = StoreLimits.reservation(after: floor - 1, block: options.counterReservationBlock)
        let log = try systemStep { () throws(SystemError) in
            try LogWriter(
                directory: directory.path, replica: replica, number: nextSegment, reservedThrough: reserved,
                faults: options.faults)
        }
        let state = ReplicaState(list: list, log: log, lock: lock, reservedThrough: reserved)
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
        do throws(StoreError) {
            let contents = try SnapshotFile.decode(bytes, path: path)
            guard contents.replica == replica else {
                throw .replicaMismatch(path: path, expected: replica, found: contents.replica)
            }
            let list: ReplicatedList<Element>
            do {
                list = try ReplicatedList(snapshot: contents.payload, replicaID: replica)
            } catch {
                throw .corrupt(path: path, offset: SnapshotFile.headerSize, reason: "snapshot does not load: \(error)")
            }
            reservedThrough = contents.reservedThrough
            report.snapshotLoaded = true
            return (list, contents.firstSegment)
        } catch {
            guard case .corrupt = error, options.recovery == .salvage else { throw error }
            salvaged(error)
            return (ReplicatedList(replicaID: replica), 0)
        }
    }

    /// Replays segments from `firstSegment` on; returns the number the next new segment gets.
    private mutating func replayLog(
        into list: ReplicatedList<Element>, from firstSegment: UInt64, replica: ReplicaID
    ) throws(StoreError) -> UInt64 {
        let numbers = try systemStep { () throws(SystemError) in try directory.segmentNumbers() }
        let live = numbers.filter { $0 >= firstSegment }
        for (index, number) in live.enumerated() {
            let isLast = index == live.count - 1
            let outcome = try replaySegment(number, into: list, replica: replica, isLast: isLast)
            if outcome == .cut {
                for later in live[(index + 1)...] {
                    let path = directory.file(LogSegment.fileName(later))
                    try systemStep { () throws(SystemError) in try FileSystem.remove(path) }
                }
                break
            }
        }
        return Swift.max((numbers.last ?? 0) + 1, firstSegment)
    }

    private mutating func replaySegment(
        _ number: UInt64, into list: ReplicatedList<Element>, replica: ReplicaID, isLast: Bool
    ) throws(StoreError) -> SegmentOutcome {
        let path = directory.file(LogSegment.fileName(number))
        let bytes = try systemStep { () throws(SystemError) in try FileSystem.readFile(path) }
        if bytes.count < LogSegment.headerSize && isLast {
            // The process stopped while creating the segment, before its header was durable.
            if modifiesFiles { try systemStep { () throws(SystemError) in try FileSystem.remove(path) } }
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
        var start = LogSegment.headerSize
        for (record, end) in scanner.records {
            do throws(StoreError) {
                try apply(record, to: list, path: path, offset: start)
            } catch {
                try damaged(error, path: path, cutAt: start)
                return .cut
            }
            if case .reservation = record {} else { report.recordsReplayed += 1 }
            start = end
        }
        switch scanner.end {
        case .clean:
            return .complete
        case .torn(let offset, let reason) where isLast:
            if modifiesFiles {
                try systemStep { () throws(SystemError) in try FileSystem.truncateFile(path, to: offset) }
            }
            tornTail(path: path, offset: offset, droppedBytes: bytes.count - offset, reason: reason)
            return .complete
        case .torn(let offset, let reason), .damaged(let offset, let reason):
            try damaged(.corrupt(path: path, offset: offset, reason: reason), path: path, cutAt: offset)
            return .cut
        }
    }

    private mutating func apply(
        _ record: LogRecord, to list: ReplicatedList<Element>, path: String, offset: Int
    ) throws(StoreError) {
        switch record {
        case .localChange(let bytes), .mergedChanges(let bytes):
            let changes: ChangeSet
            do {
                changes = try ChangeSet(decoding: bytes)
            } catch {
                throw .corrupt(path: path, offset: offset, reason: "record does not decode: \(error)")
            }
            do {
                try list.merge(changes)
            } catch {
                throw .corrupt(path: path, offset: offset, reason: "record does not merge: \(error)")
            }
        case .reservation(let counter):
            reservedThrough = Swift.max(reservedThrough, counter)
        }
    }

    /// Damage at `offset` of `path`: thrown in strict mode; in salvage mode, the file is cut there.
    /// Only ``StoreError/corrupt(path:offset:reason:)`` is salvaged: a newer format or another replica's
    /// file is never cut.
    private mutating func damaged(_ error: StoreError, path: String, cutAt offset: Int) throws(StoreError) {
        guard case .corrupt = error, options.recovery == .salvage else { throw error }
        try systemStep { () throws(SystemError) in
            if offset <= LogSegment.headerSize {
                try FileSystem.remove(path)
            } else {
                try FileSystem.truncateFile(path, to: offset)
            }
        }
        salvaged(error)
    }

    private mutating func salvaged(_ error: StoreError) {
        report.salvaged.append(error)
        options.log?("ListSyncStore: salvage dropped data from \(error)")
    }

    private mutating func tornTail(path: String, offset: Int, droppedBytes: Int, reason: String) {
        report.tornTails.append(.init(path: path, offset: offset, droppedBytes: droppedBytes, reason: reason))
        options.log?("ListSyncStore: truncated \(droppedBytes) torn bytes at offset \(offset) of \(path): \(reason)")
    }
}
