import Foundation
import Testing

/// `syncdemo simulate`: random edits over a faulty network must converge with no row duplicated or lost.
@Suite struct SimulateTests {
    /// The JSON report of `syncdemo simulate arguments --json`, after checking it exited as it reported.
    private func report(_ arguments: [String]) throws -> [String: Any] {
        let outcome = try SyncDemoProcess.run(["simulate"] + arguments + ["--json"])
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.count == 1, "exactly one JSON object on stdout: \(outcome.output)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8))
        let report = try #require(object as? [String: Any], "not a JSON object: \(outcome.output)")
        #expect(outcome.status == ((report["passed"] as? Bool) == true ? 0 : 1))
        return report
    }

    @Test(arguments: 1...20)
    func faultsConvergeWithNoRowDuplicatedOrLost(seed: Int) throws {
        let replicas = 2 + seed % 4
        let arguments = [
            "--replicas", "\(replicas)", "--ops", "300", "--seed", "\(seed)", "--drop-rate", "20%",
            "--duplicate-rate", "0.1", "--partition", "40-120:0/1", "--partition", "150-260:1,0",
        ]
        let report = try report(arguments)
        let context = "seed \(seed): \(report)"
        #expect(report["converged"] as? Bool == true, "\(context)")
        #expect(report["duplicatedRows"] as? Int == 0, "\(context)")
        #expect(report["lostRows"] as? Int == 0, "\(context)")
        #expect(report["revivedRows"] as? Int == 0, "\(context)")
        #expect(report["errors"] as? [Any] != nil && (report["errors"] as? [Any])?.isEmpty == true, "\(context)")
        #expect(report["passed"] as? Bool == true, "\(context)")
        let faults = try #require(report["faults"] as? [String: Int], "\(context)")
        #expect(faults["dropped", default: 0] > 0 && faults["duplicated", default: 0] > 0, "\(context)")
        #expect(faults["repairs", default: 0] > 0, "lost messages must be repaired: \(context)")
    }

    @Test func jsonReportHasEveryFieldAndIsReproducibleFromItsSeed() throws {
        let arguments = ["--replicas", "3", "--ops", "400", "--seed", "42", "--drop-rate", "0.05"]
        let first = try report(arguments)
        for key in [
            "transport", "replicas", "seed", "operations", "converged", "rows", "messages", "bytes", "faults",
            "convergeMilliseconds", "positionKeys", "duplicatedRows", "lostRows", "revivedRows", "errors", "passed",
        ] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["transport"] as? String == "memory")
        #expect(first["operations"] as? Int == 400 && first["replicas"] as? Int == 3 && first["seed"] as? Int == 42)
        let keys = try #require(first["positionKeys"] as? [String: Any])
        #expect((keys["maximumBytes"] as? Int ?? 0) >= 1 && keys["averageBytes"] is Double)
        #expect((first["messages"] as? Int ?? 0) > 0 && (first["bytes"] as? Int ?? 0) > 0)
        #expect(try timeless(arguments) == timeless(arguments), "the same seed must give the same report")
    }

    /// The JSON report of `arguments` without its one timing, `convergeMilliseconds`.
    private func timeless(_ arguments: [String]) throws -> String {
        let output = try SyncDemoProcess.run(["simulate"] + arguments + ["--json"]).output
        return output.replacingOccurrences(
            of: #""convergeMilliseconds":[0-9.eE+-]+,"#, with: "", options: .regularExpression)
    }

    @Test func textReportByDefaultWithoutProgressBarWhenNotATerminal() throws {
        let outcome = try SyncDemoProcess.run(["simulate", "--ops", "200", "--duplicate-rate", "5%"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.errors.isEmpty, "no progress bar when stderr is not a terminal: \(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("converged:") && $0.contains("yes") })
        for label in ["duplicated rows:", "lost rows:", "revived rows:"] {
            #expect(lines.contains { $0.hasPrefix(label) && $0.hasSuffix(" 0") }, "\(label) in \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("operations:") && $0.hasSuffix("200") })
        #expect(lines.last?.hasPrefix("passed") == true)
        #expect(!outcome.output.contains("\u{1B}["))
    }

    @Test func overTCPWithAPartition() throws {
        let report = try report([
            "--transport", "tcp", "--replicas", "3", "--ops", "200", "--seed", "5", "--partition", "50-120:0/1,2",
        ])
        #expect(report["transport"] as? String == "tcp")
        #expect(report["passed"] as? Bool == true, "\(report)")
        #expect(report["lostRows"] as? Int == 0 && report["duplicatedRows"] as? Int == 0)
        #expect(report["faults"] == nil)
    }

    @Test(arguments: [
        (["--replicas", "1"], "expects an integer from 2 to 16, got '1'"),
        (["--ops", "many"], "option '--ops' expects an integer"),
        (["--drop-rate", "2"], "must be between 0 and 1"),
        (["--transport", "udp"], "expects memory or tcp, got 'udp'"),
        (["--transport", "tcp", "--drop-rate", "0.1"], "needs --transport memory"),
        (["--transport", "tcp", "--duplicate-rate", "1%"], "needs --transport memory"),
        (["--partition", "10-5:0/1"], "0 <= FROM < TO <= 1000"),
        (["--partition", "10-20"], "write the operations as FROM-TO"),
        (["--partition", "10-20:0/7"], "'7' is not a replica number from 0 to 2"),
        (["--partition", "10-20:0,1/1"], "replica 1 is in two groups"),
        (["--partition", "10-50:0", "--partition", "40-60:1"], "overlap"),
        (["--seeds", "3"], "did you mean '--seed'?"),
    ])
    func usageErrorsExitWith64AndSayWhatWasWrong(arguments: [String], message: String) throws {
        try SyncDemoProcess.expectUsageError(
            ["simulate"] + arguments, saying: message, help: "syncdemo simulate --help")
    }

    @Test func helpDocumentsThePartitionSchedule() throws {
        let help = try SyncDemoProcess.run(["simulate", "--help"])
        #expect(help.status == 0)
        for text in ["OVERVIEW:", "USAGE:", "OPTIONS:", "PARTITIONS:", "--partition 100-400:0,1/2,3", "--json"] {
            #expect(help.output.contains(text), "\(text)")
        }
    }
}
