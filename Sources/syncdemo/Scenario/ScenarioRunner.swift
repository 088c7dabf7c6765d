import Foundation
import ListSync

/// Runs a parsed ``Scenario`` on a cluster, echoing each step, and stops at the first failure.
final class ScenarioRunner {
    /// The steps.
    private let scenario: Scenario
    /// The replicas, named as the scenario declares them.
    private let cluster: any Cluster
    /// The loads of drops, until a `wait` lands them.
    private let loads = RunningLoads()
    /// Assertions that held so far.
    private(set) var assertionsHeld = 0

    /// How long `sync` may take before it fails, and `wait` without a duration.
    static let timeout = Duration.seconds(30)

    /// A runner of `scenario` on `cluster`, whose replicas are the scenario's in order.
    init(_ scenario: Scenario, on cluster: any Cluster) {
        self.scenario = scenario
        self.cluster = cluster
    }

    /// Runs every step in order.
    /// - Throws: ``ScenarioError`` for the first step that failed: an assertion that did not hold, a
    ///   list command that did not fit the list, a `sync` or `wait` that timed out.
    func run() throws(ScenarioError) {
        for step in scenario.steps {
            Console.print(step.action.isEdit ? Style.cyan(step.text) : Style.bold(step.text))
            do throws(CommandError) {
                try perform(step.action)
            } catch {
                throw ScenarioError(line: step.line, message: error.message)
            }
        }
    }

    /// Performs one action.
    private func perform(_ action: Scenario.Action) throws(CommandError) {
        switch action {
        case .edit(let replica, let command):
            let result = cluster.edit(replica) { list in Result { () throws(CommandError) in try list.run(command) } }
            do throws(CommandError) {
                let outcome = try result.get()
                for note in outcome.notes { Console.print("  \(cluster.names[replica]): \(note)") }
                for load in outcome.loads { loads.start(load, on: replica) }
            } catch {
                throw CommandError("\(cluster.names[replica]): \(error.message)")
            }
        case .present(let replica, let command):
            do throws(CommandError) {
                _ = try cluster.run(command, on: replica)
            } catch {
                throw CommandError("\(cluster.names[replica]): \(error.message)")
            }
        case .partition(let groups):
            cluster.partition(groups)
        case .heal:
            cluster.heal()
        case .sync:
            guard cluster.settle(timeout: Self.timeout) else {
                throw CommandError("the linked replicas did not converge within \(Self.timeout)")
            }
        case .show:
            Console.print(ListDisplay.render(cluster.names.indices.map(cluster.column)))
        case .wait(let duration):
            if let duration {
                Thread.sleep(forTimeInterval: Double(duration / .milliseconds(1)) / 1000)
            } else if !loads.waitForAll(timeout: Self.timeout) {
                throw CommandError("the loads did not end within \(Self.timeout)")
            }
            for load in loads.takeEnded() { Console.print(cluster.land(load)) }
        case .assertConverged:
            guard cluster.allConverged else {
                let lists = ListDisplay.plain(cluster.names.indices.map(cluster.column))
                throw failed("expected every replica to show the same rows, got\n\(lists)")
            }
        case .assertRows(let replica, let rows):
            try check(replica, "rows", rows.joined(separator: " | ")) { index in
                cluster.column(index).rows.map { ($0.isPending ? "…" : "") + $0.text }.joined(separator: " | ")
            }
        case .assertCount(let replica, let count):
            try check(replica, "confirmed rows", "\(count)") { "\(cluster.confirmedRows($0).count)" }
        case .assertPending(let replica, let count):
            try check(replica, "pending placeholders", "\(count)") { index in
                "\(cluster.read(index) { $0.pendingCount })"
            }
        }
        if action.isAssertion { assertionsHeld += 1 }
    }

    /// Checks that `actual` of `replica` (of every replica when nil) reads `expected`.
    private func check(
        _ replica: Int?, _ what: String, _ expected: String, actual: (Int) -> String
    ) throws(CommandError) {
        for index in replica.map({ [$0] }) ?? Array(cluster.names.indices) {
            let found = actual(index)
            guard found == expected else {
                throw failed("expected \(what) on \(cluster.names[index]): \(expected), got \(found)")
            }
        }
    }

    /// An assertion failure saying `message`.
    private func failed(_ message: String) -> CommandError { CommandError("assertion failed: \(message)") }
}

extension Scenario.Action {
    /// Whether this is a list or presence command of a replica.
    var isEdit: Bool {
        switch self {
        case .edit, .present: true
        default: false
        }
    }

    /// Whether this is an `assert`.
    var isAssertion: Bool {
        switch self {
        case .assertConverged, .assertRows, .assertCount, .assertPending: true
        default: false
        }
    }
}
