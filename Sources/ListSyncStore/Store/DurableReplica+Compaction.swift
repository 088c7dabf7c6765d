import ListSync

/// Snapshots and compaction.
extension DurableReplica {
    /// Writes a snapshot of the list and drops the log records it covers.
    ///
    /// The log is fsynced, a new segment is started, the snapshot goes to a temporary file that is
    /// fsynced and renamed over the old one, the directory is fsynced, and only then are the older
    /// segments removed; a crash at any point leaves a directory that opens to the same state.
    /// Updates and merges wait while it runs.
    /// - Throws: ``StoreError/noSpace(_:)`` (or another error) when a step fails; the directory then
    ///   still opens to the same state and the store goes on working, except after a failed fsync of
    ///   the log (``StoreError/failedEarlier(_:)`` from then on).
    /// - Complexity: O(n) for n rows and tombstones.
    public func compact() throws(StoreError) {
        try state.withLock { state throws(StoreError) in try compact(&state) }
    }

    /// Compacts while the caller holds the lock.
    func compact(_ state: inout ReplicaState<Element>) throws(StoreError) {
        try state.writing { state throws(SystemError) in try state.sync() }
        let next = state.log.number + 1  // at most StoreLimits.maximumSegment + 1: checked when opening
        let log: LogWriter
        do {
            log = try LogWriter(
                directory: directory, replica: replicaID, number: next, previousSegmentLength: state.log.size,
                reservedThrough: state.reservedThrough, faults: options.faults)
        } catch {
            throw .failedWrite(error)
        }
        // The old segment is durable; a failed close cannot lose any of it.
        try? state.log.close()
        state.earlierLogBytes += state.log.size
        state.log = log
        let contents = SnapshotFile.Contents(
            replica: replicaID, firstSegment: next, reservedThrough: state.reservedThrough,
            payload: state.list.snapshot())
        let path = directory + "/" + SnapshotFile.name
        let snapshot = SnapshotFile.encode(contents)
        do {
            // On failure the old snapshot and every segment it needs are still there.
            try FileSystem.replaceFile(path, in: directory, with: snapshot, faults: options.faults)
            state.earlierLogBytes = 0
            state.snapshotBytes = snapshot.count
            try ReplicaDirectory(path: directory).removeSegments(below: next)
        } catch {
            throw .failedWrite(error)
        }
    }
}
