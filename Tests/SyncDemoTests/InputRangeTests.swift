import Foundation
import Testing

/// Every number a user gives syncdemo (on the command line, at the prompt, in a scenario file) is
/// checked against its range: a bad one is a usage error naming the range, never a trap.
@Suite struct InputRangeTests {
    /// The text every duration error ends with.
    static let durationRange = "durations go from 0 to 1h"

    @Test(arguments: [
        (["demo", "--load-delay", "1e20s"], "option '--load-delay': '1e20s' is too long; \(durationRange)"),
        (["demo", "--load-delay", "61m"], "'61m' is too long"),
        (["demo", "--load-delay", "1e308m"], "'1e308m' is too long"),
        (["demo", "--load-delay", "nan"], "'nan' is not a duration"),
        (["demo", "--load-delay", "infs"], "'infs' is not a duration"),
        (["demo", "--load-delay", "-1s"], "'-1s' is negative"),
        (["demo", "--load-delay", ""], "'' is not a duration"),
        (["demo", "--load-delay", "2x"], "'2x' is not a duration"),
        (["simulate", "--replicas", "17"], "expects an integer from 2 to 16, got '17'"),
        (["simulate", "--replicas", "-1"], "expects an integer from 2 to 16"),
        (["simulate", "--replicas", ""], "expects an integer from 2 to 16, got ''"),
        (["simulate", "--replicas", "nan"], "expects an integer from 2 to 16"),
        (["simulate", "--replicas", "99999999999999999999"], "expects an integer from 2 to 16"),
        (["simulate", "--ops", "0"], "expects an integer from 1 to 1000000"),
        (["simulate", "--ops", "1000001"], "expects an integer from 1 to 1000000"),
        (["simulate", "--ops", "1e3"], "expects an integer from 1 to 1000000"),
        (["simulate", "--seed", "-1"], "expects an integer from 0 to 18446744073709551615"),
        (["simulate", "--seed", "18446744073709551616"], "expects an integer from 0 to 18446744073709551615"),
        (["simulate", "--drop-rate", "nan"], "must be between 0 and 1"),
        (["simulate", "--drop-rate", "inf"], "must be between 0 and 1"),
        (["simulate", "--drop-rate", "-0.1"], "must be between 0 and 1"),
        (["simulate", "--drop-rate", "200%"], "must be between 0 and 1"),
        (["simulate", "--drop-rate", "%"], "expects a rate such as 0.05 or 5%"),
        (["simulate", "--duplicate-rate", "1e400"], "must be between 0 and 1"),
        (["simulate", "--duplicate-rate", ""], "expects a rate such as 0.05 or 5%"),
        (["simulate", "--partition", "500-1500:0,1/2,3"], "FROM-TO must satisfy 0 <= FROM < TO <= 1000"),
        (["simulate", "--partition", "-1-5:0"], "write the operations as FROM-TO"),
        (["simulate", "--partition", "5-1:0"], "FROM-TO must satisfy"),
        (["simulate", "--partition", "99999999999999999999-1:0"], "write the operations as FROM-TO"),
        (["simulate", "--partition", "0-10:7"], "'7' is not a replica number from 0 to 2"),
        (["simulate", "--partition", "0-10:"], "'' is not a replica number from 0 to 2"),
        (["simulate", "--partition", "0-10:0/0"], "replica 0 is in two groups"),
        (["peer", "--name", "a", "--listen", "127.0.0.1:70000"], "expects HOST:PORT"),
        (["peer", "--name", "a", "--listen", "127.0.0.1:-1"], "expects HOST:PORT"),
        (["peer", "--name", "a", "--listen", "127.0.0.1:"], "expects HOST:PORT"),
        (["peer", "--name", "a", "--connect", "127.0.0.1:0"], "option '--connect': port 0 cannot be dialed"),
        (["peer", "--name", "a", "--compact-at", "1e20"], "option '--compact-at': '1e20' is too large"),
        (["peer", "--name", "a", "--compact-at", "2GiB"], "'2GiB' is too large"),
        (["peer", "--name", "a", "--compact-at", "1KiB"], "'1KiB' is too small"),
        (["peer", "--name", "a", "--compact-at", "0"], "'0' is too small"),
        (["peer", "--name", "a", "--compact-at", "-4MiB"], "'-4MiB' is too small"),
        (["peer", "--name", "a", "--compact-at", "nan"], "'nan' is not a size"),
        (["peer", "--name", "a", "--compact-at", ""], "'' is not a size"),
        (["peer", "--name", "a", "--recovery", "lenient"], "option '--recovery' expects strict or salvage"),
    ])
    func aBadValueOnTheCommandLineIsAUsageError(arguments: [String], message: String) throws {
        let help = "syncdemo \(arguments[0]) --help"
        try SyncDemoProcess.expectUsageError(arguments, saying: message, help: help)
    }

