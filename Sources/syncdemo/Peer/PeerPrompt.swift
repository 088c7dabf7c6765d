/// The command loop of `syncdemo peer`: reads lines from standard input until `quit` or its end.
///
/// On a terminal it shows a `NAME> ` prompt and reports errors as `error: ...`. Piped, it prints no
/// prompt, reports each failed command on standard error with its line number, and keeps going; the
/// exit code is then 1 when any command failed, so a script notices a bad line.
struct PeerPrompt {
    /// The peer the commands go to.
    let session: PeerSession
    /// Where the prompt and errors go.
    let output: PeerOutput

    /// Runs commands until `quit` or the end of input, then finishes the session.
    /// - Returns: 1 when piped and a command failed (or the store could not be closed), else 0.
    func run() -> ExitCode {
        var failures = 0
        var lineNumber = 0
        output.prompt()
        reading: while let line = readLine() {
            output.endPrompt()
            lineNumber += 1
            do {
                let words = try Words.split(line)
                if !words.isEmpty {
                    switch try session.execute(words) {
                    case .lines(let lines): lines.forEach(output.result)
                    case .quit: break reading
                    }
                }
            } catch {
                failures += 1
                Console.error(
                    output.isInteractive
                        ? "error: \(error)" : "syncdemo peer: line \(lineNumber) '\(line)': \(error)")
            }
            output.prompt()
        }
        output.endPrompt()
        if output.isInteractive { Console.error("") }
        do {
            try session.finish()
        } catch {
            Console.error("syncdemo peer: the data directory could not be closed cleanly: \(error)")
            return .failure
        }
        guard output.isInteractive || failures == 0 else {
            Console.error("syncdemo peer: \(counted(failures, "command")) failed")
            return .failure
        }
        return .success
    }
}
