import ListSync

/// A change of what this replica shows the others (its presence), as typed at a `peer` prompt or
/// written in a scenario: `name TEXT` and `select ROWS|none`. Rows are named as in ``ListCommand``.
enum PresenceCommand: Equatable {
    /// `name TEXT`: the name the other replicas see.
    case name(String)
    /// `select ROWS` or `select none` (no rows): the rows selected.
    case select([ListCommand.RowReference])

    /// The command words this enum parses, for help and dispatch.
    static let verbs = ["name", "select"]

    /// One line per command, for `help`.
    static let help = """
        name TEXT                       the name the other replicas see for this one (at most 64 bytes)
        select ROWS|none                select rows: the other replicas' lists mark them with this name
        """

    /// Parses `words` (the verb first); nil when the verb is not a presence command.
    /// - Throws: ``CommandError`` naming the missing argument, with the command's syntax.
    static func parse(_ words: [String]) throws(CommandError) -> PresenceCommand? {
        guard let verb = words.first, verbs.contains(verb) else { return nil }
        let arguments = Array(words.dropFirst())
        switch verb {
        case "name":
            guard arguments.count == 1, !arguments[0].isEmpty else {
                throw CommandError("usage: name TEXT (quote a name with blanks: name \"Ana's phone\")")
            }
            return .name(arguments[0])
        default:
            guard arguments.count == 1 else { throw CommandError("usage: select ROWS|none, e.g. select Paris,Rome") }
            return .select(arguments[0] == "none" ? [] : ListCommand.references(arguments[0]))
        }
    }

    /// `current` changed by this command, its rows resolved in `list`.
    /// - Throws: ``CommandError`` for a row that cannot be named, a name with a control character, or a
    ///   presence beyond ``Presence/Limits``; nothing changed then.
    func applied(to current: Presence, in list: ReplicatedList<Entry>) throws(CommandError) -> Presence {
        var presence = current
        switch self {
        case .name(let name):
            if let (scalar, offset) = name.firstControlCharacter {
                throw CommandError(
                    "the name \(name.quoted) holds the control character \(scalar.codePoint) at character \(offset + 1)"
                )
            }
            presence.name = name
        case .select(let references):
            presence.selection = try list.resolve(references).compactMap { list[$0].id.rowID }
        }
        do {
            try presence.validate()
        } catch {
            throw CommandError("\(error); nothing changed")
        }
        return presence
    }

    /// What the command did, for the prompt: `ok: named "Ana"`, `ok: 2 rows selected`.
    func summary(of presence: Presence) -> String {
        switch self {
        case .name: "ok: named \(presence.name.quoted); the other replicas see it"
        case .select:
            presence.selection.isEmpty
                ? "ok: nothing selected" : "ok: \(counted(presence.selection.count, "row")) selected"
        }
    }

    /// The other replicas' marks on rows: for each row selected or dragged, the names of those who do,
    /// `kitchen` or `kitchen (dragging)`, and on the row before a drop still loading elsewhere,
    /// `kitchen (dropping 2 below)`; sorted.
    static func marks(_ presences: some Sequence<Presence>) -> [RowID: [String]] {
        var marks: [RowID: [String]] = [:]
        for presence in presences {
            for row in presence.selection { marks[row, default: []].append(presence.name) }
            for row in presence.drag?.rows ?? [] { marks[row, default: []].append("\(presence.name) (dragging)") }
            for drop in presence.pendingDrops {
                guard let after = drop.after else { continue }
                marks[after, default: []].append("\(presence.name) (dropping \(drop.count) below)")
            }
        }
        return marks.mapValues { $0.sorted() }
    }

    /// `'Ana' selects 'Paris', 'Rome' drags 'Tokyo' before 'Oslo'`: what a presence shows, rows by their
    /// texts in `list`.
    static func describe(_ presence: Presence, in list: ReplicatedList<Entry>) -> String {
        func texts(_ rows: [RowID]) -> String {
            rows.compactMap { list.index(forRow: $0).map { list[$0].value.description.quoted } }.joined(separator: ", ")
        }
        var parts = [presence.name.quoted]
        if !presence.selection.isEmpty { parts.append("selects " + texts(presence.selection)) }
        if let drag = presence.drag {
            let hover =
                switch drag.hover {
                case .before(let row)?: " before " + texts([row])
                case .onto(let row)?: " onto " + texts([row])
                case .end?: " to the end"
                case nil: ""
                }
            parts.append("drags " + texts(drag.rows) + hover)
        }
        if !presence.pendingDrops.isEmpty {
            parts.append("drops \(counted(presence.pendingDrops.reduce(0) { $0 + $1.count }, "row"))")
        }
        return parts.joined(separator: " ")
    }
}
