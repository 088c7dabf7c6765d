import Foundation
import ListSync

/// An edit of the list as a user types it at a `peer` prompt or writes it in a scenario.
///
/// Rows are named by their 0-based index or by their text (which must name one confirmed row: when
/// several read the same, the command asks for an index); several rows are separated by commas:
/// `move Rome,Oslo top`. No row text may hold a control character (``firstControlCharacter``).
enum ListCommand: Equatable {
    /// `add TEXT...`: appends one row per word.
    case add([String])
    /// `insert INDEX TEXT...`: inserts the rows at INDEX.
    case insert([String], at: Int)
    /// `move ROWS INDEX|top|bottom`: moves the rows as one block, which keeps their list order (as a
    /// dragged selection does), so the first of them in the list lands at INDEX.
    case move([RowReference], to: Destination)
    /// `delete ROWS`: deletes the rows.
    case delete([RowReference])
    /// `edit ROW TEXT`: replaces the row's text; its check mark stays.
    case edit(RowReference, String)
    /// `check ROWS` (`done` true) and `uncheck ROWS` (false): sets the rows' check marks; their texts stay.
    case check([RowReference], done: Bool)
    /// `drop INDEX NAME... [--phone P] [--delay D] [--fail]`: an external drop of contacts as vCards.
    case drop(ContactDrop)
    /// `undo`: undoes this replica's last command, as far as other replicas' work allows.
    case undo
    /// `redo`: redoes the last command undone.
    case redo

    /// The command words this enum parses, for help and dispatch.
    static let verbs = ["add", "insert", "move", "delete", "edit", "check", "uncheck", "drop", "undo", "redo"]

    /// One line per command, for `help`.
    static let help = """
        add TEXT...                     append rows (quote texts with blanks: add "New York")
        insert INDEX TEXT...            insert rows at INDEX (0 is the top)
        move ROWS INDEX|top|bottom      move rows as a block that keeps their list order, whatever order
                                        ROWS names them in: the first in the list lands at INDEX
        delete ROWS                     delete rows
        edit ROW TEXT                   replace a row's text (a check mark stays)
        check ROWS                      check rows off, shown as ✓ TEXT (their texts stay: a check here and
                                        an edit of the text on another replica at the same time both survive)
        uncheck ROWS                    clear rows' check marks
        drop INDEX NAME... [--phone P] [--delay D] [--fail]
                                        drop contacts from another app as vCards; each shows a pending
                                        placeholder until its load ends after D (0 to 1h, default 0s); --fail
                                        makes the loads fail, withdrawing the placeholders
        undo                            undo this replica's last command (never another replica's work: a row
                                        moved or edited elsewhere since is left as it is, and said so; a
                                        deleted row comes back as a copy)
        redo                            redo the last command undone
        ROW is an index (0, 1, ...) or a row's text without ✓ (an index when several rows read the same);
        ROWS is ROW[,ROW...]. Row texts cannot hold control characters (tabs, escapes).
        """

    /// A row named by index or by text.
    enum RowReference: Equatable {
        case index(Int)
        case text(String)
    }

    /// Where moved rows land.
    enum Destination: Equatable {
        case index(Int)
        case top
        case bottom
    }

    /// Parses `words` (the verb first); nil when the verb is not a list command.
    /// - Throws: ``CommandError`` naming the missing or malformed argument, with the command's syntax,
    ///   or the first row text that holds a control character.
    static func parse(_ words: [String]) throws(CommandError) -> ListCommand? {
        guard let command = try parseSyntax(words) else { return nil }
        for text in command.rowTexts {
            if let (scalar, offset) = text.firstControlCharacter {
                throw CommandError(
                    "the text \(text.quoted) holds the control character \(scalar.codePoint) at character "
                        + "\(offset + 1); row texts cannot hold control characters (tabs, escape sequences such as "
                        + "arrow keys), so nothing changed")
            }
        }
        return command
    }

    /// The texts the command would write into rows: added, inserted and edited texts, dropped names and phone.
    var rowTexts: [String] {
        switch self {
        case .add(let texts), .insert(let texts, _): texts
        case .edit(_, let text): [text]
        case .drop(let drop): drop.names + (drop.phone.map { [$0] } ?? [])
        case .move, .delete, .check, .undo, .redo: []
        }
    }

