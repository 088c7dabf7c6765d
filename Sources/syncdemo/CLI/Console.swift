import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error: whether they are terminals, colour, and unbuffered writes.
enum Console {
    /// Whether standard output is a terminal (colour, side-by-side layout, progress bars).
    static let outputIsTerminal = isatty(STDOUT_FILENO) == 1
    /// Whether standard error is a terminal (progress bars go there).
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1
    /// Whether standard input is a terminal (interactive prompt).
    static let inputIsTerminal = isatty(STDIN_FILENO) == 1
    /// Whether to colour standard output: a terminal, and `NO_COLOR` unset (https://no-color.org).
    static let usesColor = outputIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    /// Writes `text` and a newline to standard output at once (no buffering across processes).
    static func print(_ text: String = "") { write(text + "\n", to: STDOUT_FILENO) }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    /// Writes `text` without a newline to standard error (progress bars redraw with `\r`).
    static func status(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Writes all of `text` to `descriptor`, retrying short writes.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Terminal styles, applied only when ``Console/usesColor`` is true.
enum Style: String {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case cyan = "36"

    /// `text` in this style, or `text` unchanged when standard output is not a coloured terminal.
    func callAsFunction(_ text: String) -> String {
        Console.usesColor ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : text
    }
}
