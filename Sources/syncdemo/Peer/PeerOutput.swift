/// Where a peer's lines go: results on standard output, errors and network events on standard error,
/// and the `NAME> ` prompt (on standard error) only when standard input is a terminal.
///
/// Lines that arrive between commands (changes merged from peers, loads that ended) are announced
/// with the prompt redrawn after them, so an interactive user keeps a prompt to type at.
struct PeerOutput: Sendable {
    /// The peer's name, shown in the prompt.
    let name: String

    /// Whether a person types the commands (standard input is a terminal).
    var isInteractive: Bool { Console.inputIsTerminal }

    /// Shows `NAME> ` when interactive.
    func prompt() {
        if isInteractive { Console.status("\(name)> ") }
    }

    /// Prints a result line on standard output.
    func result(_ line: String) { Console.print(line) }

    /// Prints `line` on standard output between commands, redrawing the prompt when interactive.
    func announce(_ line: String) {
        if isInteractive { Console.status("\r\u{1B}[K") }
        Console.print(line)
        prompt()
    }

    /// Prints `line` on standard error between commands, redrawing the prompt when interactive.
    func log(_ line: String) {
        if isInteractive { Console.status("\r\u{1B}[K") }
        Console.error(line)
        prompt()
    }
}
