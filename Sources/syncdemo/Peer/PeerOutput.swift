import Synchronization

/// Where a peer's lines go: results on standard output, errors and network events on standard error,
/// and the `NAME> ` prompt (on standard error) only when standard input is a terminal.
///
/// Lines that arrive while the prompt waits for a command (changes merged from peers, loads that
/// ended, network events) clear it and draw it again after them, so an interactive user keeps a
/// prompt to type at; while a command runs, or after the last one, they are printed as they are.
final class PeerOutput: Sendable {
    /// The peer's name, shown in the prompt.
    let name: String
    /// Whether the prompt is shown and waiting for a command.
    private let isPrompting = Atomic(false)

    /// Output for the peer called `name`.
    init(name: String) { self.name = name }

    /// Whether a person types the commands (standard input is a terminal).
    var isInteractive: Bool { Console.inputIsTerminal }

    /// Shows `NAME> ` and waits for a command, when interactive.
    func prompt() {
        guard isInteractive else { return }
        isPrompting.store(true, ordering: .sequentiallyConsistent)
        Console.status("\(name)> ")
    }

    /// Notes that a command was entered (or input ended): the prompt is no longer on screen.
    func endPrompt() { isPrompting.store(false, ordering: .sequentiallyConsistent) }

    /// Prints a result line on standard output.
    func result(_ line: String) { Console.print(line) }

    /// Prints `line` on standard output between commands.
    func announce(_ line: String) { interject { Console.print(line) } }

    /// Prints `line` on standard error between commands.
    func log(_ line: String) { interject { Console.error(line) } }

    /// Runs `write` with the prompt cleared first and drawn again after, when it is shown.
    private func interject(_ write: () -> Void) {
        let prompting = isPrompting.load(ordering: .sequentiallyConsistent)
        if prompting { Console.status("\r\u{1B}[K") }
        write()
        if prompting { Console.status("\(name)> ") }
    }
}
