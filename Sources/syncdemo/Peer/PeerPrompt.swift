import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command loop of `syncdemo peer`: reads lines from standard input until `quit` or its end.
///
/// Lines end with LF, CRLF or a lone CR; a line longer than 1 MiB is reported and skipped, never held.
///
/// On a terminal it shows a `NAME> ` prompt and reports errors as `error: ...`; when standard error is
/// the terminal too, the line is edited in raw mode (``RawMode``, ``LineEditor``: arrows, history,
/// Ctrl-A/E/W/U, Ctrl-D) and the terminal's settings are put back however the peer ends. Piped, it prints no
/// prompt, reports each failed command on standard error with its line number, and keeps going; the
/// exit code is then 1 when any command failed, so a script notices a bad line.
struct PeerPrompt<Replica: SyncReplica> where Replica.Value == Entry {
    /// The peer the commands go to.
    let session: PeerSession<Replica>
    /// Where the prompt and errors go.
    let output: PeerOutput

    /// Runs commands until `quit` or the end of input, then finishes the session.
    /// - Returns: 1 when piped and a command failed (or the store could not be closed), else 0.
    func run() -> ExitCode {
        var failures = 0
        var lineNumber = 0
        let rawMode = output.isInteractive && Console.errorIsTerminal ? RawMode() : nil
        defer { rawMode?.restore() }
        var input: any LineSource =
            rawMode == nil ? LineReader(descriptor: STDIN_FILENO) : TerminalLines(output: output)
        if rawMode == nil { output.showPrompt() }
        reading: while let line = input.next() {
            output.endPrompt()
            lineNumber += 1
            do {
                switch line {
                case .text(let text):
                    let words = try Words.split(text)
                    if !words.isEmpty {
                        switch try session.execute(words) {
                        case .lines(let lines): lines.forEach(output.result)
                        case .quit: break reading
                        }
                    }
                case .tooLong:
                    throw LineError(line: lineNumber, problem: "is \(LineReader.tooLongText); it is ignored")
                case .notUTF8:
                    throw LineError(line: lineNumber, problem: "is not UTF-8 text; it is ignored")
                }
            } catch {
                failures += 1
                Console.error(report(error, line: line, number: lineNumber))
            }
            if rawMode == nil { output.showPrompt() }
        }
        output.endPrompt()
        rawMode?.restore()
        if output.isInteractive && rawMode == nil { Console.error("") }
        Console.error(session.finishingNote)
        do {
            try session.finish()
        } catch {
            Console.error("syncdemo peer: the data directory could not be closed cleanly: \(session.describe(error))")
            return .failure
        }
        guard output.isInteractive || failures == 0 else {
            Console.error("syncdemo peer: \(counted(failures, "command")) failed")
            return .failure
        }
        return .success
    }

    /// The error line for `error` on input line `number`: `error: ...` at a terminal, else with the line
    /// number and (the start of) the line.
    private func report(_ error: any Error, line: LineReader.Line, number: Int) -> String {
        if let error = error as? LineError {
            return output.isInteractive ? "error: the line \(error.problem)" : "syncdemo peer: \(error)"
        }
        let message = session.describe(error)
        guard !output.isInteractive, case .text(let text) = line else { return "error: \(message)" }
        return "syncdemo peer: line \(number) \(text.quoted): \(message)"
    }
}

/// An input line that could not be read as a command: too long, or not text.
private struct LineError: Error, CustomStringConvertible {
    /// The 1-based line number.
    var line: Int
    /// What is wrong with it, after "line N": `is not UTF-8 text; it is ignored`.
    var problem: String
    /// `line 3 is not UTF-8 text; it is ignored`.
    var description: String { "line \(line) \(problem)" }
}
