import ListSync

/// The mutable state of an open durable replica; only touched under its mutex.
struct ReplicaState<Element: Codable & Sendable> {
    /// A task waiting for the log to be durable up to `sequence`.
    struct Waiter {
        let sequence: UInt64
        let continuation: CheckedContinuation<Result<Void, StoreError>, Never>
    }

    /// Where the log stood before a change: what a rollback restores.
    struct Mark {
        let size: Int
        let reservedThrough: UInt64
        let appended: UInt64
        let dirty: Bool
    }

    /// The replica's list, always equal to what the log and snapshot hold (rebuilt from them when a
    /// change could not be logged).
    var list: ReplicatedList<Element>
    /// The current log segment.
    var log: LogWriter
    /// The directory's lock, held while open.
    let lock: FileLock
    /// Operation counters of this replica up to this one may have been handed out.
    var reservedThrough: UInt64
    /// Change records appended by this open.
    var appended: UInt64 = 0
    /// Change records known to be durable.
    var durable: UInt64 = 0
    /// Whether records were appended since the last fsync.
    var dirty = false
    /// Whether a group commit is scheduled.
    var flushScheduled = false
    /// Tasks waiting for durability.
    var waiters: [Waiter] = []
    /// Why the store can no longer be used, once it cannot.
    var failure: StoreError?
    /// The log size below which automatic compaction does not try again after a failed attempt.
    var compactionRetrySize = 0
    /// The bytes of the log segments before the current one that the snapshot does not cover.
    var earlierLogBytes = 0
    /// The size of the snapshot file (0 without one).
    var snapshotBytes = 0

    /// The bytes of log the next open replays.
    var logBytes: Int { earlierLogBytes + log.size }

    /// Where the log stands now.
    var mark: Mark { Mark(size: log.size, reservedThrough: reservedThrough, appended: appended, dirty: dirty) }

    /// Forgets the records appended since `mark` (the log file was cut back to it).
    mutating func restore(_ mark: Mark) {
        reservedThrough = mark.reservedThrough
        appended = mark.appended
        dirty = mark.dirty
    }

    /// Runs `body`; a failure leaves the store failed and is rethrown. For steps after which memory and
    /// disk may differ (an fsync of changes already handed out); changes use a rollback instead.
    mutating func writing<Result>(_ body: (inout Self) throws(SystemError) -> Result) throws(StoreError) -> Result {
        if let failure { throw failure }
        do {
            return try body(&self)
        } catch {
            fail(.failedEarlier(error))
            throw .system(error)
        }
    }

    /// Marks the store unusable and wakes every waiter with `error`.
    mutating func fail(_ error: StoreError) {
        if failure == nil { failure = error }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(error)) }
        waiters = []
    }

    /// Makes every appended record durable and wakes the waiters that were waiting for it.
    mutating func sync() throws(SystemError) {
        guard dirty else { return }
        try log.sync()
        dirty = false
        durable = appended
        let ready = waiters.filter { $0.sequence <= durable }
        waiters.removeAll { $0.sequence <= durable }
        for waiter in ready { waiter.continuation.resume(returning: .success(())) }
    }

    /// Appends `record` to the log (not yet durable) and returns its ticket.
    mutating func append(_ record: LogRecord) throws(SystemError) -> DurabilityTicket {
        try log.append(record)
        dirty = true
        if case .reservation = record {} else { appended += 1 }
        return DurabilityTicket(sequence: appended)
    }

    /// Appends a reservation record when the list's counters have reached the reserved ones.
    /// - Returns: whether it did; the reservation must then be synced before the change is handed out.
    mutating func extendReservation(block: UInt64) throws(SystemError) -> Bool {
        let lastUsed = list.nextOperationCounter - 1
        guard lastUsed > reservedThrough else { return false }
        reservedThrough = StoreLimits.reservation(after: lastUsed, block: block)
        _ = try append(.reservation(reservedThrough))
        return true
    }
}
