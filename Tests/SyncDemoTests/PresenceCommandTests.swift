import ListSync
import Testing

@testable import syncdemo

/// `name` and `select`: parsed with their usage errors, applied to a presence within its limits, and
/// what `peers` and `list` show of the others' presences.
struct PresenceCommandTests {
    private func list() -> ReplicatedList<Entry> {
        let list = ReplicatedList<Entry>(replicaID: ReplicaID(1))
        list.append(contentsOf: ["Paris", "Tokyo", "Oslo"].map { Entry($0) })
        return list
    }

    @Test func commandsParseAndBadOnesSayTheirUsage() throws {
        #expect(try PresenceCommand.parse(["name", "Ana"]) == .name("Ana"))
        #expect(try PresenceCommand.parse(["select", "Paris,1"]) == .select([.text("Paris"), .index(1)]))
        #expect(try PresenceCommand.parse(["select", "none"]) == .select([]))
        #expect(try PresenceCommand.parse(["add", "x"]) == nil)
        #expect(throws: CommandError("usage: select ROWS|none, e.g. select Paris,Rome")) {
            try PresenceCommand.parse(["select"])
        }
        #expect(throws: CommandError("usage: name TEXT (quote a name with blanks: name \"Ana's phone\")")) {
            try PresenceCommand.parse(["name", "a", "b"])
        }
    }

    @Test func appliedCommandsChangeOnlyTheirPartAndRefuseBadInput() throws {
        let list = list()
        let rows = list.compactMap(\.id.rowID)
        let selected = try PresenceCommand.select([.text("Oslo"), .index(0)]).applied(
            to: Presence(name: "Ana"), in: list)
        #expect(selected == Presence(name: "Ana", selection: [rows[0], rows[2]]))
        #expect(try PresenceCommand.name("Bea").applied(to: selected, in: list).selection == selected.selection)
        #expect(throws: CommandError.self) { try PresenceCommand.name("a\u{1B}b").applied(to: selected, in: list) }
        #expect(throws: CommandError.self) { try PresenceCommand.select([.index(7)]).applied(to: selected, in: list) }
    }

    @Test func othersPresencesReadAsMarksAndAsALine() {
        let list = list()
        let rows = list.compactMap(\.id.rowID)
        let ana = Presence(
            name: "Ana", selection: [rows[0]], drag: .init(rows: [rows[1]], hover: .before(rows[2])),
            pendingDrops: [.init(count: 2, after: rows[2])])
        let bea = Presence(name: "Bea", selection: [rows[0]])
        #expect(
            PresenceCommand.marks([ana, bea]) == [
                rows[0]: ["Ana", "Bea"], rows[1]: ["Ana (dragging)"], rows[2]: ["Ana (dropping 2 below)"],
            ])
        #expect(
            PresenceCommand.describe(ana, in: list)
                == "'Ana' selects 'Paris' drags 'Tokyo' before 'Oslo' drops 2 rows")
        let column = ListDisplay.Column(name: "phone", list: list, marks: PresenceCommand.marks([bea]))
        #expect(column.rows.map(\.text) == ["Paris ◂ Bea", "Tokyo", "Oslo"])
    }
}
