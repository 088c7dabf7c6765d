import Foundation
import Testing

/// `syncdemo peer` at a real terminal (tmux): line editing, history, redrawing around log lines, and
/// the terminal's settings put back however the peer ends. Skipped where tmux is not installed.
@Suite(.enabled(if: TerminalSession.isAvailable, "needs tmux"), .serialized) struct TerminalPromptTests {
    /// A directory removed when the test ends.
    final class Scratch {
        /// The directory.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("syncdemo-tty-\(UUID().uuidString)")

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Owns the test's directory.
    let scratch = Scratch()

    init() throws { try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true) }

    /// A peer called phone in a terminal.
    func phone(_ arguments: [String] = []) throws -> TerminalSession {
        let session = try TerminalSession(["--name", "phone"] + arguments, in: scratch.url)
        try session.wait(for: "phone>")
        return session
    }

    /// Expects the peer in `session` to end with `status` and to leave the terminal's settings as it found them.
    func expectEnded(
        _ session: TerminalSession, with status: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try session.exitStatus() == status, sourceLocation: sourceLocation)
        let settings = try session.settings()
        #expect(settings.before == settings.after, "stty -g before and after", sourceLocation: sourceLocation)
    }

    @Test func arrowsHomeEndAndControlKeysEditTheLineAndNoEscapeReachesARow() throws {
        let session = try phone()
        try session.send(
            "add Oslo", "Left", "Left", "Left", "Left", "X", "Home", "Right", "Right", "Right", "Right", "Y")
        try session.send("End", "Z", "Enter")
        try session.wait(for: "ok: 1 inserted")
        try session.send("add Lima Rome", "C-w", "C-w", "Paris", "C-a", "C-k", "add Quito", "BSpace", "BSpace", "Enter")
        try session.send("list", "Enter")
        try session.wait(for: "1. Qui")
        let screen = try session.screen()
        #expect(screen.contains("0. YXOsloZ"), "\(screen)")
        #expect(!screen.contains("^[") && !screen.contains("[D"), "\(screen)")
        try session.send("C-d")
        try expectEnded(session, with: "EXIT=0")
    }

    @Test func upAndDownRecallTheHistory() throws {
        let session = try phone()
        try session.send("add Paris", "Enter", "add Rome", "Enter")
        try session.wait(for: "ok: 1 inserted")
        try session.send(
            "Up", "Up", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "Tokyo", "Enter", "Up", "Down", "list",
            "Enter")
        try session.wait(for: "2. Tokyo")
        #expect(try session.screen().contains("1. Rome"))
    }

    @Test func aLogLineWhileTypingRedrawsThePromptWithTheLineAndTheCursor() throws {
        let session = try phone(["--listen", "127.0.0.1:0"])
        try session.wait(for: "listening on 127.0.0.1:")
        let screen = try session.screen()
        let port = try #require(
            screen.split(separator: "\n").first { $0.contains("listening on 127.0.0.1:") }?
                .split(separator: ":").last.map(String.init))
        try session.send("edit Paris Lutetia", "Left", "Left", "Left")
        let column = try session.cursorColumn()
        let laptop = try SyncDemoProcess.run(
            ["peer", "--name", "laptop", "--connect", "127.0.0.1:\(port)"], input: "wait 1s\nadd Paris Rome\nwait 1s\n")
        #expect(laptop.status == 0, "\(laptop.errors)")
        try session.wait(for: "<- 2 inserted (\"Paris\" and \"Rome\")")
        let lines = try session.screen().split(separator: "\n")
        #expect(lines.last == "phone> edit Paris Lutetia", "\(lines)")
        #expect(try session.cursorColumn() == column)
        try session.send("X", "Enter", "list", "Enter")
        try session.wait(for: "0. LuteXtia")
    }

    /// Ctrl-C (SIGINT) still ends the peer, as before line editing, and the terminal is put back.
    @Test func ctrlCEndsThePeerAndPutsTheTerminalBack() throws {
        let session = try phone()
        try session.send("add Lima", "Left")
        try session.sendBytes("03")
        try expectEnded(session, with: "EXIT=130")
    }

    @Test func quitSaysWhatItWaitsForAndPutsTheTerminalBack() throws {
        let session = try phone()
        try session.send("drop 0 Ada --delay 1s", "Enter")
        try session.wait(for: "loading…")
        try session.send("quit", "Enter")
        try session.wait(for: "quitting: waiting for 1 drop load to end")
        try session.wait(for: "drop: loaded \"Ada\"")
        try expectEnded(session, with: "EXIT=0")
    }
}
