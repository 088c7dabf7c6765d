#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a scenario file into lines in bounded memory: at most ``maximumSize`` bytes, lines of at most
/// 1 MiB ending with LF, CRLF or a lone CR, UTF-8 text.
enum ScenarioFile {
    /// The largest scenario file read: 16 MiB.
    static let maximumSize = 16 << 20

    /// Why a file could not be read as a scenario: at a line, or the whole file.
    struct Failure: Error {
        /// The 1-based line at fault, or nil when the file cannot be read at all.
        var line: Int?
        /// What was wrong.
        var message: String
    }

    /// The lines of the file at `path`, without their line ends.
    /// - Throws: ``Failure`` for a file that cannot be opened or read, is larger than ``maximumSize``, or
    ///   has a line too long or not UTF-8 (naming that line).
    static func lines(of path: String) throws(Failure) -> [String] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(line: nil, message: reason(errno)) }
        defer { close(descriptor) }
        var reader = LineReader(descriptor: descriptor)
        var lines: [String] = []
        while let line = reader.next() {
            guard reader.bytesRead <= maximumSize else {
                throw Failure(line: nil, message: "it is larger than \(ByteSize.format(maximumSize))")
            }
            switch line {
            case .text(let text): lines.append(text)
            case .tooLong: throw Failure(line: lines.count + 1, message: "the line is \(LineReader.tooLongText)")
            case .notUTF8: throw Failure(line: lines.count + 1, message: "the line is not UTF-8 text")
            }
        }
        if let failure = reader.failure { throw Failure(line: nil, message: reason(failure)) }
        return lines
    }

    /// Why a file could not be opened or read, from `errno`.
    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EISDIR: "it is a directory"
        case EACCES: "permission denied"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
