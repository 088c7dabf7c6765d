import Foundation

/// A scenario file, parsed: the replicas it declares and its steps, each with its line number.
///
/// The format is documented in ``ScenarioCommand/format``.
struct Scenario {
    /// The replicas' names, in declaration order.
    var replicas: [String]
    /// The steps, in order.
    var steps: [Step]

    /// One line that does something.
    struct Step {
        /// The 1-based line number.
        var line: Int
        /// The line as written, trimmed.
        var text: String
        /// What it does.
        var action: Action
    }

    /// What a step does.
    enum Action {
        /// `NAME: COMMAND`: replica `replica` runs a list command.
        case edit(replica: Int, ListCommand)
        /// `NAME: name TEXT` or `NAME: select ROWS|none`: a presence command of a replica.
        case present(replica: Int, PresenceCommand)
        /// `partition A B | C`: only replicas of the same group are linked.
        case partition([[Int]])
        /// `heal`: every replica is linked again.
        case heal
        /// `sync`: everything in flight arrives; linked replicas exchange what they lack.
        case sync
        /// `show`: prints every replica's list.
        case show
        /// `wait [DURATION]`: waits, then lands the loads that ended; without a duration waits for all.
        case wait(Duration?)
        /// `assert converged`.
        case assertConverged
        /// `assert [NAME] rows A | B`: the rows, pending placeholders prefixed with `…`.
        case assertRows(replica: Int?, [String])
        /// `assert [NAME] count N`: the number of confirmed rows.
        case assertCount(replica: Int?, Int)
        /// `assert [NAME] pending N`: the number of pending placeholders.
        case assertPending(replica: Int?, Int)
    }

    /// The directives besides `NAME: COMMAND`, for suggestions.
    static let directives = ["replicas", "partition", "heal", "sync", "show", "wait", "assert"]

    /// Parses a whole file, given as its lines (``ScenarioFile`` reads them); every line is checked
    /// before anything runs.
    /// - Throws: ``ScenarioError`` for the first line that is malformed, with what was wrong.
    init(lines: [String]) throws(ScenarioError) {
        replicas = []
        steps = []
        var declared = false
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            do throws(CommandError) {
                let words = try Words.split(line)
                guard let first = words.first else { continue }
                if first == "replicas" {
                    guard !declared else { throw CommandError("the replicas are declared twice; declare them once") }
                    replicas = try Self.replicaNames(Array(words.dropFirst()))
                    declared = true
                    continue
                }
                guard declared else {
                    throw CommandError("declare the replicas first, e.g. 'replicas phone laptop tablet'")
                }
                let action = try action(words)
                steps.append(Step(line: number, text: line.trimmingCharacters(in: .whitespaces), action: action))
            } catch {
                throw ScenarioError(line: number, message: error.message)
            }
        }
        guard declared else {
            throw ScenarioError(line: 1, message: "no 'replicas NAME...' line: declare the replicas first")
        }
    }

    /// The names of a `replicas` line: 1 to 16, distinct, without `:` or `|`.
    private static func replicaNames(_ names: [String]) throws(CommandError) -> [String] {
        guard (1...16).contains(names.count) else {
            throw CommandError("declare 1 to 16 replicas by name: replicas phone laptop tablet")
        }
        for name in names where name.contains(":") || name == "|" {
            throw CommandError("replica name \(name.quoted) may not contain ':' or be '|'")
        }
        guard Set(names).count == names.count else { throw CommandError("replica names must be distinct") }
        return names
    }

    /// The action of a line split into `words` (not a `replicas` line).
    private func action(_ words: [String]) throws(CommandError) -> Action {
        let verb = words[0]
        let arguments = Array(words.dropFirst())
        if verb.hasSuffix(":") {
            let replica = try index(of: String(verb.dropLast()))
            if let command = try PresenceCommand.parse(arguments) { return .present(replica: replica, command) }
            guard let command = try ListCommand.parse(arguments) else {
                throw CommandError(
                    "\((arguments.first ?? "").quoted) is not a list command; expected one of "
                        + (ListCommand.verbs + PresenceCommand.verbs).joined(separator: ", "))
            }
            return .edit(replica: replica, command)
        }
        func noArguments(_ action: Action) throws(CommandError) -> Action {
            guard arguments.isEmpty else { throw CommandError("'\(verb)' takes no arguments") }
            return action
        }
        switch verb {
        case "partition":
            var seen: Set<Int> = []
            var groups: [[Int]] = []
            for group in arguments.split(separator: "|", omittingEmptySubsequences: false) {
                var members: [Int] = []
                for name in group {
                    let replica = try index(of: name)
                    guard seen.insert(replica).inserted else { throw CommandError("\(name) is in two groups") }
                    members.append(replica)
                }
                groups.append(members)
            }
            return .partition(groups)
        case "heal": return try noArguments(.heal)
        case "sync": return try noArguments(.sync)
        case "show": return try noArguments(.show)
        case "wait":
            guard arguments.count <= 1 else { throw CommandError("usage: wait [DURATION], e.g. wait 500ms") }
            guard let text = arguments.first else { return .wait(nil) }
            do {
                return .wait(try Duration(validating: text))
            } catch {
                throw CommandError("usage: wait [DURATION]: \(error)")
            }
        case "assert":
            return try assertion(arguments)
        default:
            let hint =
                Suggestion.nearest(to: verb, among: Self.directives + replicas.map { $0 + ":" })
                .map { " Did you mean '\($0)'?" } ?? ""
            throw CommandError(
                "unknown directive \(verb.quoted); expected NAME: COMMAND or one of "
                    + Self.directives.dropFirst().joined(separator: ", ") + "." + hint)
        }
    }

    /// `converged`, or `[NAME] rows|count|pending ...`.
    private func assertion(_ words: [String]) throws(CommandError) -> Action {
        let syntax = CommandError(
            "usage: assert converged | assert [NAME] rows A | B ... | assert [NAME] count N | assert [NAME] pending N")
        if words == ["converged"] { return .assertConverged }
        guard let first = words.first else { throw syntax }
        let replica = replicas.firstIndex(of: first)
        let rest = replica == nil ? words[...] : words.dropFirst()
        guard let kind = rest.first else { throw syntax }
        let values = Array(rest.dropFirst())
        switch kind {
        case "rows":
            let rows = values.split(separator: "|", omittingEmptySubsequences: false).map { $0.joined(separator: " ") }
            return .assertRows(replica: replica, rows == [""] ? [] : rows)
        case "count", "pending":
            guard values.count == 1, let number = Int(values[0]), number >= 0 else {
                throw CommandError("usage: assert [NAME] \(kind) N, with N a number of rows")
            }
            return kind == "count" ? .assertCount(replica: replica, number) : .assertPending(replica: replica, number)
        default:
            if replica == nil && ["rows", "count", "pending"].contains(words.dropFirst().first ?? "") {
                _ = try index(of: first)  // throws: names the replicas
            }
            throw syntax
        }
    }

    /// The index of replica `name`.
    private func index(of name: String) throws(CommandError) -> Int {
        guard let index = replicas.firstIndex(of: name) else {
            throw CommandError(
                "no replica is called \(name.quoted); the replicas are \(replicas.joined(separator: ", "))")
        }
        return index
    }
}

/// A line of a scenario that is malformed, or a step that failed: where, and what was wrong.
struct ScenarioError: Error, Equatable {
    /// The 1-based line number.
    var line: Int
    /// What was wrong.
    var message: String
}
