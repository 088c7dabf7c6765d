#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading files and standard input with `read(2)`, in bounded amounts.
enum FileReading {
    /// Reads up to `buffer.count` bytes from `descriptor`, retrying `EINTR`.
    /// - Returns: the bytes read, 0 at the end of input, or -1 with `errno` set.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            #if canImport(Glibc)
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
                let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// The first `limit` bytes of the file at `path` (all of it when shorter), never more, so a huge or
    /// endless file (`/dev/zero`) costs no more than `limit` bytes; nil when it cannot be opened or read.
    static func prefix(_ limit: Int, ofFileAt path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }
}
