/// A replica's undo and redo stacks: groups of steps, each step what reverses one local edit.
///
/// Pure bookkeeping: the list records a step after each local edit (``record(_:)``), opens and closes a
/// group around each outermost transaction, and runs a popped group's steps itself
/// (ReplicatedList+Undo.swift). Steps name rows by ``RowID`` and carry the stamps the edit gave them,
/// so a step reverses its edit only while no one has changed that row since.
@usableFromInline
struct UndoHistory<Element> {
    /// Where a row was: after the row `after`, else before the row `before`, else at `index`.
    @usableFromInline
    struct Place {
        var after: RowID?
        var before: RowID?
        var index: Int
    }

    /// A row a local edit deleted: its value, where it was, and its stamps when it was deleted (for a
    /// struct row, its fields' versions too: ``ReplicatedList/fieldVersion(ofRow:field:)``).
    @usableFromInline
    struct RemovedRow {
        var row: RowID
        var value: Element
        var place: Place
        var positionStamp: Stamp
        var valueVersion: Stamp
        /// The stamps of the row's field registers, by field name (empty for a row without any).
        var fieldStamps: [String: Stamp]
        /// The row's whole-value stamp: the version of its fields without a register.
        var valueStamp: Stamp
    }

    /// A row a local edit moved: the position stamps it had before and after, and where it was before.
    @usableFromInline
    struct MovedRow {
        var row: RowID
        var stamp: Stamp
        var previousStamp: Stamp
        var place: Place
    }

    /// A row a local edit changed: its value versions (``ReplicatedList/valueVersion(ofRow:)``) before and
    /// after, and its value before.
    @usableFromInline
    struct EditedRow {
        var row: RowID
        var stamp: Stamp
        var previousStamp: Stamp
        var previous: Element
        /// For a struct row edited field by field: the fields the edit wrote, each with its versions
        /// after and before, so the edit is reversed field by field; nil for a whole-value edit. (Until
        /// the edit is recorded: the stamps of the row's field registers before it, as `previousStamp`s.)
        var fields: [String: FieldVersions]?
    }

    /// A field's versions (``ReplicatedList/fieldVersion(ofRow:field:)``) after and before an edit.
    @usableFromInline
    struct FieldVersions: Hashable {
        var stamp: Stamp
        var previousStamp: Stamp
    }

    /// How a reversal changed a row's field versions, for ``rewrite(_:as:position:value:fields:)``: the
    /// named fields, and every other field (a copy put back after a delete has all its fields new).
    struct FieldRewrite {
        var named: [String: (from: Stamp, to: Stamp)] = [:]
        var others: (from: Stamp, to: Stamp)?

        /// The version a step that expected `stamp` of field `name` expects now.
        func rewritten(_ stamp: Stamp, of name: String) -> Stamp {
            if let named = named[name] { return stamp == named.from ? named.to : stamp }
            if let others, stamp == others.from { return others.to }
            return stamp
        }
    }

    /// What reverses one local edit.
    @usableFromInline
    enum Step {
        /// Rows and placeholders an edit inserted: reversed by deleting the rows still visible and
        /// withdrawing the placeholders still pending (a committed placeholder is its row by then).
        case inserted([ItemID])
        /// Rows an edit deleted: reversed by inserting copies (new row IDs) where they were.
        case removed([RemovedRow])
        /// Rows an edit moved: reversed by moving each back, in order, while its position stamp is still
        /// the move's.
        case moved([MovedRow])
        /// A row an edit changed: reversed by writing its previous value back while its value version is
        /// still the edit's.
        case edited(EditedRow)
    }

    /// The steps of one user action (one edit, or one outermost transaction), in the order made.
    typealias Group = [Step]

    /// The most groups each stack keeps; the oldest are dropped beyond it.
    let limit: Int
    /// Groups to undo, the last one first.
    private(set) var undoGroups: [Group] = []
    /// Groups to redo, the last one first.
    private(set) var redoGroups: [Group] = []
    /// The group of the open outermost transaction, if one is open.
    private var openGroup: Group?
    /// How many transactions are open.
    private var depth = 0
    /// The steps an undo or redo under way records: they reverse the group being undone or redone.
    private var reversal: Group?
    /// The group being undone or redone, kept here so that ``rewrite(_:as:position:value:)``
    /// can rewrite its steps not yet run.
    private(set) var reversing: Group = []

    init(limit: Int) {
        precondition(limit > 0, "an undo limit must be positive, not \(limit)")
        self.limit = limit
    }

    /// Records `step`, made by a local edit: into the reversal under way, else into the open
    /// transaction's group, else as a group of its own (which clears the redo stack).
    mutating func record(_ step: Step) {
        if reversal != nil {
            reversal!.append(step)
        } else if openGroup != nil {
            openGroup!.append(step)
        } else {
            pushNew([step])
        }
    }

    /// A transaction begins: the outermost one opens a group.
    mutating func beginTransaction() {
        depth += 1
        if depth == 1 { openGroup = [] }
    }

