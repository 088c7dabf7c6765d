import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file that is closed exactly once: by ``close()``, or by `deinit` when an error path dropped it.
final class FileDescriptor {
    /// The path it was opened with, for error messages.
    let path: String
    private var descriptor: Int32
    /// Failures to inject (tests only).
    private let faults: FileFaults?

    private init(descriptor: Int32, path: String, faults: FileFaults?) {
        self.descriptor = descriptor
        self.path = path
        self.faults = faults
    }

    deinit {
        // An error path may drop a descriptor without closing it; closing here cannot lose data that
        // matters, because every durable write is followed by an explicit `sync()`.
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is added) and, when creating, `mode`; `faults` (tests
    /// only) makes later calls on it fail.
    static func open(
        _ path: String, flags: Int32, mode: mode_t = 0o644, faults: FileFaults? = nil
    ) throws(SystemError) -> FileDescriptor {
        let descriptor = try systemCall("open", path: path) { systemOpen(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(descriptor: descriptor, path: path, faults: faults)
    }

    /// Throws the failure injected for `function`, if any.
    private func injectFault(_ function: String) throws(SystemError) {
        if let code = faults?.injectedError(function, path: path) {
            throw SystemError(function: function, path: path, errno: code)
        }
    }

    /// The raw descriptor, for calls this type does not wrap (`flock`).
    var rawValue: Int32 { descriptor }

    /// The file's size in bytes.
    func size() throws(SystemError) -> Int {
        var info = stat()
        try systemCall("fstat", path: path) { fstat(descriptor, &info) }
        return Int(info.st_size)
    }

    /// The whole file, read from offset 0, at most `limit` bytes.
    func readAll(limit: Int = Int(Int32.max)) throws(SystemError) -> [UInt8] {
        let total = try size()
        guard total <= limit else { throw SystemError(function: "read", path: path, errno: EFBIG) }
        var failure: SystemError?
        // Read into uninitialized memory: zeroing it first would write every page twice.
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, count in
            LargeTables.adviseHugePages(buffer.baseAddress, bytes: total)
            while count < total {
                do throws(SystemError) {
                    let read = try systemCall("pread", path: path) {
                        pread(descriptor, buffer.baseAddress! + count, total - count, off_t(count))
                    }
                    if read == 0 { break }  // the file shrank: what was read is all there is
                    count += read
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes all of `bytes` at the current offset (the end, for files opened with `O_APPEND`).
    func write(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        var end = bytes.count
        let injected = faults?.injectedError("write", path: path)
        if injected != nil { end /= 2 }
        while offset < end {
            let count = try bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) in
                    try systemCall("write", path: path) {
                        systemWrite(descriptor, buffer.baseAddress! + offset, end - offset)
                    }
                }
            }.get()
            offset += count
        }
        if let injected { throw SystemError(function: "write", path: path, errno: injected) }
    }

    /// Flushes the file's data and metadata to stable storage.
    ///
    /// On Darwin `fsync` only hands the data to the drive, which may keep it in its volatile cache:
    /// `fcntl(F_FULLFSYNC)` asks the drive to flush that cache too. Some file systems (network shares,
    /// FAT) do not support it; then, as SQLite does, this falls back to `fsync`.
    func sync() throws(SystemError) {
        try injectFault("fsync")
        #if canImport(Darwin)
            let flushed = try? systemCall("fcntl(F_FULLFSYNC)", path: path) { fcntl(descriptor, F_FULLFSYNC) }
            if flushed != nil { return }
        #endif
        try systemCall("fsync", path: path) { fsync(descriptor) }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(SystemError) {
        try injectFault("ftruncate")
        try systemCall("ftruncate", path: path) { ftruncate(descriptor, off_t(length)) }
    }

    /// Closes the descriptor; later calls do nothing.
    func close() throws(SystemError) {
        guard descriptor >= 0 else { return }
        let closing = descriptor
        descriptor = -1
        // Not retried on EINTR: the descriptor is released either way on Linux, and a retry could close
        // a descriptor another thread has just been given.
        if systemClose(closing) < 0 { throw SystemError(function: "close", path: path, errno: errno) }
    }
}
