import Foundation
import Testing

/// `syncdemo scenario FILE`: the sample scenarios pass, failures name their line, bad files exit 64.
@Suite struct ScenarioTests {
    /// Examples/Scenarios in this checkout.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Scenarios")

    /// The sample scenarios' file names.
    static let samples: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".scenario") }.sorted()

    /// Runs `syncdemo scenario` on a temporary file holding `text`; the outcome and the file's path.
    private func run(_ text: String, _ arguments: [String] = []) throws -> (SyncDemoProcess.Outcome, String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("test-\(UUID().uuidString).scenario")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return (try SyncDemoProcess.run(["scenario", file.path] + arguments), file.path)
    }

    @Test func thereAreSampleScenarios() {
        #expect(Self.samples.count >= 5, "\(Self.samples) in \(Self.directory.path)")
    }

    @Test(arguments: samples, ["memory", "tcp"])
    func sampleScenarioPasses(sample: String, transport: String) throws {
        let path = Self.directory.appendingPathComponent(sample).path
        let outcome = try SyncDemoProcess.run(["scenario", path, "--transport", transport])
        #expect(outcome.status == 0, "stdout: \(outcome.output)\nstderr: \(outcome.errors)")
        #expect(outcome.output.split(separator: "\n").last?.hasPrefix("passed: ") == true)
        #expect(outcome.errors.isEmpty)
    }

    @Test func aRowTextWithAControlCharacterIsAMalformedLine() throws {
        let (outcome, path) = try run("replicas phone\nphone: add Paris\nphone: add \"Oslo\u{1B}[D\"\n")
        #expect(outcome.status == 64)
        #expect(
            outcome.errors.contains(
                "\(path):3: the text 'Oslo\\u{1B}[D' holds the control character U+001B at character 5"),
            "\(outcome.errors)")
        #expect(outcome.output.isEmpty)
    }

    @Test(arguments: [
        ("phone: delete Paris", "2 rows read 'Paris' (rows 0 and 2)"),
        ("phone: move Paris top", "2 rows read 'Paris' (rows 0 and 2); name the one you mean by its index"),
    ])
    func anAmbiguousRowNameFailsTheStepNamingItsLine(step: String, message: String) throws {
        let (outcome, path) = try run("replicas phone\nphone: add Paris Rome Paris\n\(step)\n")
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("\(path):3: phone: \(message)"), "\(outcome.errors)")
    }

    @Test func falseAssertionExitsOneNamingItsLine() throws {
        let (outcome, path) = try run(
            """
            replicas phone laptop
            phone: add Paris Rome
            sync
            # Rome was never deleted:
            assert laptop rows Paris
            assert converged
            """)
        #expect(outcome.status == 1)
        #expect(
            outcome.errors.contains("\(path):5: assertion failed: expected rows on laptop: Paris, got Paris | Rome"),
            "stderr: \(outcome.errors)")
        #expect(!outcome.output.contains("assert converged"), "stops at the first failure")
    }

    @Test func memoryTransportDeliversOnlyAtSync() throws {
        let (outcome, path) = try run(
            """
            replicas a b
            a: add x
            assert b count 0
            sync
            assert b count 1
            assert b pending 2
            """)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("\(path):6: assertion failed: expected pending placeholders on b: 2, got 0"))
    }

    @Test func waitLandsOnlyLoadsThatEnded() throws {
        let (outcome, _) = try run(
            """
            replicas phone laptop
            phone: drop 0 Ada --delay 60s
            wait 10ms
            assert phone pending 1
            assert phone rows …Ada (loading…)
            assert laptop rows
            sync
            assert count 0
            """)
        #expect(outcome.status == 0, "stdout: \(outcome.output)\nstderr: \(outcome.errors)")
        #expect(outcome.output.hasSuffix("passed: 4 assertions held\n"))
    }

    @Test func failingStepExitsOneNamingItsLine() throws {
        let (outcome, path) = try run("replicas a b\na: add x\n\na: delete Lima\n")
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("\(path):4: a: no row reads 'Lima'"), "stderr: \(outcome.errors)")
    }

    @Test(arguments: [
        ("phone: add x", 1, "declare the replicas first"),
        ("replicas a b\nreplicas c", 2, "declared twice"),
        ("replicas a a", 1, "distinct"),
        ("replicas a b\n\n  a: frob x", 3, "'frob' is not a list command"),
        ("replicas a b\nc: add x", 2, "no replica is called 'c'; the replicas are a, b"),
        ("replicas a b\nparttion a | b", 2, "Did you mean 'partition'?"),
        ("replicas a b\npartition a | a", 2, "a is in two groups"),
        ("replicas a b\nsync now", 2, "'sync' takes no arguments"),
        ("replicas a b\nwait soon", 2, "usage: wait [DURATION]: 'soon' is not a duration"),
        ("replicas a b\nassert count x", 2, "usage: assert [NAME] count N"),
        ("replicas a b\nassert z rows x", 2, "no replica is called 'z'"),
        ("replicas a b\nassert", 2, "usage: assert converged"),
        ("replicas a b\na: move x", 2, "usage: move ROWS"),
        ("replicas a b\na: add \"x", 2, "unterminated \" quote"),
        ("# only a comment", 1, "no 'replicas NAME...' line"),
    ])
    func malformedFileExits64NamingTheLine(text: String, line: Int, message: String) throws {
        let (outcome, path) = try run(text)
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("\(path):\(line): "), "stderr: \(outcome.errors)")
        #expect(outcome.errors.contains(message), "stderr: \(outcome.errors)")
        #expect(outcome.output.isEmpty, "nothing runs before the whole file is checked")
    }

    @Test func missingFileOrArgumentExits64() throws {
        let missing = try SyncDemoProcess.run(["scenario", "/no/such/file.scenario"])
        #expect(missing.status == 64)
        #expect(missing.errors.contains("cannot read the scenario '/no/such/file.scenario': no such file"))
        let none = try SyncDemoProcess.run(["scenario"])
        #expect(none.status == 64 && none.errors.contains("missing the scenario file"))
        let transport = try SyncDemoProcess.run(["scenario", "x.scenario", "--transport", "carrier-pigeon"])
        #expect(transport.status == 64 && transport.errors.contains("expects memory or tcp"))
    }

    @Test func helpDocumentsTheFormat() throws {
        let help = try SyncDemoProcess.run(["scenario", "--help"])
        #expect(help.status == 0)
        for text in ["FORMAT:", "partition A B | C", "assert [NAME] rows", "wait [DURATION]", "drop INDEX NAME"] {
            #expect(help.output.contains(text), "\(text)")
        }
    }
}
