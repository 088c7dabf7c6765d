import Foundation

/// The subcommands; the first is the default.
let commands: [any Command.Type] = [DemoCommand.self, PeerCommand.self, SimulateCommand.self, ScenarioCommand.self]
/// The version `--version` prints.
let version = "0.2.0"

/// The top-level help: what each subcommand is for.
let overview = """
    OVERVIEW: See ListSync at work: replicas of one list editing concurrently and syncing over TCP.

    USAGE: syncdemo [<subcommand>] [<options>]

    SUBCOMMANDS:
    \(commands.map { "  " + $0.interface.name.split(separator: " ").last!.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.interface.overview }.joined(separator: "\n"))

      With no subcommand, runs 'demo'. See 'syncdemo <subcommand> --help' for its options.

    OPTIONS:
      --version                 Show the version.
      -h, --help                Show this help.
    """

/// Runs the command line and returns the exit code.
@MainActor
func main(_ arguments: [String]) -> ExitCode {
    var arguments = arguments[...]
    switch arguments.first {
    case "--version":
        Console.print("syncdemo \(version)")
        return .success
    case "-h", "--help":
        Console.print(overview)
        return .success
    case "help":
        guard let subcommand = arguments.dropFirst().first else {
            Console.print(overview)
            return .success
        }
        arguments = [subcommand, "--help"]
    default:
        break
    }
    let name = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
    let command: any Command.Type
    if let name {
        guard let found = commands.first(where: { $0.interface.name == "syncdemo \(name)" }) else {
            let names = commands.map { String($0.interface.name.dropFirst("syncdemo ".count)) }
            let hint = Suggestion.nearest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
            Console.error(
                "syncdemo: unknown subcommand \(name.quoted)\(hint)\nSubcommands: \(names.joined(separator: ", ")). Try 'syncdemo --help'."
            )
            return .usage
        }
        command = found
        arguments = arguments.dropFirst()
    } else {
        command = commands[0]
    }
    do {
        guard let parsed = try command.interface.parse(Array(arguments)) else {
            Console.print(command.interface.help)
            return .success
        }
        return try command.run(parsed)
    } catch let error as UsageError {
        Console.error(error.report)
        return .usage
    } catch {
        Console.error("\(command.interface.name): \(error)")
        return .failure
    }
}

exit(main(Array(CommandLine.arguments.dropFirst())).rawValue)
