import Foundation
import Testing

/// Lines and words typed at the prompt, written in a scenario or given on the command line: line ends,
/// escapes, and input so long it must cost bounded time and memory and be echoed only in part.
@Suite struct CommandLineInputTests {
    /// The longest line the prompt and scenario files accept, in bytes.
    static let lineLimit = 1 << 20

    /// Writes `text` to a temporary scenario file, runs it, removes it; the outcome and the file's path.
    private func scenario(_ bytes: [UInt8]) throws -> (SyncDemoProcess.Outcome, String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString).scenario")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return (try SyncDemoProcess.run(["scenario", file.path]), file.path)
    }

    /// Runs `syncdemo arguments` with `input` and returns the outcome and how long it took in seconds.
    private func timed(_ arguments: [String], input: String = "") throws -> (SyncDemoProcess.Outcome, Double) {
        let start = Date()
        let outcome = try SyncDemoProcess.run(arguments, input: input, timeout: 60)
        return (outcome, Date().timeIntervalSince(start))
    }

    /// A child that exits without reading its input (here `--version`, with more input than a pipe
    /// holds) ends the run with its outcome; the write to it fails instead of killing the test process
    /// with SIGPIPE (which once took `swift test` down in CI).
    @Test func aChildThatExitsBeforeReadingItsInputIsAnOutcome() throws {
        let outcome = try SyncDemoProcess.run(["--version"], input: String(repeating: "x", count: 1 << 20))
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("syncdemo "), "stdout: \(outcome.output)")
    }

    @Test func aLongUnknownCommandIsAnsweredQuicklyAndEchoedOnlyInPart() throws {
        let word = String(repeating: "x", count: 500_000)
        let (outcome, seconds) = try timed(["peer", "--name", "solo"], input: "\(word)\nadd Paris\nlist\n")
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("unknown command 'xxxxxxxxxx"), "stderr: \(outcome.errors.prefix(400))")
        #expect(outcome.errors.contains("…' (500,000 characters)"), "stderr: \(outcome.errors.prefix(400))")
        #expect(outcome.errors.utf8.count < 2_000, "echoes \(outcome.errors.utf8.count) bytes")
        #expect(seconds < 10, "took \(seconds) s")
        #expect(outcome.output.contains("solo: Paris\n"))
    }

    @Test func aPromptLineOverTheLimitIsRejectedAndThePeerGoesOn() throws {
        for length in [Self.lineLimit + 1, 10_000_000] {
            let line = "add " + String(repeating: "y", count: length - 4)
            let (outcome, seconds) = try timed(["peer", "--name", "solo"], input: "\(line)\nadd Paris\nlist\n")
            #expect(outcome.status == 1)
            #expect(
                outcome.errors.contains("line 1 is longer than 1,048,576 bytes; it is ignored"),
                "stderr: \(outcome.errors.prefix(400))")
            #expect(outcome.errors.utf8.count < 2_000, "echoes \(outcome.errors.utf8.count) bytes")
            #expect(outcome.output.contains("solo: Paris\n"), "only the long line is ignored: \(outcome.output)")
            #expect(seconds < 15, "took \(seconds) s")
        }
    }

    @Test func aPromptLineAtTheLimitIsAccepted() throws {
        let text = String(repeating: "z", count: Self.lineLimit - 4)
        let outcome = try SyncDemoProcess.run(["peer", "--name", "solo"], input: "add \(text)\nstatus\n")
        #expect(outcome.status == 0, "stderr: \(outcome.errors.prefix(400))")
        #expect(outcome.output.contains("rows: 1, pending placeholders: 0"))
    }

    @Test(arguments: ["\r\n", "\r", "\n"])
    func promptLinesEndWithLFCRLFOrCR(end: String) throws {
        let outcome = try SyncDemoProcess.run(
            ["peer", "--name", "solo"], input: ["add Paris", "add Rome", "list"].map { $0 + end }.joined())
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("solo: Paris | Rome\n"), "\(outcome.output)")
    }

    @Test(arguments: ["\r\n", "\r"])
    func scenarioLinesEndWithCRLFOrCR(end: String) throws {
        let lines = ["replicas a b", "a: add Paris Rome", "sync", "assert b rows Paris | Rome", "assert converged"]
        let (outcome, path) = try scenario(Array((lines.joined(separator: end) + end).utf8))
        #expect(outcome.status == 0, "\(path): \(outcome.errors)")
        #expect(outcome.output.hasSuffix("passed: 2 assertions held\n"), "\(outcome.output)")
    }

    @Test func aTrailingBackslashIsKeptLiterally() throws {
        let outcome = try SyncDemoProcess.run(
            ["peer", "--name", "solo"], input: "add abc\\\nadd \"x y\"\\\nadd \\\\\nlist\n")
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("solo: abc\\ | x y\\ | \\\n"), "\(outcome.output)")
    }

    @Test func aScenarioLineOverTheLimitIsAUsageErrorAtItsLine() throws {
        let long = "a: add " + String(repeating: "w", count: Self.lineLimit)
        let (outcome, path) = try scenario(Array("replicas a\n\(long)\nassert a count 0\n".utf8))
        #expect(outcome.status == 64)
        #expect(
            outcome.errors.contains("\(path):2: the line is longer than 1,048,576 bytes"),
            "stderr: \(outcome.errors.prefix(400))")
        #expect(outcome.errors.utf8.count < 2_000)
    }

    @Test func aScenarioThatIsNotUTF8NamesItsLine() throws {
        let (outcome, path) = try scenario(Array("replicas a\na: add ".utf8) + [0xFF, 0xFE] + Array("\n".utf8))
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("\(path):2: the line is not UTF-8 text"), "stderr: \(outcome.errors)")
    }

    @Test func aScenarioFromAnEndlessFileStopsAtTheLimit() throws {
        let (outcome, seconds) = try timed(["scenario", "/dev/zero"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("/dev/zero:1: the line is longer than 1,048,576 bytes"), "\(outcome.errors)")
        #expect(seconds < 15, "took \(seconds) s")
    }

    @Test func aLongUnknownDirectiveInAScenarioIsEchoedOnlyInPart() throws {
        let word = String(repeating: "q", count: 200_000)
        let (outcome, path) = try scenario(Array("replicas a\n\(word)\n".utf8))
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("\(path):2: unknown directive 'qqqq"), "\(outcome.errors.prefix(400))")
        #expect(outcome.errors.contains("…' (200,000 characters)"), "\(outcome.errors.prefix(400))")
        #expect(outcome.errors.utf8.count < 2_000, "echoes \(outcome.errors.utf8.count) bytes")
    }

    @Test func aLongUnknownSubcommandOrOptionIsEchoedOnlyInPart() throws {
        let word = String(repeating: "v", count: 100_000)
        for arguments in [[word], ["simulate", "--\(word)"], ["simulate", "--replicas", word], ["peer", word]] {
            let (outcome, seconds) = try timed(arguments)
            #expect(outcome.status == 64)
            #expect(outcome.errors.contains("…' (100,00"), "\(outcome.errors.prefix(400))")
            #expect(outcome.errors.utf8.count < 2_000, "echoes \(outcome.errors.utf8.count) bytes")
            #expect(seconds < 10, "took \(seconds) s")
        }
    }

    @Test func aSecretFileThatNeverEndsIsRefused() throws {
        let (outcome, seconds) = try timed(["peer", "--name", "a", "--secret-file", "/dev/zero"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("the secret file '/dev/zero' is larger than 4,096 bytes"), "\(outcome.errors)")
        #expect(seconds < 15, "took \(seconds) s")
    }
}
