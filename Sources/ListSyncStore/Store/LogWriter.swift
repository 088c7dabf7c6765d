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

    /// Creates segment `number` in `directory` durably: its header, the length of the segment before it
    /// when that one stays (`previousSegmentLength`), and a reservation of counters up to
    /// `reservedThrough`, fsynced, and the directory entry fsynced. When that fails the file is removed
    /// (best effort), so a later attempt can create it again. `faults` (tests only) injects failures.
    init(
        directory: String, replica: ReplicaID, number: UInt64, previousSegmentLength: Int?, reservedThrough: UInt64,
        faults: FileFaults? = nil
    ) throws(SystemError) {
        self.number = number
        path = directory + "/" + LogSegment.fileName(number)
        file = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_APPEND, faults: faults)
        let previous = previousSegmentLength.map { LogRecord.previousSegment(length: UInt64($0)).encoded() } ?? []
        let bytes =
            LogSegment.header(replica: replica, number: number) + previous
            + LogRecord.reservation(reservedThrough).encoded()
        do {
            try file.write(bytes)
            try file.sync()
            try FileSystem.syncDirectory(directory)
        } catch {
            try? file.close()
            try? FileSystem.remove(path)
            throw error
        }
        size = bytes.count
    }

    /// Appends `record` (to the page cache; call ``sync()`` to make it durable).
    func append(_ record: LogRecord) throws(SystemError) {
        let bytes = record.encoded()
        // Counted first: a write that fails may have written part of the record, which a rollback cuts.
        size += bytes.count
        try file.write(bytes)
    }

    /// Cuts the segment back to `length` bytes (a record that could not be written wholly).
    func truncate(to length: Int) throws(SystemError) {
        try file.truncate(to: length)
        size = length
    }

    /// Makes every appended record durable.
    func sync() throws(SystemError) { try file.sync() }

    /// Closes the segment file.
    func close() throws(SystemError) { try file.close() }
}
