#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file, held until ``release()`` or until the process exits.
final class FileLock {
    /// How long to keep trying before reporting the lock as taken. A child process being spawned holds
    /// a copy of every descriptor until its `exec` closes them, so a lock released just now may still
    /// be held for a moment by such a child.
    static let patienceMilliseconds = 200

    private let file: FileDescriptor

    /// Takes the lock on `path` (creating the file), or returns nil when another open file holds it.
    init?(path: String) throws(SystemError) {
        file = try FileDescriptor.open(path, flags: O_RDWR | O_CREAT)
        let descriptor = file.rawValue
        for attempt in 0...Self.patienceMilliseconds {
            do {
                try systemCall("flock", path: path) { flock(descriptor, LOCK_EX | LOCK_NB) }
                return
            } catch  where error.errno == EWOULDBLOCK {
                if attempt < Self.patienceMilliseconds { usleep(1_000) }
            }
        }
        return nil
    }

    /// Releases the lock by closing the lock file.
    func release() throws(SystemError) {
        try file.close()
    }
}