    /// A transaction ends: the outermost one closes its group, kept when it holds a step.
    mutating func endTransaction() {
        precondition(depth > 0, "a transaction ended that did not begin")
        depth -= 1
        guard depth == 0, let group = openGroup else { return }
        openGroup = nil
        if !group.isEmpty { pushNew(group) }
    }

    /// Pops the group to undo (or redo) and starts its reversal; nil when that stack is empty.
    mutating func beginReversal(redoing: Bool) -> Group? {
        precondition(reversal == nil, "an undo or redo is already under way")
        guard let group = redoing ? redoGroups.popLast() : undoGroups.popLast() else { return nil }
        reversing = group
        reversal = []
        return group
    }

    /// Ends the reversal begun by ``beginReversal(redoing:)``: the steps it recorded go, as one group,
    /// onto the other stack (an undo's onto the redo stack, a redo's onto the undo stack, which keeps
    /// the redo stack as it is).
    mutating func endReversal(redoing: Bool) {
        guard let steps = reversal else { preconditionFailure("no undo or redo under way") }
        reversal = nil
        reversing = []
        guard !steps.isEmpty else { return }
        if redoing {
            Self.push(steps, onto: &undoGroups, limit: limit)
        } else {
            Self.push(steps, onto: &redoGroups, limit: limit)
        }
    }

    /// Placeholder `placeholder` was committed as the row `row`: the steps that withdraw it delete the row
    /// instead.
    /// - Complexity: O(s) for s steps kept.
    mutating func committed(_ placeholder: PlaceholderID, as row: RowID) {
        rewrite { step in
            guard case .inserted(var items) = step, let offset = items.firstIndex(of: .placeholder(placeholder)) else {
                return
            }
            items[offset] = .row(row)
            step = .inserted(items)
        }
    }

    /// Steps kept name `row`, and expect the stamps in `position` and `value` (when given): they name
    /// `new` instead, and those that expected a stamp `from` now expect its `to`. An undo or redo calls
    /// it after each row it changed, so the steps still to run see the row as the stamps say: a row put
    /// back after a delete is a copy with new stamps; one moved or edited back has the stamps of that
    /// move or edit where the steps expected those of the state it returned to.
    /// `fields` does the same for the versions of the row's fields.
    /// - Complexity: O(s) for s steps kept.
    mutating func rewrite(
        _ row: RowID, as new: RowID, position: (from: Stamp, to: Stamp)?, value: (from: Stamp, to: Stamp)?,
        fields: FieldRewrite = FieldRewrite()
    ) {
        func renamed(_ place: Place) -> Place {
            Place(
                after: place.after == row ? new : place.after, before: place.before == row ? new : place.before,
                index: place.index)
        }
        rewrite { step in
            switch step {
            case .inserted(let items):
                if row != new { step = .inserted(items.map { $0 == .row(row) ? .row(new) : $0 }) }
            case .removed(var rows):
                for offset in rows.indices {
                    rows[offset].place = renamed(rows[offset].place)
                    guard rows[offset].row == row else { continue }
                    rows[offset].row = new
                    if let position, rows[offset].positionStamp == position.from {
                        rows[offset].positionStamp = position.to
                    }
                    if let value, rows[offset].valueVersion == value.from { rows[offset].valueVersion = value.to }
                    for (name, stamp) in rows[offset].fieldStamps {
                        rows[offset].fieldStamps[name] = fields.rewritten(stamp, of: name)
                    }
                    if let others = fields.others, rows[offset].valueStamp == others.from {
                        rows[offset].valueStamp = others.to
                    }
                }
                step = .removed(rows)
            case .moved(var rows):
                for offset in rows.indices {
                    rows[offset].place = renamed(rows[offset].place)
                    guard rows[offset].row == row else { continue }
                    rows[offset].row = new
                    if let position, rows[offset].stamp == position.from { rows[offset].stamp = position.to }
                }
                step = .moved(rows)
            case .edited(var edit):
                guard edit.row == row else { return }
                edit.row = new
                if let value, edit.stamp == value.from { edit.stamp = value.to }
                if let written = edit.fields {
                    for (name, versions) in written {
                        edit.fields![name]!.stamp = fields.rewritten(versions.stamp, of: name)
                    }
                }
                step = .edited(edit)
            }
        }
    }

    /// Applies `body` to every step kept: both stacks, the open group, the group being reversed and the
    /// reversal under way.
    private mutating func rewrite(_ body: (inout Step) -> Void) {
        func each(_ group: inout Group) {
            for offset in group.indices { body(&group[offset]) }
        }
        for offset in undoGroups.indices { each(&undoGroups[offset]) }
        for offset in redoGroups.indices { each(&redoGroups[offset]) }
        if openGroup != nil { each(&openGroup!) }
        if reversal != nil { each(&reversal!) }
        each(&reversing)
    }

    /// Pushes a group made by a new local action: it goes onto the undo stack and clears the redo stack.
    private mutating func pushNew(_ group: Group) {
        Self.push(group, onto: &undoGroups, limit: limit)
        redoGroups.removeAll()
    }

    private static func push(_ group: Group, onto stack: inout [Group], limit: Int) {
        stack.append(group)
        if stack.count > limit { stack.removeFirst(stack.count - limit) }
    }
}
