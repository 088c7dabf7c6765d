import Foundation
import TestSupport
import Testing

/// The built `syncdemo` binary, run as a subprocess the way a user runs it.
enum SyncDemoProcess {
    /// Why the binary could not be run.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one run printed and how it ended.
    struct Outcome {
        /// The exit status.
        var status: Int32
        /// Standard output.
        var output: String
        /// Standard error.
        var errors: String
    }

    /// The built `syncdemo` executable.
    static func binary() throws -> URL { try BuiltProduct.url(named: "syncdemo") }

    /// Runs `syncdemo arguments` (or `executable` with `arguments`) with `input` on standard input
    /// (closed after it) and waits for it to exit, killing it after `timeout` seconds.
    static func run(
        _ arguments: [String], input: String = "", timeout: Double = 120, executable: String? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = try executable.map { URL(fileURLWithPath: $0) } ?? binary()
        process.arguments = arguments
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syncdemo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: a chatty child can never block on a full pipe while we wait for it.
        let outputURL = directory.appendingPathComponent("out")
        let errorURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        let stdin = Pipe()
        process.standardInput = stdin
        ignoreBrokenPipes()
        try process.run()
        // A child that exits without reading all of it (a usage error, a refused line) is answered by its
        // outcome, not by this write, which then fails with EPIPE.
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure(description: "syncdemo \(arguments.joined(separator: " ")) still ran after \(timeout) s")
        }
        return Outcome(
            status: process.terminationStatus,
            output: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    /// Makes a write to a child that has exited fail with EPIPE instead of raising SIGPIPE, which would
    /// kill the whole test process.
    static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }

    /// Runs `arguments` and expects a usage error: exit 64, `message` and a pointer to `help` on
    /// standard error, nothing on standard output.
    static func expectUsageError(
        _ arguments: [String], saying message: String, help: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let outcome = try run(arguments)
        #expect(outcome.status == 64, sourceLocation: sourceLocation)
        #expect(outcome.errors.contains(message), "stderr: \(outcome.errors)", sourceLocation: sourceLocation)
        #expect(outcome.errors.contains(help), sourceLocation: sourceLocation)
        #expect(outcome.output.isEmpty, sourceLocation: sourceLocation)
    }
}
