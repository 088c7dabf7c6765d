import ListSync

/// The valid ranges of numbers the store reads back from its files.
///
/// Operation counters (and so counter reservations) are valid in `1 ... Dot.maximumCounter`, the range of
/// Protocol.md section 1; a file holding one outside it is damaged. Segment numbers stay at or below
/// ``maximumSegment``, so the next one never overflows.
enum StoreLimits {
    /// The highest valid log segment number.
    static let maximumSegment: UInt64 = 1 << 62 - 1

    /// The reservation that covers `block` more counters after `lastUsed`, never above `Dot.maximumCounter`.
    static func reservation(after lastUsed: UInt64, block: UInt64) -> UInt64 {
        let (sum, overflow) = lastUsed.addingReportingOverflow(block)
        return overflow ? Dot.maximumCounter : Swift.min(sum, Dot.maximumCounter)
    }
}