    @Test(arguments: [
        ("wait 1e20s", "usage: wait [DURATION]: '1e20s' is too long; \(durationRange)"),
        ("wait 1e300", "usage: wait [DURATION]: '1e300' is too long"),
        ("wait nan", "usage: wait [DURATION]: 'nan' is not a duration"),
        ("wait inf", "usage: wait [DURATION]: 'inf' is not a duration"),
        ("wait -5ms", "usage: wait [DURATION]: '-5ms' is negative"),
        ("wait ''", "usage: wait [DURATION]: '' is not a duration"),
        ("drop 0 Ada --delay 1e20s", "drop --delay: '1e20s' is too long"),
        ("drop 0 Ada --delay nan", "drop --delay: 'nan' is not a duration"),
        ("drop 99999999999999999999 Ada", "usage: drop INDEX NAME"),
        ("insert 99999999999999999999 x", "usage: insert INDEX TEXT"),
        ("insert -1 x", "index -1 is out of range"),
        ("move 0 99999999999999999999", "usage: move ROWS INDEX|top|bottom"),
        ("connect 127.0.0.1:0", "connect: port 0 cannot be dialed"),
        ("connect 127.0.0.1:65536", "connect: invalid port \"65536\": expected 0 to 65535"),
    ])
    func aBadValueAtThePromptFailsThatLineAndThePeerGoesOn(line: String, message: String) throws {
        let outcome = try SyncDemoProcess.run(["peer", "--name", "solo"], input: "add Paris\n\(line)\nlist\n")
        #expect(outcome.status == 1, "stderr: \(outcome.errors)")
        #expect(outcome.errors.contains("line 2 '\(line)': \(message)"), "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("solo: Paris\n"), "the peer runs the next line: \(outcome.output)")
    }

    @Test(arguments: [
        ("wait 1e20s", "usage: wait [DURATION]: '1e20s' is too long; \(durationRange)"),
        ("wait nan", "usage: wait [DURATION]: 'nan' is not a duration"),
        ("wait -5ms", "usage: wait [DURATION]: '-5ms' is negative"),
        ("a: drop 0 Ada --delay 1e20s", "drop --delay: '1e20s' is too long"),
        ("a: insert 99999999999999999999 x", "usage: insert INDEX TEXT"),
        ("assert count -1", "usage: assert [NAME] count N"),
        ("assert count 1e20", "usage: assert [NAME] count N"),
        ("assert a pending 99999999999999999999", "usage: assert [NAME] pending N"),
    ])
    func aBadValueInAScenarioIsAUsageErrorAtItsLine(line: String, message: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString).scenario")
        try "replicas a b\n\(line)\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try SyncDemoProcess.run(["scenario", file.path])
        #expect(outcome.status == 64, "stderr: \(outcome.errors)")
        #expect(outcome.errors.contains("\(file.path):2: \(message)"), "stderr: \(outcome.errors)")
        #expect(outcome.output.isEmpty, "nothing runs: \(outcome.output)")
    }
}
