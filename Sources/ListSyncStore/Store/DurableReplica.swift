import ListSync

/// A replicated list kept in a directory: every change is logged before it is acknowledged, and a
/// restarted replica resumes with its identity, its state and fresh operation counters.
///
/// ```swift
/// let store = try DurableReplica<String>(directory: path)
/// let commit = try store.update { list in
///     list.append("Milk")
///     list.move(from: list.count - 1, to: 0)
/// }                                                     // one log record, durable under `.always`
/// tableView.performBatchUpdates(commit.change)          // one batch for both edits
/// try store.merge(receivedChangeSet)
/// let titles = store.read { list in list.map(\.value) }
/// ```
///
/// To save and sync one list, give the store to a sync peer (`SyncPeer(replica: store, ...)`): it is a
/// ``SyncReplica``, so every change a peer sends is logged before it is acknowledged, every local edit
/// made through the peer is logged before it is sent, and the peer delivers the changes of both.
///
/// The list is not thread-safe, so it lives inside the store: reach it only through ``update(_:)``,
/// ``merge(_:)`` and ``read(_:)``, whose closures run under the store's lock. One store at a time may
/// own a directory; a second open, in this process or another, throws ``StoreError/locked(path:)``.
public final class DurableReplica<Element: Codable & Sendable>: Sendable {
    /// The replica directory.
    public let directory: String
    /// The replica's identity, fixed when the directory was created.
    public let replicaID: ReplicaID
    /// What opening found and did.
    public let recoveryReport: RecoveryReport
    let options: StoreOptions
    let state: Locked<ReplicaState<Element>>

    /// Opens the replica in `directory`, creating the directory and the replica on first use.
    /// - Throws: ``StoreError`` naming the file (and offset) at fault.
    public init(directory: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let recovered = try Recovery<Element>.open(directory: directory, options: options)
        self.directory = directory
        self.options = options
        replicaID = recovered.replica
        recoveryReport = recovered.report
        let salvaged = !recovered.report.salvaged.isEmpty
        state = Locked(recovered.state)
        if salvaged { try compact() }
    }

    deinit {
        // Without a `close()`, records already written still survive a crash of this process; this
        // best effort only adds the fsync a clean `close()` would have done.
        state.withLock { state in
            try? state.writing { state throws(SystemError) in try state.sync() }
        }
    }

    /// Runs `body` on the list as one transaction (``ReplicatedList/transaction(_:)``) and logs the local
    /// change it made as one record.
    ///
    /// Returns the combined batch for the UI, the change set to send to peers, and the durability ticket
    /// (already durable under ``CommitPolicy/always``). Operation counters are reserved durably before a
    /// change is returned, so the change may be sent to peers at once even under ``CommitPolicy/batched(_:)``.
    /// - Throws: ``StoreError/noSpace(_:)`` or ``StoreError/ioError(_:)`` when the change could not be
    ///   logged: it is then not applied either (the list is rebuilt from the files, and the placeholders
    ///   pending and the undo history before `body` are put back as they were), and the store goes on
    ///   working.
    /// - Complexity: the edits', plus O(n) for n rows to extract the change set (and O(n) to
    ///   rebuild the list when the change could not be logged).
    @discardableResult
    public func update(_ body: (ReplicatedList<Element>) -> Void) throws(StoreError) -> Commit {
        try state.withLock { state throws(StoreError) in
            if let failure = state.failure { throw failure }
            var before = state.list.versionVector
            before[state.list.replicaID] = state.list.nextOperationCounter - 1
            let local = state.list.localState
            let change = state.list.transaction(body).change
            let changes = state.list.changes(since: before)
            guard !changes.isEmpty else {
                return Commit(change: change, changes: changes, ticket: DurabilityTicket(sequence: state.appended))
            }
            let ticket = try log(.localChange(changes.encoded()), &state, keeping: local)
            return Commit(change: change, changes: changes, ticket: ticket)
        }
    }

    /// Merges a change set from a peer and logs it.
    /// - Throws: ``StoreError/mergeRejected(_:)`` when the list rejects it (nothing is applied or
    ///   logged); ``StoreError/noSpace(_:)`` or ``StoreError/ioError(_:)`` when it could not be logged
    ///   (nothing is applied either: do not acknowledge it, and try again later).
    @discardableResult
    public func merge(_ changes: ChangeSet) throws(StoreError) -> Commit {
        try state.withLock { state throws(StoreError) in
            if let failure = state.failure { throw failure }
            let local = state.list.localState
            let change: ListChange
            do throws(MergeError) {
                change = try state.list.merge(changes)
            } catch {
                throw .mergeRejected(error)
            }
            guard !changes.isEmpty else {
                return Commit(change: change, changes: changes, ticket: DurabilityTicket(sequence: state.appended))
            }
            let ticket = try log(.mergedChanges(changes.encoded()), &state, keeping: local)
            return Commit(change: change, changes: changes, ticket: ticket)
        }
    }

