import ListSync

/// Snapshots and compaction.
extension DurableReplica {
    /// Writes a snapshot of the list and drops the log records it covers.
    ///
    /// The log is fsynced, a new segment is started, the snapshot goes to a temporary file that is
    /// fsynced and renamed over the old one, the directory is fsynced, and only then are the older
    /// segments removed; a crash at any point leaves a directory that opens to the same state.
    /// Updates and merges wait while it runs.
    /// - Complexity: O(n) for n rows and tombstones.
    public func compact() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try state.writing { state throws(SystemError) in try compact(&state) }
        }
    }

    /// Compacts while the caller holds the lock.
    func compact(_ state: inout ReplicaState<Element>) throws(SystemError) {
        try state.sync()
        let next = state.log.number + 1
        let log = try LogWriter(
            directory: directory, replica: replicaID, number: next, reservedThrough: state.reservedThrough)
        try state.log.close()
        state.log = log
        let contents = SnapshotFile.Contents(
            replica: replicaID, firstSegment: next, reservedThrough: state.reservedThrough,
            payload: state.list.snapshot())
        let path = directory + "/" + SnapshotFile.name
        try FileSystem.replaceFile(path, in: directory, with: SnapshotFile.encode(contents))
        try ReplicaDirectory(path: directory).removeSegments(below: next)
    }
}
