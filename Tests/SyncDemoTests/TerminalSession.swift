import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `syncdemo peer` run in a real terminal: a detached tmux session of its own (its own server
/// socket file, removed at the end), driven with `send-keys` and read with `capture-pane`, the way a person types at it.
///
/// The peer runs under a shell script that records the terminal's settings (`stty -g`) before and
/// after it and its exit status, so a test can check raw mode was undone however the peer ended.
final class TerminalSession {
    /// Why the session did not do what a test waited for.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether tmux can be run here (the terminal tests are skipped otherwise).
    static let isAvailable = (try? tmux(["-V"], socket: "/dev/null").status) == 0

    /// The tmux server's socket, unique to this session: a short path, as socket paths are limited to
    /// about 100 bytes.
    private let socket = "/tmp/syncdemo-tmux-\(UUID().uuidString.prefix(8))"
    /// Where the script, the settings and the status are written.
    private let directory: URL
    /// The tmux server's process ID: run in the foreground (`-D`) as a child of the tests (a server
    /// that daemonizes leaves its client unreaped, and `Process` then never sees the client end).
    private let server: pid_t

    /// Starts `syncdemo peer --name NAME arguments` in a terminal `width` columns wide.
    init(_ arguments: [String], width: Int = 80, in directory: URL) throws {
        self.directory = directory
        let script = directory.appendingPathComponent("peer.sh")
        let quoted = ([try SyncDemoProcess.binary().path, "peer"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        try """
        #!/bin/sh
        trap 'echo TRAPPED' INT
        cd '\(directory.path)'
        stty -g > before
        NO_COLOR=1 \(quoted)
        echo "EXIT=$?" > status
        stty -g > after
        exec sleep 600
        """.write(to: script, atomically: true, encoding: .utf8)
        server = try Self.spawnServer(socket)
        try Self.waitForServer(socket)
        let started = try Self.tmux(
            ["new-session", "-d", "-x", "\(width)", "-y", "40", "-s", "peer", "sh '\(script.path)'"], socket: socket)
        guard started.status == 0 else { throw Failure(description: "tmux new-session failed: \(started.output)") }
    }

    deinit {
        _ = try? Self.tmux(["kill-server"], socket: socket)
        kill(server, SIGKILL)
        var status: Int32 = 0
        waitpid(server, &status, 0)
        unlink(socket)
    }

    /// Starts `tmux -D` with every signal unblocked and at its default action. `Process` would pass on
    /// the test runner's mask, which blocks SIGCHLD, and a server that never sees its panes end never
    /// exits either.
    private static func spawnServer(_ socket: String) throws -> pid_t {
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t? = nil
            var actions: posix_spawn_file_actions_t? = nil
        #else
            var attributes = posix_spawnattr_t()
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments = ["tmux", "-S", socket, "-f", "/dev/null", "-D"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var environment: [UnsafeMutablePointer<CChar>?] =
            ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for string in argv + environment { free(string) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, "tmux", &actions, &attributes, &argv, &environment)
        guard result == 0 else { throw Failure(description: "tmux could not be started: errno \(result)") }
        return pid
    }

    /// Waits until the server on `socket` answers, for at most 10 s.
    private static func waitForServer(_ socket: String) throws {
        let deadline = Date().addingTimeInterval(10)
        // `list-sessions` never starts a server of its own (as `start-server` would, racing this one).
        while try tmux(["list-sessions"], socket: socket).output.contains("error connecting to") {
            guard Date() < deadline else { throw Failure(description: "the tmux server did not start within 10 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Types `keys` (tmux key names such as `Left`, `C-a`, `Enter`, or literal text).
    func send(_ keys: String...) throws {
        _ = try Self.tmux(["send-keys", "-t", "peer"] + keys, socket: socket)
    }

    /// Types the bytes `hex` gives (`03` is Ctrl-C).
    func sendBytes(_ hex: String) throws {
        _ = try Self.tmux(["send-keys", "-t", "peer", "-H", hex], socket: socket)
    }

    /// The screen's text now, without trailing blank lines.
    func screen() throws -> String {
        let text = try Self.tmux(["capture-pane", "-p", "-t", "peer"], socket: socket).output
        return String(text.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
    }

    /// The cursor's column, 0-based.
    func cursorColumn() throws -> Int {
        Int(
            try Self.tmux(["display-message", "-p", "-t", "peer", "#{cursor_x}"], socket: socket).output
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Polls the screen every 50 ms until `found` holds, for at most `timeout` seconds.
    /// - Throws: ``Failure`` naming `what` did not appear, with the screen.
    func wait(for what: String, timeout: Double = 20, until found: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if found(last) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "the terminal did not show \(what) within \(timeout) s; screen:\n\(last)")
    }

    /// Waits until the screen contains `text`.
    func wait(for text: String) throws { try wait(for: "'\(text)'") { $0.contains(text) } }

    /// The peer's exit status line (`EXIT=0`), once the peer has ended.
    func exitStatus(timeout: Double = 20) throws -> String {
        let file = directory.appendingPathComponent("status")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8), !text.isEmpty {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "the peer did not end within \(timeout) s; screen:\n\(try screen())")
    }

    /// The terminal's settings before the peer started and after it ended (`stty -g`), once both are written.
    func settings() throws -> (before: String, after: String) {
        _ = try exitStatus()
        let read = { (name: String) in
            (try? String(contentsOf: self.directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        _ = try wait(for: "the settings after the peer") { _ in !read("after").isEmpty }
        return (read("before"), read("after"))
    }

    /// Runs `tmux -S socket -f /dev/null arguments` and returns its status and output.
    private static func tmux(_ arguments: [String], socket: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-S", socket, "-f", "/dev/null"] + arguments
        // A file, not a pipe: the server that `new-session` starts keeps the descriptors it inherits
        // open, so a pipe would never reach its end.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard !process.isRunning else {
            process.terminate()
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) did not end within 10 s")
        }
        return (process.terminationStatus, (try? String(contentsOf: file, encoding: .utf8)) ?? "")
    }
}
