import Foundation
import ListSync

/// `syncdemo` / `syncdemo demo`: three replicas as TCP peers on loopback tell ListSync's story.
enum DemoCommand: Command {
    static let interface = CommandInterface(
        name: "syncdemo demo",
        overview: "Three replicas syncing over TCP on this machine: moves, conflicts, drops (the default).",
        usage: "[--load-delay <duration>]",
        options: [
            Option(
                name: "load-delay", valueName: "duration",
                help: "How long dropped contacts take to load, 0 to 1h (default 1s).")
        ],
        notes: """
            Runs on embedded defaults: loopback ports chosen automatically, a generated secret, nothing
            written to disk. Each step shows the commands typed (the same ones 'syncdemo peer' reads) and
            the three lists; pending placeholders are marked with '…'. Exits 0 when the replicas converge.
            """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let delay = try arguments.duration("load-delay", default: .seconds(1))
        let cluster: LoopbackCluster
        do {
            cluster = try LoopbackCluster(
                names: ["phone", "laptop", "tablet"], replicaIDs: [ReplicaID(1), ReplicaID(2), ReplicaID(3)])
        } catch {
            throw CommandFailure("could not start the peers on 127.0.0.1: \(error)")
        }
        defer { cluster.shutDown() }
        let story = Story(cluster: cluster)
        let clock = ContinuousClock()
        let start = clock.now
        try story.tell(loadDelay: delay)
        let elapsed = clock.now - start
        let converged = story.failures.isEmpty && cluster.allConverged
        let rows = cluster.confirmedRows(0).count
        let traffic = cluster.traffic
        let summary =
            "\(cluster.names.count) replicas over TCP, \(rows) rows, \(traffic.bytes.formatted()) bytes in "
            + "\(traffic.changeSets) change sets, \(String(format: "%.2f", Double(elapsed / .milliseconds(1)) / 1000)) s"
        Console.print("")
        let verdict = converged ? "converged: " : "NOT converged: "
        let lines = TextWrap.wrap(verdict + summary, width: Console.outputWidth, indent: "  ")
        Console.print((converged ? Style.green : Style.red)(verdict) + lines[0].dropFirst(verdict.count))
        for line in lines.dropFirst() { Console.print(line) }
        if converged { return .success }
        for failure in story.failures { Console.error("syncdemo: \(failure)") }
        return .failure
    }
}
