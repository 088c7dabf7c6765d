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

    /// The width, in columns, that standard output's text is laid out for: its terminal's, or 80 when
    /// it is not a terminal (or the terminal does not say).
    static var outputWidth: Int { outputIsTerminal ? columns(of: STDOUT_FILENO) ?? 80 : 80 }

    /// The width of standard error's terminal (where the prompt is drawn), or 80.
    static var errorWidth: Int { columns(of: STDERR_FILENO) ?? 80 }

    /// The number of columns of the terminal `descriptor` is open on (TIOCGWINSZ), asked again at each
    /// call so a resized window is followed; nil when it is not a terminal or reports 0.
    static func columns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

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
