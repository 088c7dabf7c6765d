import ListSync

/// When a change written to the log becomes durable (fsynced).
public enum CommitPolicy: Hashable, Sendable {
    /// Every change is fsynced before the call that made it returns.
    case always
    /// Changes are fsynced together at most this long after the first unsynced one (group commit);
    /// ``DurableReplica/waitUntilDurable(_:)`` says when a given change is.
    case batched(Duration)
}

/// What opening does when it finds damage before the end of the log or in the snapshot.
public enum RecoveryMode: Hashable, Sendable {
    /// Throw ``StoreError/corrupt(path:offset:reason:)``; nothing is changed on disk.
    case strict
    /// Continue from everything before the damage, deleting nothing: the damaged file and every later
    /// log segment are renamed to `<name>.damaged-<n>` (reported in ``RecoveryReport/salvaged``), and a
    /// fresh snapshot is written so the directory opens cleanly afterwards.
    case salvage
}

/// How a durable replica is opened and run.
public struct StoreOptions: Sendable {
    /// When changes become durable; `.always` by default.
    public var commitPolicy: CommitPolicy
    /// What to do about damage found while opening; `.strict` by default.
    public var recovery: RecoveryMode
    /// How many operation counters one fsynced reservation covers.
    public var counterReservationBlock: UInt64
    /// Compact automatically after a change that leaves the log (what the next open would replay, this
    /// open's records and those of earlier opens) at or above this many bytes and at or above a quarter
    /// of the snapshot's size (``defaultCompactionThreshold`` unless set; nil: only on
    /// ``DurableReplica/compact()``).
    ///
    /// The quarter keeps opening proportional to the list: it replays at most about a quarter of what
    /// it loads, and compaction writes at most about four bytes of snapshot per byte of log, however
    /// large the list.
    public var compactionThreshold: Int?

    /// The default ``compactionThreshold``, 64 KiB: some 900 one-row edits on a small list, before the
    /// quarter of the snapshot takes over (about 4,500 one-row moves for 100,000 rows).
    public static let defaultCompactionThreshold = 64 << 10
    /// The identity of a replica created by this open (random when nil); ignored for an existing one.
    public var newReplicaID: ReplicaID?
    /// Receives one line for each notable recovery event (a torn tail truncated, damage salvaged).
    public var log: (@Sendable (String) -> Void)?
    /// Failures to inject into the file layer; for tests only (internal, nil otherwise).
    var faults: FileFaults?

    /// Options with the given values; every parameter has a sensible default.
    public init(
        commitPolicy: CommitPolicy = .always, recovery: RecoveryMode = .strict,
        counterReservationBlock: UInt64 = 4096, compactionThreshold: Int? = defaultCompactionThreshold,
        newReplicaID: ReplicaID? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        precondition(counterReservationBlock > 0, "the counter reservation block must not be empty")
        self.commitPolicy = commitPolicy
        self.recovery = recovery
        self.counterReservationBlock = counterReservationBlock
        self.compactionThreshold = compactionThreshold
        self.newReplicaID = newReplicaID
        self.log = log
    }
}
