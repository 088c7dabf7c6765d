#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file, held until ``release()`` or until the process exits.
final class FileLock {
    private let file: FileDescriptor

    /// Takes the lock on `path` (creating the file), or returns nil when another open file holds it.
    init?(path: String) throws(SystemError) {
        file = try FileDescriptor.open(path, flags: O_RDWR | O_CREAT)
        let descriptor = file.rawValue
        do {
            try systemCall("flock", path: path) { flock(descriptor, LOCK_EX | LOCK_NB) }
        } catch where error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// Releases the lock by closing the lock file.
    func release() throws(SystemError) {
        try file.close()
    }
}
