import Dispatch
import ListSync

/// Group commit and waiting for durability.
extension DurableReplica {
    /// The ticket of the last change known to be durable.
    public var durableTicket: DurabilityTicket {
        state.withLock { DurabilityTicket(sequence: $0.durable) }
    }

    /// Returns once the change with `ticket` is durable.
    /// - Throws: the ``StoreError`` that stopped the store (a failed fsync, or ``StoreError/closed``).
    public func waitUntilDurable(_ ticket: DurabilityTicket) async throws(StoreError) {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Void, StoreError>, Never>) in
            state.withLock { state in
                if ticket.sequence <= state.durable {
                    continuation.resume(returning: .success(()))
                } else if let failure = state.failure {
                    continuation.resume(returning: .failure(failure))
                } else {
                    state.waiters.append(.init(sequence: ticket.sequence, continuation: continuation))
                }
            }
        }
        try result.get()
    }

    /// Makes every change logged so far durable now (one fsync).
    public func flush() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try state.writing { state throws(SystemError) in try state.sync() }
        }
    }

    /// Schedules one fsync `interval` from now unless one is already scheduled.
    func scheduleGroupCommit(_ state: inout ReplicaState<Element>, after interval: Duration) {
        guard !state.flushScheduled else { return }
        state.flushScheduled = true
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            self.state.withLock { state in
                state.flushScheduled = false
                try? state.writing { state throws(SystemError) in try state.sync() }
            }
        }
    }

    /// Makes everything durable, then releases the directory; later updates and merges throw
    /// ``StoreError/closed``, reads still see the last state.
    public func close() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            if state.failure == .closed { return }
            let synced = Result { () throws(StoreError) in
                try state.writing { state throws(SystemError) in try state.sync() }
            }
            let released = Result { () throws(SystemError) in
                try state.log.close()
                try state.lock.release()
            }
            state.fail(.closed)
            state.failure = .closed
            try synced.get()
            try released.mapError(StoreError.system).get()
        }
    }

    /// Compacts (so that the next open loads a snapshot instead of replaying the log), then closes, as a
    /// clean shutdown does. The store is closed even when compacting failed.
    /// - Throws: what ``compact()`` or ``close()`` threw, the compaction's first (the data is safe
    ///   either way: compaction replaces the log only once the snapshot is durable).
    public func compactAndClose() throws(StoreError) {
        let compacted = Result { () throws(StoreError) in try compact() }
        try close()
        try compacted.get()
    }
}
