import ListSync
import Synchronization

/// A replicated list kept in a directory: every change is logged before it is acknowledged, and a
/// restarted replica resumes with its identity, its state and fresh operation counters.
///
/// ```swift
/// let store = try DurableReplica<String>(directory: path)
/// let commit = try store.update { list in list.append("Milk") }
/// send(commit.changes)                                  // durable already under `.always`
/// try store.merge(receivedChangeSet)
/// let titles = store.read { list in list.map(\.value) }
/// ```
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
    let state: Mutex<ReplicaState<Element>>

    /// Opens the replica in `directory`, creating the directory and the replica on first use.
    /// - Throws: ``StoreError`` naming the file (and offset) at fault.
    public init(directory: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let recovered = try Recovery<Element>.open(directory: directory, options: options)
        self.directory = directory
        self.options = options
        replicaID = recovered.replica
        recoveryReport = recovered.report
        let salvaged = !recovered.report.salvaged.isEmpty
        state = Mutex(recovered.state)
        if salvaged { try compact() }
    }

    deinit {
        // Without a `close()`, records already written still survive a crash of this process; this
        // best effort only adds the fsync a clean `close()` would have done.
        state.withLock { state in
            try? state.writing { state throws(SystemError) in try state.sync() }
        }
    }

    /// Applies `mutation` to the list and logs the local change it made.
    ///
    /// Returns the batch for the UI, the change set to send to peers, and the durability ticket (already
    /// durable under ``CommitPolicy/always``). Operation counters are reserved durably before a change
    /// is returned, so the change may be sent to peers at once even under ``CommitPolicy/batched(_:)``.
    /// - Complexity: the mutation's, plus O(n) for n rows to extract the change set.
    @discardableResult
    public func update(_ mutation: @Sendable (ReplicatedList<Element>) -> ListChange) throws(StoreError) -> Commit {
        try state.withLock { state throws(StoreError) in
            try state.writing { state throws(SystemError) in
                var before = state.list.versionVector
                before[state.list.replicaID] = state.list.nextOperationCounter - 1
                let change = mutation(state.list)
                let changes = state.list.changes(since: before)
                guard !changes.isEmpty else {
                    return Commit(change: change, changes: changes, ticket: DurabilityTicket(sequence: state.appended))
                }
                let reserved = try state.extendReservation(block: options.counterReservationBlock)
                let ticket = try state.append(.localChange(changes.encoded()))
                try commit(&state, forceSync: reserved)
                return Commit(change: change, changes: changes, ticket: ticket)
            }
        }
    }

    /// Merges a change set from a peer and logs it.
    /// - Throws: ``StoreError/mergeRejected(_:)`` when the list rejects it (nothing is applied or logged).
    @discardableResult
    public func merge(_ changes: ChangeSet) throws(StoreError) -> Commit {
        try state.withLock { state throws(StoreError) in
            if let failure = state.failure { throw failure }
            let change: ListChange
            do throws(MergeError) {
                change = try state.list.merge(changes)
            } catch {
                throw .mergeRejected(error)
            }
            return try state.writing { state throws(SystemError) in
                guard !changes.isEmpty else {
                    return Commit(change: change, changes: changes, ticket: DurabilityTicket(sequence: state.appended))
                }
                let reserved = try state.extendReservation(block: options.counterReservationBlock)
                let ticket = try state.append(.mergedChanges(changes.encoded()))
                try commit(&state, forceSync: reserved)
                return Commit(change: change, changes: changes, ticket: ticket)
            }
        }
    }

    /// Runs `body` with the list under the store's lock and returns its result; `body` must not mutate
    /// the list (use ``update(_:)``) nor keep it.
    public func read<Result: Sendable>(_ body: (ReplicatedList<Element>) -> Result) -> Result {
        state.withLock { state in body(state.list) }
    }

    /// Makes an appended record durable as the commit policy says, and compacts when the log is long.
    private func commit(_ state: inout ReplicaState<Element>, forceSync: Bool) throws(SystemError) {
        switch options.commitPolicy {
        case .always:
            try state.sync()
        case .batched(let interval):
            if forceSync { try state.sync() } else { scheduleGroupCommit(&state, after: interval) }
        }
        if let threshold = options.compactionThreshold, state.log.size >= threshold {
            try compact(&state)
        }
    }
}
