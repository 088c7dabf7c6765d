import ListSync

/// Why a durable replica could not be opened or could not carry out an operation, and where.
public enum StoreError: Error, Hashable, Sendable {
    /// A system call failed (with its function, path and `errno`).
    case system(SystemError)
    /// `path` exists but is not a ListSync replica directory: it holds files a replica never writes,
    /// or it is not a directory.
    case notAReplica(path: String)
    /// Another process, or another open store in this process, owns the replica at `path`.
    case locked(path: String)
    /// The file at `path` is in a storage format version this build does not read.
    case unsupportedFormatVersion(path: String, version: UInt8)
    /// The file at `path` is damaged at byte `offset`.
    case corrupt(path: String, offset: Int, reason: String)
    /// The file at `path` belongs to replica `found`, not to this directory's replica `expected`.
    case replicaMismatch(path: String, expected: ReplicaID, found: ReplicaID)
    /// A change set was rejected by the list; nothing of it was applied or logged.
    case mergeRejected(MergeError)
    /// The store was closed.
    case closed
    /// An earlier write or fsync failed, so memory may be ahead of disk; reopen the directory.
    case failedEarlier(SystemError)
}

/// Runs `body`, reporting a failed system call as ``StoreError/system(_:)``.
func systemStep<Result>(_ body: () throws(SystemError) -> Result) throws(StoreError) -> Result {
    do {
        return try body()
    } catch {
        throw .system(error)
    }
}
