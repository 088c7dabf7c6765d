import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// The device holding the log is full (`ENOSPC`, `EDQUOT`): the change was not logged and not
    /// applied, and the store goes on working once there is room.
    case noSpace(SystemError)
    /// The device reported an I/O error (`EIO`) writing or fsyncing the log: the change was not logged
    /// and not applied, and the store goes on working if the device recovers.
    case ioError(SystemError)
    /// A write or fsync failed and undoing it failed too, so whether the last change reached the disk is
    /// unknown; the store has stopped (memory holds what the files held when it stopped).
    case uncertain(SystemError)
    /// The store was closed.
    case closed
    /// `path` exists but is not a ``DocumentLibrary`` directory: it holds other files and no library
    /// marker, or it is not a directory.
    case notALibrary(path: String)
    /// A document ID that a ``DocumentLibrary`` does not take: empty or longer than 255 bytes of UTF-8.
    case invalidDocumentID(String)
    /// The library already holds a document with this ID.
    case documentExists(String)
    /// The library holds no document with this ID.
    case noSuchDocument(String)
    /// The store stopped after an earlier failure (a failed fsync with changes pending, or an
    /// ``uncertain(_:)`` write): reopen the directory to continue from what is on disk.
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
        case .corrupt:
            "\(summary); opening with salvage recovery (RecoveryMode.salvage) continues from what precedes the damage and moves the damaged file aside, deleting nothing"
        case .replicaMismatch(let path, let expected, let found):
            "\(path) belongs to replica \(found), not to this directory's replica \(expected)"
        case .mergeRejected(let error): "a change set was rejected, nothing of it applied: \(error)"
        case .noSpace(let error):
            "no space left on the device holding \(error.path) (\(error)): nothing was changed (an edit or merge was not logged and not applied); make room on that device and retry, the store goes on working"
        case .ioError(let error):
            "the device holding \(error.path) reported an I/O error (\(error)): nothing was changed (an edit or merge was not logged and not applied); check the device, then retry"
        case .uncertain(let error):
            "a write to \(error.path) failed and could not be undone (\(error)): the last change may or may not be on disk; the store has stopped, reopen the directory to continue from what is on disk"
        case .notALibrary(let path):
            "\(path) is not a ListSync document library (it holds other files, or is not a directory); choose an empty or new directory"
        case .invalidDocumentID(let id):
            "a document ID holds 1 to 255 bytes of UTF-8, not \(id.utf8.count)"
        case .documentExists(let id): "the library already holds a document \"\(id)\""
        case .noSuchDocument(let id): "the library holds no document \"\(id)\""
        case .closed: "the store (or document library) was closed"
        case .failedEarlier(let error):
            "the store stopped after an earlier failure (\(error)); reopen the directory to continue from what is on disk"
        }
    }
}

extension StoreError {
    /// What is wrong and where, without advice (for reports of what salvage did).
    var summary: String {
        guard case .corrupt(let path, let offset, let reason) = self else { return description }
        return "\(path) is damaged at byte \(offset): \(reason)"
    }

    /// The error for a write that `error` made fail and that was undone (a change rolled back, a
    /// compaction abandoned).
    static func failedWrite(_ error: SystemError) -> StoreError {
        switch error.errno {
        case ENOSPC, EDQUOT: .noSpace(error)
        case EIO: .ioError(error)
        default: .system(error)
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
