#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the prompt reads its lines: ``LineReader`` for piped input (or a terminal that echoes by
/// itself), ``TerminalLines`` for a terminal in raw mode.
protocol LineSource {
    /// The next line, or nil at the end of input.
    mutating func next() -> LineReader.Line?
}

extension LineReader: LineSource {}

/// Lines typed at a terminal in raw mode (``RawMode``), edited by a ``LineEditor`` and drawn on the
/// prompt's row by ``PeerOutput``, which redraws them around lines printed meanwhile.
struct TerminalLines: LineSource {
    /// The line being typed, its cursor and the history.
    private var editor = LineEditor()
    /// Where the prompt's row is drawn.
    private let output: PeerOutput
    /// Bytes read from the terminal and not yet fed to the editor: `buffer[start..<end]`.
    private var buffer = [UInt8](repeating: 0, count: 4096)
    private var start = 0
    private var end = 0

    /// Lines read from standard input, drawn through `output`.
    init(output: PeerOutput) { self.output = output }

    /// Shows the prompt, then edits a line until Enter (the line) or Ctrl-D on an empty line or the end
    /// of input (nil). Every byte read is fed to the editor; the row is redrawn once per read, not per byte.
    mutating func next() -> LineReader.Line? {
        output.draw(editor.characters, cursor: editor.cursor)
        while true {
            if start == end {
                let count = buffer.withUnsafeMutableBytes { FileReading.read(STDIN_FILENO, into: $0) }
                guard count > 0 else {
                    output.endPrompt(showing: editor.characters)
                    return nil
                }
                (start, end) = (0, count)
            }
            var changed = false
            while start < end {
                let event = editor.feed(buffer[start])
                start += 1
                switch event {
                case .changed: changed = true
                case .submitted(let line):
                    output.endPrompt(showing: Array(line))
                    return .text(line)
                case .endOfInput:
                    output.endPrompt(showing: editor.characters)
                    return nil
                case .clearScreen: output.clearScreen()
                case .rejected:
                    output.bell()
                    changed = true
                case nil: break
                }
            }
            if changed { output.draw(editor.characters, cursor: editor.cursor) }
        }
    }
}
