import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running `StoreCrashWorker` whose stdout goes to a file, so a kill loses no line it wrote.
final class WorkerProcess {
    /// Why a worker could not be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let outputPath: String
    private let errorPath: String

    /// The built `StoreCrashWorker` executable.
    static func binary() throws -> URL { try BuiltProduct.url(named: "StoreCrashWorker") }

    /// Launches the worker with `arguments`, writing its output to files named after `output`.
    init(arguments: [String], output: String) throws {
        outputPath = output + ".out"
        errorPath = output + ".err"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
            throw Failure(description: "cannot create \(outputPath)")
        }
        guard FileManager.default.createFile(atPath: errorPath, contents: nil) else {
            throw Failure(description: "cannot create \(errorPath)")
        }
        process.executableURL = try Self.binary()
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
    }

    deinit {
        if process.isRunning { kill() }
    }

    /// Waits (at most `timeout` seconds) until the worker has opened its replica.
    func waitUntilReady(timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines().contains(where: { $0.hasPrefix("ready ") }) { return }
            guard process.isRunning else { throw Failure(description: "worker exited: \(errors())") }
            usleep(1_000)
        }
        throw Failure(description: "worker not ready after \(timeout) s: \(errors())")
    }

    /// Waits (at most `timeout` seconds) for the worker to exit on its own; returns its exit status, or
    /// nil (after killing it) when it was still running.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(1_000) }
        guard !process.isRunning else {
            kill()
            return nil
        }
        return process.terminationStatus
    }

    /// Kills the worker with SIGKILL and waits for it to be gone.
    func kill() {
        _ = sendKillSignal(process.processIdentifier)
        process.waitUntilExit()
    }

    /// The complete lines the worker wrote to stdout (a line cut by the kill is left out).
    func lines() -> [String] {
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()
        return lines
    }

    /// What the worker wrote to stderr.
    func errors() -> String {
        (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    }
}

/// `kill(pid, SIGKILL)`, under a name that does not collide with ``WorkerProcess/kill()``.
private func sendKillSignal(_ pid: Int32) -> Int32 { kill(pid, SIGKILL) }
