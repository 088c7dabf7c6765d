/// Splits a byte stream into frames: a 4-byte big-endian length, then that many bytes (Protocol.md section 2.2).
struct Framing {
    /// The largest accepted frame length.
    var maximumFrameByteCount: Int
    /// Received bytes not yet consumed.
    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`.
    private var start = 0

    /// A splitter that rejects frames longer than `maximumFrameByteCount`.
    init(maximumFrameByteCount: Int) { self.maximumFrameByteCount = maximumFrameByteCount }

    /// The length prefix of a frame of `length` bytes.
    static func lengthPrefix(_ length: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * (3 - $0))) }
    }

    /// Appends received bytes.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet part of a complete frame.
    var bufferedByteCount: Int { buffer.count - start }

    /// The length announced by the frame being received, once its prefix is complete.
    var announcedLength: Int? {
        guard bufferedByteCount >= 4 else { return nil }
        return buffer[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The next complete frame (its length prefix and its bytes), or nil when more bytes are needed.
    mutating func nextFrame() throws(SyncError) -> (prefix: [UInt8], body: ArraySlice<UInt8>)? {
        guard let length = announcedLength else { return nil }
        guard length > 0 && length <= maximumFrameByteCount else {
            throw .frameTooLarge(length: length, limit: maximumFrameByteCount)
        }
        guard bufferedByteCount >= 4 + length else { return nil }
        let prefix = Array(buffer[start..<start + 4])
        let body = buffer[start + 4..<start + 4 + length]
        start += 4 + length
        return (prefix, body)
    }
}
