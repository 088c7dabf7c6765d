import Foundation
import ListSync
import ListSyncStore

/// Checks a replica reopened after a killed worker against what the worker reported.
///
/// Everything recovered after earlier kills and every operation the worker saw acknowledged as durable
/// must be there; an operation it reported but had not seen durable is either wholly there or wholly
/// absent, and those present come first in log order. The state must equal a fresh replica that merged
/// exactly those change sets, except for one operation the worker had begun but not yet reported (the
/// kill came between its log write and its output line): a merge from the peer, whose change set the
/// worker names when it begins, may be wholly present; a local edit may add a few operations of its own.
/// Finally the reopened replica's next operation counter is above every counter the worker reported.
struct CrashOracle {
    /// What one worker run reported.
    struct Report {
        var operations: [(ticket: UInt64, changes: ChangeSet)] = []
        var durable: UInt64 = 0
        var highestCounter: UInt64 = 0
        var begun = 0
        /// The change set of the last begun operation when it is a merge from the peer.
        var lastBegunMerge: ChangeSet?

        /// Parses the worker's output lines.
        init(lines: [String]) throws {
            for line in lines {
                let fields = line.split(separator: " ")
                switch fields.first {
                case "begin":
                    begun += 1
                    lastBegunMerge = try fields.count > 2 ? ChangeSet(decoding: hexBytes(fields[2])) : nil
                case "durable": durable = Swift.max(durable, UInt64(fields[1])!)
                case "op":
                    let bytes = try hexBytes(fields[3])
                    operations.append((UInt64(fields[2])!, try ChangeSet(decoding: bytes)))
                    highestCounter = Swift.max(highestCounter, UInt64(fields[4])!)
                default: continue
                }
            }
        }
    }

    /// The most operations one local worker step makes (an insert of 3 rows plus rows it displaces).
    static let operationsPerStep: UInt64 = 8

    /// The state recovered after the previous kill.
    private(set) var base = ChangeSet()

    /// Checks `reopened` against `report`; returns what is wrong, or nil.
    mutating func check(_ reopened: DurableReplica<String>, against report: Report) throws -> String? {
        let state = reopened.read { fullState($0) }
        let snapshot = reopened.read { $0.snapshot() }
        func stateAfterMerging(_ changeSets: [ChangeSet]) throws -> ChangeSet {
            let list = try ReplicatedList<String>(snapshot: snapshot)
            for changes in changeSets { try list.merge(changes) }
            return fullState(list)
        }
        let acknowledged = report.operations.filter { $0.ticket <= report.durable }.map(\.changes)
        if try stateAfterMerging([base] + acknowledged) != state {
            return "an acknowledged operation or an earlier recovered one is missing"
        }
        var included = [base] + acknowledged
        var sawAbsent = false
        for operation in report.operations where operation.ticket > report.durable {
            if try stateAfterMerging([operation.changes]) == state {
                if sawAbsent { return "operation with ticket \(operation.ticket) present after an absent one" }
                included.append(operation.changes)
            } else {
                sawAbsent = true
            }
        }
        let expected = ReplicatedList<String>()
        for changes in included { try expected.merge(changes) }
        let expectedState = fullState(expected)
        if expectedState != state {
            let extra = state.operationCount - Swift.min(state.operationCount, expectedState.operationCount)
            let unreported = report.begun > report.operations.count
            let explained: Bool
            if let merge = report.lastBegunMerge {
                try expected.merge(merge)
                explained = fullState(expected) == state
            } else {
                explained = try stateAfterMerging([expectedState]) == state && extra <= Self.operationsPerStep
            }
            guard unreported, explained else {
                return "state differs from the reported operations (\(extra) extra operations)"
            }
        }
        let next = reopened.read { $0.nextOperationCounter }
        if next <= report.highestCounter {
            return "next counter \(next) reuses a reported counter up to \(report.highestCounter)"
        }
        base = state
        return nil
    }
}

/// The bytes of a string of hexadecimal digit pairs.
func hexBytes(_ hex: Substring) throws -> [UInt8] {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { throw WorkerProcess.Failure(description: "odd hex length") }
    return try stride(from: 0, to: digits.count, by: 2).map { index in
        guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else {
            throw WorkerProcess.Failure(description: "bad hex digits")
        }
        return byte
    }
}
