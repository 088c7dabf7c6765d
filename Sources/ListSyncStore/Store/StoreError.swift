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

extension StoreError: CustomStringConvertible {
    /// What went wrong, where, and what to do about it, in one sentence.
    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .notAReplica(let path):
            "\(path) is not a ListSync replica directory (it holds other files, or is not a directory); choose an empty or new directory"
        case .locked(let path):
            "the replica at \(path) is in use by another process or open store; close that one first"
        case .unsupportedFormatVersion(let path, let version):
            "\(path) is in storage format version \(version), which this build does not read; open it with a newer build"
        case .corrupt(let path, let offset, let reason):
            "\(path) is damaged at byte \(offset): \(reason); open with recovery .salvage to keep what precedes the damage"
        case .replicaMismatch(let path, let expected, let found):
            "\(path) belongs to replica \(found), not to this directory's replica \(expected)"
        case .mergeRejected(let error): "a change set was rejected, nothing of it applied: \(error)"
        case .closed: "the store was closed"
        case .failedEarlier(let error):
            "an earlier write failed (\(error)), so memory may be ahead of disk; reopen the directory"
        }
    }
}

/// Runs `body`, reporting a failed system call as ``StoreError/system(_:)``.
func systemStep<Result>(_ body: () throws(SystemError) -> Result) throws(StoreError) -> Result {
    do {
        return try body()
    } catch {
        throw .system(error)
    }
}
