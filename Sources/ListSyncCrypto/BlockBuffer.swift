/// A function that consumes input in fixed-size blocks, such as a hash compression function.
protocol BlockCompressor {
    /// Number of bytes in one block.
    static var blockByteCount: Int { get }

    /// Consumes `blocks`, whose length is a whole multiple of `blockByteCount`.
    mutating func compress(_ blocks: UnsafeRawBufferPointer)
}

/// Holds the bytes of an incomplete block between streaming updates and hands whole blocks to a compressor.
struct BlockBuffer<Compressor: BlockCompressor>: Sendable {
    /// Bytes that do not yet fill a block (always fewer than `Compressor.blockByteCount`).
    private(set) var pending: [UInt8] = []

    /// Creates an empty buffer.
    init() {
        pending.reserveCapacity(Compressor.blockByteCount)
    }

    /// Feeds `buffer` to `compressor` in whole blocks, keeping any trailing partial block for later.
    mutating func absorb(_ buffer: UnsafeRawBufferPointer, into compressor: inout Compressor) {
        let blockByteCount = Compressor.blockByteCount
        guard var cursor = buffer.baseAddress, !buffer.isEmpty else { return }
        var remaining = buffer.count
        if !pending.isEmpty {
            let taken = min(remaining, blockByteCount - pending.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: cursor, count: taken))
            cursor += taken
            remaining -= taken
            guard pending.count == blockByteCount else { return }
            pending.withUnsafeBytes { compressor.compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let wholeByteCount = remaining - remaining % blockByteCount
        if wholeByteCount > 0 {
            compressor.compress(UnsafeRawBufferPointer(start: cursor, count: wholeByteCount))
        }
        pending.append(
            contentsOf: UnsafeRawBufferPointer(start: cursor + wholeByteCount, count: remaining - wholeByteCount))
    }
}
