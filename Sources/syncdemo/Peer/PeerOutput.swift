import Synchronization

/// Where a peer's lines go: results on standard output, errors and network events on standard error,
/// and the `NAME> ` prompt (on standard error) only when standard input is a terminal.
///
/// Lines that arrive while the prompt waits for a command (changes merged from peers, loads that
/// ended, network events) clear the prompt's row and draw it again after them, with the line being
/// typed and the cursor where they were, so an interactive user keeps typing where they left off;
/// while a command runs, or after the last one, they are printed as they are.
final class PeerOutput: Sendable {
    /// The prompt's row: whether it is on screen, and the line typed at it (drawn by a ``LineEditor``;
    /// empty when the terminal's own line editing echoes the typing).
    private struct Row {
        var isShown = false
        var characters: [Character] = []
        var cursor = 0
    }

    /// The peer's name, shown in the prompt.
    let name: String
    /// The prompt's row; every write to the terminal while it may be shown happens under this lock.
    private let row = Mutex(Row())
    /// The document the commands go to, shown in the prompt when the peer syncs several.
    private let document = Mutex<String?>(nil)

    /// Output for the peer called `name`.
    init(name: String) { self.name = name }

    /// Whether a person types the commands (standard input is a terminal).
    var isInteractive: Bool { Console.inputIsTerminal }

    /// `NAME> `, or `NAME[DOCUMENT]> ` once ``setDocument(_:)`` named one.
    var prompt: String {
        let document = self.document.withLock { $0 }.map { "[\($0.escapingControlCharacters)]" } ?? ""
        return "\(name.escapingControlCharacters)\(document)> "
    }

    /// Shows `document` in the prompt from now on (nil: none).
    func setDocument(_ document: String?) { self.document.withLock { $0 = document } }

    /// Shows `NAME> ` and waits for a command, when interactive.
    func showPrompt() {
        guard isInteractive else { return }
        draw([], cursor: 0)
    }

    /// Draws the prompt and `characters` on the prompt's row, the cursor after the first `cursor` of them.
    func draw(_ characters: [Character], cursor: Int) {
        row.withLock { row in
            row = Row(isShown: true, characters: characters, cursor: cursor)
            Console.status(Self.render(row, prompt: prompt))
        }
    }

    /// Notes that a command was entered (or input ended): the prompt's row, drawn one last time with
    /// `characters` in full when given, is ended and no longer redrawn.
    func endPrompt(showing characters: [Character]? = nil) {
        row.withLock { row in
            if let characters, row.isShown {
                Console.status(
                    PromptLine.render(
                        prompt: prompt, characters: characters, cursor: characters.count,
                        width: Console.errorWidth) + "\n")
            }
            row.isShown = false
        }
    }

    /// Clears the screen and draws the prompt's row at its top (Ctrl-L).
    func clearScreen() {
        row.withLock { row in Console.status("\u{1B}[H\u{1B}[2J" + Self.render(row, prompt: prompt)) }
    }

    /// Rings the terminal's bell (a key that did nothing).
    func bell() { Console.status("\u{07}") }

    /// Prints a result line on standard output.
    func result(_ line: String) { Console.print(line) }

    /// Prints `line` on standard output between commands.
    func announce(_ line: String) { interject { Console.print(line) } }

    /// Prints `line` on standard error between commands.
    func log(_ line: String) { interject { Console.error(line) } }

    /// Runs `write` with the prompt's row cleared first and drawn again after, when it is shown.
    private func interject(_ write: () -> Void) {
        row.withLock { row in
            if row.isShown { Console.status(PromptLine.clear) }
            write()
            if row.isShown { Console.status(Self.render(row, prompt: prompt)) }
        }
    }

    /// The text that draws `row` after `prompt`, as wide as standard error's terminal.
    private static func render(_ row: Row, prompt: String) -> String {
        PromptLine.render(prompt: prompt, characters: row.characters, cursor: row.cursor, width: Console.errorWidth)
    }
}
