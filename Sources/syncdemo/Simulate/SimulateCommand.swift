/// `syncdemo simulate`: many random edits on several replicas over a faulty network, then an audit.
enum SimulateCommand: Command {
    static let interface = CommandInterface(
        name: "syncdemo simulate",
        overview: "Random edits on several replicas over a faulty network; reports convergence and lost rows.",
        usage:
            "[--replicas <R>] [--ops <N>] [--seed <S>] [--drop-rate <P>] [--duplicate-rate <P>] "
            + "[--partition <schedule>]... [--transport memory|tcp] [--json]",
        options: [
            Option(name: "replicas", valueName: "R", help: "Replicas, 2 to 16 (default 3)."),
            Option(name: "ops", valueName: "N", help: "Random edits, 1 to 1,000,000 (default 1000)."),
            Option(name: "seed", valueName: "S", help: "Seeds replica IDs, edits, delivery order, faults (default 1)."),
            Option(name: "drop-rate", valueName: "P", help: "Chance a message is lost, 0 to 1 or a % (default 0)."),
            Option(name: "duplicate-rate", valueName: "P", help: "Chance a message arrives twice (default 0)."),
            Option(
                name: "partition", valueName: "schedule", help: "Cut replicas apart for a range of operations.",
                isRepeatable: true),
            Option(
                name: "transport", valueName: "memory|tcp",
                help: "memory: in this process, seeded and reproducible (default);\ntcp: real peers on 127.0.0.1."),
            Option(name: "json", help: "Print the report as one JSON object."),
        ],
        notes: """
            Each operation is an insert, a move of one row, a block move of several, a delete or an edit, on a
            random replica; between operations some messages in flight arrive, in random order. After the
            last operation the replicas heal, settle (anti-entropy repairs what was lost) and are audited:
            every replica must show the same rows, none twice, none lost, no deleted one revived.

            PARTITIONS: --partition FROM-TO:GROUP/GROUP... cuts the groups apart before operation FROM and
            heals before operation TO (operations count from 0). A group is replica numbers separated by
            commas; replicas in no group are alone. Messages in flight across a cut are lost.
              --partition 100-400:0,1/2,3    {0,1} and {2,3} apart for operations 100 to 399
              --partition 0-50:0             replica 0 alone, the others together

            FAULTS: --drop-rate and --duplicate-rate apply to the memory transport; over TCP, which
            neither loses nor duplicates, they are rejected. The run is reproducible from its seed in memory.

            Exits 0 when the replicas converged with 0 duplicated, lost or revived rows, 1 otherwise.
            A progress bar is drawn on standard error when it is a terminal.

            EXAMPLE:
              syncdemo simulate --replicas 4 --ops 2000 --seed 7 --drop-rate 10% --duplicate-rate 5% \\
                --partition 500-1500:0,1/2,3
            """)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let simulation = try simulation(arguments)
        let asJSON = arguments.flag("json")
        var progress = ProgressBar(unit: "operations", total: simulation.operations)
        let report = try simulation.run { progress.update($0) }
        progress.clear()
        Console.print(asJSON ? report.json : report.text)
        return report.passed ? .success : .failure
    }

    /// The simulation the options describe.
    /// - Throws: ``UsageError`` for an option out of range, a malformed partition, or faults over TCP.
    private static func simulation(_ arguments: ParsedArguments) throws(UsageError) -> Simulation {
        let replicas = try arguments.integer("replicas", default: 3, in: 2...16)
        let operations = try arguments.integer("ops", default: 1000, in: 1...1_000_000)
        let faults = Faults(
            dropRate: try arguments.rate("drop-rate"), duplicateRate: try arguments.rate("duplicate-rate"))
        let transport = try Transport.parse(arguments, default: .memory)
        if transport == .tcp, let option = ["drop-rate", "duplicate-rate"].first(where: { arguments.flag($0) }) {
            throw arguments.error(
                "option '--\(option)' needs --transport memory: TCP neither loses nor duplicates messages")
        }
        return Simulation(
            replicas: replicas, operations: operations,
            seed: try arguments.integer("seed", default: 1, in: 0...UInt64.max), faults: faults,
            partitions: try arguments.partitionWindows("partition", replicas: replicas, operations: operations),
            transport: transport)
    }
}
