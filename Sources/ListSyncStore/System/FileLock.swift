#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exclusive ownership of a replica directory: an `flock` on the directory itself, which cannot be
/// unlinked while it holds files, and one on its `LOCK` file, the only lock earlier builds took; held
/// until ``release()`` or until the process exits.
///
/// The lock file alone was not enough: deleting it let a second process create and lock a new one while
/// the first still wrote. The directory's inode stays the same whatever happens to the files in it.
final class FileLock {
    /// How long to keep trying before reporting the lock as taken. A child process being spawned holds
    /// a copy of every descriptor until its `exec` closes them, so a lock released just now may still
    /// be held for a moment by such a child.
    static let patienceMilliseconds = 200

    private let directory: FileDescriptor
    private let lockFile: FileDescriptor

    /// Takes the lock of `directory` and of its lock file `lockPath` (creating it), or returns nil when
    /// another open file holds either.
    init?(directory path: String, lockFile lockPath: String) throws(SystemError) {
        directory = try FileDescriptor.open(path, flags: O_RDONLY | O_DIRECTORY)
        guard try Self.lock(directory) else { return nil }
        lockFile = try FileDescriptor.open(lockPath, flags: O_RDWR | O_CREAT)
        guard try Self.lock(lockFile) else { return nil }
    }

    /// Takes an exclusive `flock` on `file`, waiting at most ``patienceMilliseconds``; false when taken.
    private static func lock(_ file: FileDescriptor) throws(SystemError) -> Bool {
        let descriptor = file.rawValue
        for attempt in 0...patienceMilliseconds {
            do {
                try systemCall("flock", path: file.path) { flock(descriptor, LOCK_EX | LOCK_NB) }
                return true
            } catch  where error.errno == EWOULDBLOCK {
                if attempt < patienceMilliseconds { usleep(1_000) }
            }
        }
        return false
    }

    /// Releases both locks by closing their descriptors.
    func release() throws(SystemError) {
        try lockFile.close()
        try directory.close()
    }
}
