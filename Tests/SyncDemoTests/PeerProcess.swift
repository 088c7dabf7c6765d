import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A long-running `syncdemo peer` driven like a user's script: lines written to its standard input,
/// standard output and error collected in files and polled for expected lines.
final class PeerProcess {
    /// Why the process did not do what a test waited for.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The running process.
    private let process = Process()
    /// Its standard input.
    private let input = Pipe()
    /// The files its standard output and error go to.
    private let outputURL: URL
    private let errorURL: URL
    /// The `--name` it was given, which prefixes its `list` line.
    let name: String

    /// Starts `syncdemo peer` with `arguments` (which must include `--name name`), logging into `directory`.
    init(name: String, _ arguments: [String], in directory: URL) throws {
        self.name = name
        let tag = "\(name)-\(UUID().uuidString.prefix(8))"
        outputURL = directory.appendingPathComponent("\(tag).out")
        errorURL = directory.appendingPathComponent("\(tag).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = try SyncDemoProcess.binary()
        process.arguments = ["peer", "--name", name] + arguments
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        SyncDemoProcess.ignoreBrokenPipes()  // a write to a peer that died throws instead of killing the tests
        try process.run()
    }

    deinit {
        if process.isRunning { kill() }
    }

    /// The process ID.
    var pid: Int32 { process.processIdentifier }

    /// Everything written to standard output so far.
    var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Everything written to standard error so far.
    var errors: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// Writes `line` and a newline to standard input.
    /// - Throws: when the process has closed its standard input (it exited).
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Polls `found` every 20 ms until it returns a value, for at most `timeout` seconds.
    /// - Throws: ``Failure`` naming `what` did not happen, with the process's output and errors.
    func wait<Value>(_ what: String, timeout: Double = 30, until found: () -> Value?) throws -> Value {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = found() { return value }
            guard Date() < deadline else {
                throw Failure(
                    description: "\(name) did not \(what) within \(timeout) s\nstdout:\n\(output)\nstderr:\n\(errors)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Waits for a line of standard output that starts with `prefix`, after the first `offset` characters.
    func waitForOutputLine(startingWith prefix: String, after offset: Int = 0, timeout: Double = 30) throws -> String {
        try wait("print a line starting with '\(prefix)'", timeout: timeout) {
            output.dropFirst(offset).split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
        }
    }

    /// Waits until standard error contains `text`.
    func waitForError(containing text: String, timeout: Double = 30) throws {
        _ = try wait("log '\(text)'", timeout: timeout) { errors.contains(text) ? () : nil }
    }

    /// Sends `command` and returns the first line after it that starts with `prefix`.
    func ask(_ command: String, replyStartingWith prefix: String) throws -> String {
        let offset = output.count
        try send(command)
        return try waitForOutputLine(startingWith: prefix, after: offset)
    }

    /// The rows `list` prints now (`name: a | b` parsed), or `DOCUMENT: list` of a peer of several
    /// documents (`name[DOCUMENT]: a | b`).
    func rows(in document: String? = nil) throws -> [String] {
        let label = document.map { "\(name)[\($0)]" } ?? name
        let line = try ask(document.map { "\($0): list" } ?? "list", replyStartingWith: "\(label):")
        let body = line.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces)
        return body.isEmpty ? [] : body.components(separatedBy: " | ")
    }

    /// The port in the start line `peer NAME listening on HOST:PORT`.
    func listeningPort() throws -> UInt16 {
        let line = try waitForOutputLine(startingWith: "peer \(name) listening on ")
        guard let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw Failure(description: "no port in '\(line)'")
        }
        return port
    }

    /// Kills the process with SIGKILL, as a crash or power loss would end it, and waits for it.
    func kill() {
        #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
            _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        process.waitUntilExit()
    }

    /// Closes standard input (end of commands) and waits up to `timeout` seconds for the exit status.
    func finish(timeout: Double = 30) throws -> Int32 {
        try input.fileHandleForWriting.close()
        _ = try wait("exit", timeout: timeout) { process.isRunning ? nil : () }
        return process.terminationStatus
    }
}
