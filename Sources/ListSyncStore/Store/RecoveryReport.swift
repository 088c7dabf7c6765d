/// What opening a durable replica found and did.
public struct RecoveryReport: Hashable, Sendable {
    /// A torn record at the end of the log, cut off by recovery.
    public struct TornTail: Hashable, Sendable {
        /// The log segment file.
        public var path: String
        /// The offset the file was truncated to.
        public var offset: Int
        /// How many bytes were dropped.
        public var droppedBytes: Int
        /// What was wrong with them.
        public var reason: String
    }

    /// Whether the directory was created (or initialised) by this open.
    public var created = false
    /// Whether a snapshot was loaded.
    public var snapshotLoaded = false
    /// How many change records (local changes and merged change sets) were replayed on top of it.
    public var recordsReplayed = 0
    /// Torn tails that were truncated (at most one in normal operation).
    public var tornTails: [TornTail] = []
    /// Damage that ``RecoveryMode/salvage`` dropped, with everything after it; empty in strict mode.
    public var salvaged: [StoreError] = []

    /// Whether the replica opened without dropping anything.
    public var isClean: Bool { tornTails.isEmpty && salvaged.isEmpty }
}
