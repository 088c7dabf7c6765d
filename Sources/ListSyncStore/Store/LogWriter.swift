import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends records to the current log segment of a replica directory.
final class LogWriter {
    /// The segment's number.
    let number: UInt64
    /// The segment's path.
    let path: String
    private let file: FileDescriptor
    /// The segment's size in bytes.
    private(set) var size: Int

    /// Creates segment `number` in `directory` durably: its header and a reservation of counters up to
    /// `reservedThrough`, fsynced, and the directory entry fsynced.
    init(directory: String, replica: ReplicaID, number: UInt64, reservedThrough: UInt64) throws(SystemError) {
        self.number = number
        path = directory + "/" + LogSegment.fileName(number)
        file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_APPEND)
        let bytes =
            LogSegment.header(replica: replica, number: number) + LogRecord.reservation(reservedThrough).encoded()
        try file.write(bytes)
        try file.sync()
        try FileSystem.syncDirectory(directory)
        size = bytes.count
    }

    /// Appends `record` (to the page cache; call ``sync()`` to make it durable).
    func append(_ record: LogRecord) throws(SystemError) {
        let bytes = record.encoded()
        try file.write(bytes)
        size += bytes.count
    }

    /// Makes every appended record durable.
    func sync() throws(SystemError) { try file.sync() }

    /// Closes the segment file.
    func close() throws(SystemError) { try file.close() }
}
