import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads lines from a file descriptor in bounded memory: LF, CRLF or a lone CR ends a line, and a line
/// longer than ``maximumLength`` bytes is reported as soon as it exceeds it, never held whole; the rest
/// of it is skipped.
struct LineReader {
    /// One line of input.
    enum Line: Equatable {
        /// A line of UTF-8 text, without its line end.
        case text(String)
        /// A line longer than ``LineReader/maximumLength`` bytes; the reader skips what is left of it.
        case tooLong
        /// A line that is not valid UTF-8.
        case notUTF8
    }

    /// The longest line accepted at the prompt and in scenario files, in bytes: 1 MiB.
    static let maximumLength = 1 << 20

    /// What ``LineReader/Line/tooLong`` means, for messages.
    static let tooLongText = "longer than \(maximumLength.formatted()) bytes"

    /// The descriptor read.
    private let descriptor: Int32
    /// The longest line kept, in bytes.
    private let maximumLength: Int
    /// Bytes read and not yet consumed: `buffer[start..<end]`.
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0
    private var end = 0
    /// Whether the last line ended with CR, so an LF right after it belongs to that line end.
    private var afterCR = false
    /// Whether the rest of a too-long line is being skipped.
    private var skipping = false
    /// Whether the end of input was reached.
    private var atEnd = false
    /// Every byte read so far.
    private(set) var bytesRead = 0
    /// The `errno` of a read that failed (the input then ends), or nil.
    private(set) var failure: Int32?

    /// A reader of `descriptor`, which it does not close.
    init(descriptor: Int32, maximumLength: Int = Self.maximumLength) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    /// The next line, or nil at the end of input. A last line without a line end is still a line.
    /// - Complexity: O(n) for the n bytes consumed; memory stays below ``maximumLength`` plus one buffer.
    mutating func next() -> Line? {
        var line: [UInt8] = []
        var started = false
        while let byte = nextByte() {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            if byte == 0x0A || byte == 0x0D {
                afterCR = byte == 0x0D
                if skipping {
                    skipping = false
                    continue
                }
                return Self.decode(line)
            }
            if skipping { continue }
            guard line.count < maximumLength else {
                skipping = true
                return .tooLong
            }
            started = true
            line.append(byte)
        }
        return started ? Self.decode(line) : nil
    }

    /// `bytes` as text, when they are UTF-8.
    private static func decode(_ bytes: [UInt8]) -> Line {
        String(bytes: bytes, encoding: .utf8).map(Line.text) ?? .notUTF8
    }

    /// The next byte of input, reading more when the buffer is used up; nil at the end or on a failed read.
    private mutating func nextByte() -> UInt8? {
        if start == end {
            guard !atEnd else { return nil }
            let count = buffer.withUnsafeMutableBytes { FileReading.read(descriptor, into: $0) }
            guard count > 0 else {
                if count < 0 { failure = errno }
                atEnd = true
                return nil
            }
            start = 0
            end = count
            bytesRead += count
        }
        defer { start += 1 }
        return buffer[start]
    }
}