    /// Parses `words` without checking the texts.
    private static func parseSyntax(_ words: [String]) throws(CommandError) -> ListCommand? {
        guard let verb = words.first, verbs.contains(verb) else { return nil }
        let arguments = Array(words.dropFirst())
        func usage(_ syntax: String) -> CommandError { CommandError("usage: \(verb) \(syntax)") }
        switch verb {
        case "add":
            guard !arguments.isEmpty else { throw usage("TEXT...") }
            return .add(arguments)
        case "insert":
            guard arguments.count >= 2, let index = Int(arguments[0]) else { throw usage("INDEX TEXT...") }
            return .insert(Array(arguments.dropFirst()), at: index)
        case "move":
            guard arguments.count == 2 else { throw usage("ROWS INDEX|top|bottom") }
            switch arguments[1] {
            case "top": return .move(references(arguments[0]), to: .top)
            case "bottom": return .move(references(arguments[0]), to: .bottom)
            default:
                guard let index = Int(arguments[1]) else { throw usage("ROWS INDEX|top|bottom") }
                return .move(references(arguments[0]), to: .index(index))
            }
        case "delete":
            guard arguments.count == 1 else { throw usage("ROWS (several rows separated by commas)") }
            return .delete(references(arguments[0]))
        case "edit":
            guard arguments.count == 2 else { throw usage("ROW TEXT") }
            return .edit(reference(arguments[0]), arguments[1])
        case "check", "uncheck":
            guard arguments.count == 1 else { throw usage("ROWS (several rows separated by commas)") }
            return .check(references(arguments[0]), done: verb == "check")
        case "undo", "redo":
            guard arguments.isEmpty else { throw CommandError("usage: \(verb) (it takes no arguments)") }
            return verb == "undo" ? .undo : .redo
        default:
            return .drop(try ContactDrop(parsing: arguments))
        }
    }

    /// `a,b,c` as row references.
    static func references(_ word: String) -> [RowReference] {
        word.split(separator: ",").map { reference(String($0)) }
    }

    /// An index when `word` is an integer, else a text.
    private static func reference(_ word: String) -> RowReference {
        Int(word).map { .index($0) } ?? .text(word)
    }
}

/// The contacts of one `drop` command and how their loads behave.
struct ContactDrop: Equatable {
    /// Where the placeholders appear.
    var index: Int
    /// One contact per name, in order.
    var names: [String]
    /// The phone number given to every contact, if any.
    var phone: String?
    /// How long each load takes.
    var delay: Duration
    /// Whether the loads fail (the placeholders are withdrawn).
    var fails: Bool

    /// Parses `INDEX NAME... [--phone P] [--delay D] [--fail]`.
    init(parsing arguments: [String]) throws(CommandError) {
        let syntax = CommandError("usage: drop INDEX NAME... [--phone P] [--delay D] [--fail]")
        guard let first = arguments.first, let index = Int(first) else { throw syntax }
        self.index = index
        names = []
        delay = .zero
        fails = false
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            switch word {
            case "--fail": fails = true
            case "--phone":
                guard let value = rest.popFirst() else { throw syntax }
                phone = value
            case "--delay":
                guard let value = rest.popFirst() else { throw syntax }
                do {
                    delay = try Duration(validating: value)
                } catch {
                    throw CommandError("drop --delay: \(error)")
                }
            default:
                guard !word.hasPrefix("--") else { throw CommandError("drop: unknown option \(word.quoted)") }
                names.append(word)
            }
        }
        guard !names.isEmpty else { throw syntax }
    }

    /// The drop items: one provider per contact offering a vCard and plain text, loading after ``delay``.
    func items() -> [DropItem<Entry>] {
        names.map { name in
            let card = VCard(formattedName: name, phones: phone.map { [$0] } ?? [])
            let delay = delay
            let fails = fails
            return DropItem(
                .provider(typeIdentifiers: [.vCard, .utf8PlainText]) { type in
                    try await Task.sleep(for: delay)
                    if fails { throw LoadFailure(name: name) }
                    return try card.data(for: type)
                },
                provisionalValue: Entry("\(name) (loading…)"))
        }
    }
}

/// A simulated load failure of a dropped contact (`drop --fail`).
struct LoadFailure: Error, CustomStringConvertible {
    /// The contact whose load failed.
    var name: String
    /// Says so.
    var description: String { "loading \(name) failed" }
}

/// What a ``ListCommand`` did.
struct CommandOutcome {
    /// The batch.
    var change = ListChange()
    /// The loads a drop left pending.
    var loads: [DropResult<Entry>.PendingLoad] = []
    /// What the user should know about how the command ran (a block that kept its order, rows an undo left).
    var notes: [String] = []
}

extension ReplicatedList where Element == Entry {
    /// Runs `command` and returns its batch, the loads a drop left pending and notes on how it ran.
    /// - Throws: ``CommandError`` for a row that does not exist or an index out of range; nothing changed.
    func run(_ command: ListCommand) throws(CommandError) -> CommandOutcome {
        let note = moveOrderNote(command)
        var outcome = try perform(command)
        if let note { outcome.notes.insert(note, at: 0) }
        return outcome
    }