    /// Runs `body` with the list under the store's lock and returns its result; `body` must not mutate
    /// the list (use ``update(_:)``) nor keep it.
    public func read<Result: Sendable>(_ body: (ReplicatedList<Element>) -> Result) -> Result {
        state.withLock { state in body(state.list) }
    }

    /// Logs `record`, the change just applied to the list, and makes it durable as the commit policy
    /// says; when it cannot, rolls the change back (``rollBack(_:to:after:keeping:)``, putting back
    /// `local`, the placeholders and undo history the list had before the change) and throws.
    private func log(
        _ record: LogRecord, _ state: inout ReplicaState<Element>,
        keeping local: ReplicatedList<Element>.LocalState
    ) throws(StoreError) -> DurabilityTicket {
        let mark = state.mark
        let ticket: DurabilityTicket
        do throws(SystemError) {
            let reserved = try state.extendReservation(block: options.counterReservationBlock)
            ticket = try state.append(record)
            switch options.commitPolicy {
            case .always:
                try state.sync()
            case .batched(let interval):
                if reserved { try state.sync() } else { scheduleGroupCommit(&state, after: interval) }
            }
        } catch {
            throw rollBack(&state, to: mark, after: error, keeping: local)
        }
        compactIfLong(&state)
        return ticket
    }

    /// Undoes a change whose record could not be logged: cuts the log back to `mark` durably, then
    /// rebuilds the list from the files, so memory holds exactly what they hold, with the placeholders
    /// and undo history it had before the change (`local`) put back, so the list is as it was before it.
    /// Returns the error to throw: ``StoreError/noSpace(_:)``, ``StoreError/ioError(_:)`` or ``StoreError/system(_:)`` when
    /// the store goes on; ``StoreError/uncertain(_:)`` when it had to stop (the cut failed, or a failed
    /// fsync may have lost earlier records not yet durable).
    private func rollBack(
        _ state: inout ReplicaState<Element>, to mark: ReplicaState<Element>.Mark, after error: SystemError,
        keeping local: ReplicatedList<Element>.LocalState
    ) -> StoreError {
        let cause = error
        var failure = StoreError.failedWrite(cause)
        do throws(SystemError) {
            try state.log.truncate(to: mark.size)
            state.restore(mark)
            state.dirty = true
            try state.sync()
        } catch {
            failure = .uncertain(error)
        }
        // After a failed fsync the kernel may have dropped pages of earlier records not yet durable.
        if cause.function == "fsync" && mark.dirty { failure = .uncertain(cause) }
        let counters = state.list.nextOperationCounter
        do throws(StoreError) {
            let list = try Recovery<Element>.reload(directory: directory, replica: replicaID, options: options)
            list.reserveOperationCounters(from: Swift.max(counters, list.nextOperationCounter))
            list.restore(local)
            state.list = list
        } catch {
            options.log?("ListSyncStore: rebuilding the list after \(cause) failed: \(error)")
            failure = .uncertain(cause)
        }
        if case .uncertain(let cause) = failure { state.fail(.failedEarlier(cause)) }
        return failure
    }

    /// Compacts when the log an open would replay (this open's and earlier ones') has grown past the
    /// threshold and a quarter of the snapshot (``StoreOptions/compactionThreshold``); a failed
    /// compaction does not undo the change just logged: it is logged through ``StoreOptions/log`` and
    /// tried again after as many bytes more.
    private func compactIfLong(_ state: inout ReplicaState<Element>) {
        guard let threshold = options.compactionThreshold,
            state.logBytes >= Swift.max(threshold, state.snapshotBytes / 4, state.compactionRetrySize)
        else { return }
        do throws(StoreError) {
            try compact(&state)
            state.compactionRetrySize = 0
        } catch {
            let (retry, overflow) = state.logBytes.addingReportingOverflow(Swift.max(threshold, 1))
            state.compactionRetrySize = overflow ? .max : retry
            options.log?("ListSyncStore: compaction failed, tried again later: \(error)")
        }
    }
}
