import Foundation

/// What a simulation found, printed as text or, with `--json`, as one JSON object.
struct SimulationReport: Encodable {
    /// `memory` or `tcp`.
    var transport: String
    /// The number of replicas.
    var replicas: Int
    /// The seed.
    var seed: UInt64
    /// The number of random edits.
    var operations: Int
    /// Whether every replica showed the same rows and had seen the same operations after settling.
    var converged: Bool
    /// The confirmed rows of the first replica after settling.
    var rows: Int
    /// Change sets sent (duplicates and anti-entropy repairs included).
    var messages: Int
    /// Bytes of those change sets.
    var bytes: Int
    /// What the simulated network's faults and repairs did (memory transport only).
    var faults: MemoryCluster.Statistics?
    /// From the last operation until every replica converged (or gave up).
    var convergeMilliseconds: Double
    /// The position key lengths of the first replica's rows.
    var positionKeys: PositionKeyLengths
    /// Duplicated, lost and revived rows; all must be 0.
    var audit: RowAudit
    /// Change sets that did not merge; must be empty.
    var errors: [String]

    /// Whether the run passed: converged, no row duplicated, lost or revived, no merge error.
    var passed: Bool { converged && audit.isClean && errors.isEmpty }

    /// The JSON keys: the fields, with `passed` and the audit's counts at the top level.
    private enum CodingKeys: String, CodingKey {
        case transport, replicas, seed, operations, converged, rows, messages, bytes, faults
        case convergeMilliseconds, positionKeys, duplicatedRows, lostRows, revivedRows, errors, passed
    }

    /// Encodes the fields, flattening the audit.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transport, forKey: .transport)
        try container.encode(replicas, forKey: .replicas)
        try container.encode(seed, forKey: .seed)
        try container.encode(operations, forKey: .operations)
        try container.encode(converged, forKey: .converged)
        try container.encode(rows, forKey: .rows)
        try container.encode(messages, forKey: .messages)
        try container.encode(bytes, forKey: .bytes)
        try container.encodeIfPresent(faults, forKey: .faults)
        try container.encode(convergeMilliseconds, forKey: .convergeMilliseconds)
        try container.encode(positionKeys, forKey: .positionKeys)
        try container.encode(audit.duplicatedRows, forKey: .duplicatedRows)
        try container.encode(audit.lostRows, forKey: .lostRows)
        try container.encode(audit.revivedRows, forKey: .revivedRows)
        try container.encode(errors, forKey: .errors)
        try container.encode(passed, forKey: .passed)
    }

    /// One line of JSON with sorted keys.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Every field is a plain number, string, bool or array of them: encoding cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The text report, a `label: value` line per figure, the verdict last.
    var text: String {
        var network = "\(messages.formatted()) change sets, \(bytes.formatted()) bytes"
        if let faults {
            network +=
                " (\(faults.dropped.formatted()) dropped, \(faults.duplicated.formatted()) duplicated, "
                + "\(faults.cut.formatted()) cut by partitions, \(faults.repairs.formatted()) anti-entropy repairs)"
        }
        let lines: [(String, String)] = [
            ("replicas", "\(replicas) (\(transport == "tcp" ? "TCP on loopback" : "in memory"), seed \(seed))"),
            ("operations", operations.formatted()),
            ("converged", converged ? "yes, \(rows.formatted()) rows on every replica" : "NO"),
            ("messages", network),
            ("time to converge", String(format: "%.1f ms after the last operation", convergeMilliseconds)),
            (
                "position keys",
                String(
                    format: "%.1f bytes on average, %d at most", positionKeys.averageBytes, positionKeys.maximumBytes)
            ),
            ("duplicated rows", "\(audit.duplicatedRows)"),
            ("lost rows", "\(audit.lostRows)"),
            ("revived rows", "\(audit.revivedRows)"),
        ]
        let verdict =
            passed
            ? Style.green("passed: converged with no row duplicated, lost or revived")
            : Style.red("FAILED: ") + failures.joined(separator: "; ")
        return (lines.map { "\($0):".padding(toLength: 18, withPad: " ", startingAt: 0) + $1 } + errors + [verdict])
            .joined(separator: "\n")
    }

    /// What failed, in words.
    private var failures: [String] {
        var failures: [String] = []
        if !converged { failures.append("the replicas did not converge within \(Simulation.settleTimeout)") }
        if audit.duplicatedRows > 0 { failures.append("\(audit.duplicatedRows) duplicated rows") }
        if audit.lostRows > 0 { failures.append("\(audit.lostRows) lost rows") }
        if audit.revivedRows > 0 { failures.append("\(audit.revivedRows) deleted rows revived") }
        if !errors.isEmpty { failures.append("\(errors.count) change sets did not merge") }
        return failures + ["rerun with --seed \(seed) to reproduce"]
    }
}
