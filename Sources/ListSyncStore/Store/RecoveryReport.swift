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

    /// Damage that salvage worked around, and where the damaged bytes went.
    public struct Salvage: Hashable, Sendable, CustomStringConvertible {
        /// What was damaged, where (the file and the offset of the first damaged record).
        public var damage: StoreError
        /// How many bytes of the file, from its start, are still read in place (0: none).
        public var keptBytes: Int
        /// Where the damaged file now is, whole, for inspection or repair; nil for a missing file.
        public var movedTo: String?

        /// One line: the damage, what was kept and where the file went.
        public var description: String {
            let moved = movedTo.map { "; the whole file was moved aside to \($0)" } ?? ""
            let kept = keptBytes > 0 ? "the \(keptBytes) bytes before the damage are kept" : "nothing of it is read"
            return "\(damage.summary): \(kept)\(moved)"
        }
    }

    /// Whether the directory was created (or initialised) by this open.
    public var created = false
    /// Whether a snapshot was loaded.
    public var snapshotLoaded = false
    /// How many change records (local changes and merged change sets) were replayed on top of it.
    public var recordsReplayed = 0
    /// Torn tails that were truncated (at most one in normal operation).
    public var tornTails: [TornTail] = []
    /// Damage that ``RecoveryMode/salvage`` worked around (the damaged file, and every later log segment,
    /// moved aside); empty in strict mode.
    public var salvaged: [Salvage] = []

    /// Whether the replica opened without dropping anything.
    public var isClean: Bool { tornTails.isEmpty && salvaged.isEmpty }

    /// One line per event (a torn tail cut, damage salvaged), for an app or a CLI to show at start;
    /// empty when the replica opened cleanly.
    public var lines: [String] {
        tornTails.map { "cut \($0.droppedBytes) torn bytes at offset \($0.offset) of \($0.path): \($0.reason)" }
            + salvaged.map { "salvaged \($0)" }
    }
}
