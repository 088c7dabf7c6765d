import Foundation
import ListSync

/// `syncdemo scenario FILE`: a scripted experiment: who edits what, partitions, syncs and assertions.
enum ScenarioCommand: Command {
    /// The file format, for `--help` (Examples/Scenarios/README.md says the same).
    static let format = """
        FORMAT: one step per line (LF, CRLF or CR line ends; at most 1 MiB a line, 16 MiB a file); '#'
        starts a comment; words are split as at a shell prompt ("New York", a\\ b); a backslash that ends
        a line is kept as it is.
          replicas NAME...             first: the replicas, with replica IDs 1, 2, 3... in this order
                                       (concurrent edits that tie go to the higher ID, the later name)
          NAME: COMMAND                replica NAME runs a list or presence command (below)
          partition A B | C            only replicas of the same group are linked; 'partition' alone cuts all
          heal                         link every replica again
          sync                         deliver everything in flight; linked replicas exchange what they lack
                                       and must converge (within 30 s), else the scenario fails
          show                         print every replica's list (pending placeholders marked '…')
          wait [DURATION]              wait (e.g. 500ms, at most 1h), then land the drops' loads that ended: each
                                       placeholder becomes its row or is withdrawn; 'wait' alone waits for all
          assert converged             every replica shows the same rows and has seen the same edits
          assert [NAME] rows A | B     NAME's rows (every replica's when no NAME), pending ones as '…TEXT',
                                       checked ones as '✓ TEXT', those others select as 'TEXT ◂ NAMES';
                                       blanks inside a row are single spaces;
                                       'rows' alone: an empty list
          assert [NAME] count N        N confirmed rows
          assert [NAME] pending N      N pending placeholders

        LIST COMMANDS (as at a 'syncdemo peer' prompt):
        \(ListCommand.help.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        PRESENCE COMMANDS (what a replica shows the others; a replica's name is its own until 'name'):
        \(PresenceCommand.help.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

        TIMING: with the memory transport, edits reach other replicas only at 'sync', so edits between
        two syncs are concurrent and results do not depend on timing. Over TCP, edits travel at once;
        make edits concurrent with 'partition', and 'sync' before naming rows another replica added.
        A drop's loads start at once in the background; its placeholders stay pending until a 'wait'.
        Presence reaches the linked replicas at once in memory, and by the next 'sync' over TCP.

        EXIT STATUS: 0 when every step ran and every assertion held; 1 at the first failed assertion or
        step (FILE:LINE: what failed); 64 for a malformed file, reported before anything runs, or a
        file that cannot be read.
        """

    static let interface = CommandInterface(
        name: "syncdemo scenario",
        overview: "Run a scripted experiment: replicas edit, partition, heal, sync and assert.",
        usage: "<file> [--transport memory|tcp]",
        arguments: [("<file>", "The scenario, e.g. Examples/Scenarios/concurrent-moves.scenario.")],
        options: [
            Option(
                name: "transport", valueName: "memory|tcp",
                help:
                    "memory (default): replicas in this process, deterministic, so a\nscenario's results "
                    + "never depend on timing; tcp: real peers on 127.0.0.1.")
        ],
        notes: format)

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard let path = arguments.positionals.first else {
            throw arguments.error("missing the scenario file: syncdemo scenario FILE")
        }
        let transport = try Transport.parse(arguments, default: .memory)
        let scenario: Scenario
        do throws(ScenarioFile.Failure) {
            let lines = try ScenarioFile.lines(of: path)
            do throws(ScenarioError) {
                scenario = try Scenario(lines: lines)
            } catch {
                throw ScenarioFile.Failure(line: error.line, message: error.message)
            }
        } catch {
            guard let line = error.line else {
                throw arguments.error("cannot read the scenario '\(path)': \(error.message)")
            }
            Console.error("\(path):\(line): \(error.message)")
            Console.error("See 'syncdemo scenario --help' for the format.")
            return .usage
        }
        let cluster = try transport.makeCluster(
            names: scenario.replicas, replicaIDs: scenario.replicas.indices.map { ReplicaID(UInt64($0 + 1)) }, seed: 0)
        defer { cluster.shutDown() }
        let runner = ScenarioRunner(scenario, on: cluster)
        do {
            try runner.run()
        } catch {
            Console.error("\(path):\(error.line): \(error.message)")
            return .failure
        }
        Console.print(Style.green("passed: ") + "\(runner.assertionsHeld) assertions held")
        return .success
    }
}