    private func perform(_ command: ListCommand) throws(CommandError) -> CommandOutcome {
        switch command {
        case .undo:
            guard canUndo else { return CommandOutcome(notes: ["nothing to undo"]) }
            return reversalOutcome(undo())
        case .redo:
            guard canRedo else { return CommandOutcome(notes: ["nothing to redo"]) }
            return reversalOutcome(redo())
        case .add(let texts):
            return CommandOutcome(change: append(contentsOf: texts.map { Entry($0) }))
        case .insert(let texts, let index):
            try checkGap(index)
            return CommandOutcome(change: insert(contentsOf: texts.map { Entry($0) }, at: index))
        case .move(let references, let destination):
            let offsets = try resolve(references)
            let remaining = indices.filter { !offsets.contains($0) }
            let target: Int
            switch destination {
            case .top: target = 0
            case .bottom: target = remaining.count
            case .index(let index):
                guard (0...remaining.count).contains(index) else {
                    throw CommandError("cannot move to \(index): the rows can land at 0 to \(remaining.count)")
                }
                target = index
            }
            return CommandOutcome(
                change: move(fromOffsets: offsets, toOffset: target < remaining.count ? remaining[target] : count))
        case .delete(let references):
            return CommandOutcome(change: remove(atOffsets: try resolve(references)))
        case .edit(let reference, let text):
            return CommandOutcome(change: modifyValue(at: try resolve(reference)) { $0.text = text })
        case .check(let references, let done):
            let offsets = try resolve(references)
            let (_, change) = transaction { list in
                for index in offsets { list.modifyValue(at: index) { $0.done = done } }
            }
            return CommandOutcome(change: change)
        case .drop(let drop):
            try checkGap(drop.index)
            let items = drop.items()
            let policy = DropPolicy(loadingValue: Entry("loading…"))
            let proposal = dropProposal(for: items, at: .gap(drop.index), policy: policy)
            do {
                let result = try performDrop(items, proposal: proposal, policy: policy)
                return CommandOutcome(change: result.change, loads: result.pendingLoads)
            } catch {
                throw CommandError("drop: \(error)")
            }
        }
    }

    /// An undo's or redo's batch, with a note for each row it left as it is.
    private func reversalOutcome(_ result: UndoResult) -> CommandOutcome {
        var notes: [String] = []
        for skip in result.skipped {
            guard let text = self[row: skip.row]?.value.text.quoted else { continue }
            switch skip.reason {
            case .deleted: continue
            case .movedSince: notes.append("left \(text) where it is: another replica moved it since")
            // One command edits one field (its text, or its check mark), so its undo is left whole or not at all.
            case .editedSince, .fieldsEditedSince:
                notes.append("left \(text) as it reads: another replica edited it since")
            }
        }
        let deleted = result.skipped.count { $0.reason == .deleted }
        if deleted > 0 {
            notes.append("\(deleted == 1 ? "a row" : "\(deleted) rows") it would change was deleted meanwhile")
        }
        return CommandOutcome(change: result.change, notes: notes)
    }

    /// The offsets of `references`; each must name a distinct confirmed row.
    func resolve(_ references: [ListCommand.RowReference]) throws(CommandError) -> IndexSet {
        var offsets = IndexSet()
        for reference in references {
            let offset = try resolve(reference)
            guard !offsets.contains(offset) else { throw CommandError("row \(offset) is named twice") }
            offsets.insert(offset)
        }
        return offsets
    }

    /// The offset of the row `reference` names.
    private func resolve(_ reference: ListCommand.RowReference) throws(CommandError) -> Int {
        switch reference {
        case .index(let index):
            guard indices.contains(index) else {
                throw CommandError(
                    isEmpty
                        ? "row \(index) does not exist: the list is empty"
                        : "row \(index) does not exist: rows are 0 to \(count - 1)")
            }
            guard !self[index].isPending else {
                throw CommandError("row \(index) is a pending placeholder; wait until it loads")
            }
            return index
        case .text(let text):
            let matches = indices.filter { !self[$0].isPending && self[$0].value.text == text }
            guard let index = matches.first else {
                throw CommandError("no row reads \(text.quoted); name it by its text exactly or by its index")
            }
            guard matches.count == 1 else {
                throw CommandError(
                    "\(matches.count) rows read \(text.quoted) (rows \(matches.map(String.init).listed(upTo: 4))); "
                        + "name the one you mean by its index")
            }
            return index
        }
    }

    /// When `command` moves rows it names in an order other than their list order, a note that they
    /// keep their list order (`the rows keep their list order: 'Oslo', 'Rome'`); else nil.
    private func moveOrderNote(_ command: ListCommand) -> String? {
        guard case .move(let references, _) = command, let offsets = try? references.map({ try resolve($0) }),
            offsets != offsets.sorted()
        else { return nil }
        let texts = offsets.sorted().map { self[$0].value.text.quoted }
        return "the rows keep their list order: \(texts.joined(separator: ", ")) (a moved block keeps its order; "
            + "move rows one at a time to reorder them)"
    }

    /// Throws unless `index` is a gap of the list (0 to count).
    private func checkGap(_ index: Int) throws(CommandError) {
        guard (0...count).contains(index) else {
            throw CommandError("index \(index) is out of range: rows can be inserted at 0 to \(count)")
        }
    }
}
