import Foundation
import Testing

@testable import ListSync

/// Undo and redo of a replica's own edits, one rule at a time (the randomized suite is
/// UndoConvergenceTests).
struct UndoTests {
    struct Item: Codable, Equatable, Sendable {
        var title: String
        var done: Bool
    }

    /// Replica 1's list of one unchecked "milk", recording undo.
    private func milk() -> ReplicatedList<Item> {
        let list = ReplicatedList<Item>(replicaID: ReplicaID(1))
        list.append(Item(title: "milk", done: false))
        list.enableUndo()
        return list
    }

    private func list(_ values: [String], replica: UInt64 = 1) -> ReplicatedList<String> {
        let list = ReplicatedList<String>(replicaID: ReplicaID(replica))
        list.append(contentsOf: values)
        list.enableUndo()
        return list
    }

    private func values<Element>(_ list: ReplicatedList<Element>) -> [Element] { list.map(\.value) }

    private func sync<Element>(_ a: ReplicatedList<Element>, _ b: ReplicatedList<Element>) throws {
        try b.merge(a.changes(since: b.versionVector))
        try a.merge(b.changes(since: a.versionVector))
    }

    /// Applies `change` to `rows` as a table view would, reading inserted and updated rows from `list`.
    private func apply(_ change: ListChange, to rows: inout [String], from list: ReplicatedList<String>) {
        change.apply(to: &rows) { list[$0].value }
        for index in change.updated { rows[index] = list[index].value }
    }

    @Test func undoingAnInsertDeletesItsRowsAndRedoingPutsCopiesBack() throws {
        let list = list(["a", "b"])
        list.insert(contentsOf: ["x", "y"], at: 1)
        let inserted = [list[1].rowID!, list[2].rowID!]
        #expect(list.canUndo && !list.canRedo)
        let undone = list.undo()
        #expect(values(list) == ["a", "b"])
        #expect(inserted.allSatisfy(list.isDeleted))
        #expect(undone.change == ListChange(removed: [1, 2]) && undone.skipped.isEmpty)
        #expect(!list.canUndo && list.canRedo)
        list.redo()
        #expect(values(list) == ["a", "x", "y", "b"])
        #expect(!inserted.contains(list[1].rowID!) && !inserted.contains(list[2].rowID!))  // copies
        list._checkInvariants()
    }

    @Test func undoingADeleteInsertsCopiesWhereTheRowsWere() throws {
        let list = list(["a", "b", "c", "d", "e"])
        let removed = [list[1].rowID!, list[2].rowID!, list[4].rowID!]
        list.remove(atOffsets: [1, 2, 4])
        list.insert("new", at: 1)  // between a and d
        list.undo()  // the insert
        list.undo()  // the delete
        #expect(values(list) == ["a", "b", "c", "d", "e"])
        #expect(removed.allSatisfy(list.isDeleted))  // deletion is final: these are copies
        list.redo()
        #expect(values(list) == ["a", "d"])
        list.undo()
        #expect(values(list) == ["a", "b", "c", "d", "e"])
    }

    @Test func undoingAMoveMovesTheRowBackAndRedoMovesItAgain() throws {
        let list = list(["a", "b", "c", "d"])
        let row = list[0].rowID!
        list.move(from: 0, to: 3)
        #expect(values(list) == ["b", "c", "d", "a"])
        list.undo()
        #expect(values(list) == ["a", "b", "c", "d"] && list[0].rowID == row)
        list.redo()
        #expect(values(list) == ["b", "c", "d", "a"] && list[3].rowID == row)
    }

    @Test func undoingABlockMovePutsTheBlockBackInOrder() throws {
        let list = list(["x", "a", "b", "c", "y", "z"])
        list.move(fromOffsets: [1, 2, 3], toOffset: 6)
        #expect(values(list) == ["x", "y", "z", "a", "b", "c"])
        list.undo()
        #expect(values(list) == ["x", "a", "b", "c", "y", "z"])
        list.redo()
        #expect(values(list) == ["x", "y", "z", "a", "b", "c"])
        list.undo()
        #expect(values(list) == ["x", "a", "b", "c", "y", "z"])
    }

    @Test func successiveMovesOfOneRowAreUndoneOneByOne() throws {
        let list = list(["a", "b", "c", "d"])
        list.move(from: 0, to: 1)  // b a c d
        list.move(from: 1, to: 3)  // b c d a
        list.undo()
        #expect(values(list) == ["b", "a", "c", "d"])
        list.undo()  // expects the stamp of the first undo's move, not the first move's
        #expect(values(list) == ["a", "b", "c", "d"])
        list.redo()
        list.redo()
        #expect(values(list) == ["b", "c", "d", "a"])
    }

    @Test func successiveEditsOfOneRowAreUndoneOneByOne() throws {
        let list = list(["a"])
        list.updateValue("b", at: 0)
        list.updateValue("c", at: 0)
        list.undo()
        #expect(list.undo().skipped.isEmpty)  // expects the first undo's edit, not the first edit
        #expect(values(list) == ["a"])
        list.redo()
        list.redo()
        #expect(values(list) == ["c"])
    }

    @Test func anUndoNeverOverridesAMoveByAnotherReplica() throws {
        let phone = list(["a", "b", "c", "d"])
        let tablet = ReplicatedList<String>(replicaID: ReplicaID(2))
        try sync(phone, tablet)
        let row = phone[0].rowID!
        phone.move(from: 0, to: 3)
        try sync(phone, tablet)
        tablet.move(from: 3, to: 1)  // the tablet moves the same row after the phone did
        try sync(phone, tablet)
        let undone = phone.undo()
        #expect(undone.skipped == [UndoResult.Skip(row, .movedSince)])
        #expect(undone.change.isEmpty)
        try sync(phone, tablet)
        #expect(values(phone) == ["b", "a", "c", "d"] && values(tablet) == values(phone))
    }

    @Test func undoingAnEditRestoresThePreviousValueUnlessAnotherReplicaEditedSince() throws {
        let phone = list(["a", "b"])
        let tablet = ReplicatedList<String>(replicaID: ReplicaID(2))
        try sync(phone, tablet)
        phone.updateValue("A", at: 0)
        phone.updateValue("B", at: 1)
        try sync(phone, tablet)
        tablet.updateValue("b2", at: 1)
        try sync(phone, tablet)
        let undone = phone.undo()  // B was edited since on the tablet
        #expect(undone.skipped == [UndoResult.Skip(phone[1].rowID!, .editedSince)])
        phone.undo()
        #expect(values(phone) == ["a", "b2"])
        try sync(phone, tablet)
        #expect(values(tablet) == ["a", "b2"])
    }

    /// A struct row's edit is undone field by field: a field another replica edited since stays theirs,
    /// the edit's own fields go back, and a redo brings them forward again.
    @Test func anEditOfAnotherFieldSinceStaysWhenAStructRowsEditIsUndone() throws {
        let phone = milk()
        let tablet = ReplicatedList<Item>(replicaID: ReplicaID(2))
        try sync(phone, tablet)
        phone.modifyValue(at: 0) { $0.title = "oat milk" }
        phone.modifyValue(at: 0) { $0.done = true }
        phone.undo()
        #expect(values(phone) == [Item(title: "oat milk", done: false)])
        try sync(phone, tablet)
        tablet.modifyValue(at: 0) { $0.done = true }  // another field, after the title edit
        try sync(phone, tablet)
        let undone = phone.undo()
        #expect(undone.skipped.isEmpty)
        #expect(values(phone) == [Item(title: "milk", done: true)])
        try sync(phone, tablet)
        #expect(values(tablet) == [Item(title: "milk", done: true)])
        phone.redo()
        #expect(values(phone) == [Item(title: "oat milk", done: true)])
        // The tablet's check mark was never the phone's to undo.
        phone.undo()
        phone.undo()
        #expect(values(phone) == [Item(title: "milk", done: true)])
    }

    /// A field another replica edited after the edit is left, and said so; the edit's other fields go
    /// back. When every field it changed was edited since, the row is left as it reads.
    @Test func fieldsEditedElsewhereSinceAreLeftAndTheRestIsUndone() throws {
        let phone = milk()
        let tablet = ReplicatedList<Item>(replicaID: ReplicaID(2))
        try sync(phone, tablet)
        phone.updateValue(Item(title: "oat milk", done: true), at: 0)  // two fields in one edit
        try sync(phone, tablet)
        tablet.modifyValue(at: 0) { $0.done = false }
        try sync(phone, tablet)
        let row = try #require(phone[0].rowID)
        let partly = phone.undo()
        #expect(partly.skipped == [UndoResult.Skip(row, .fieldsEditedSince(["done"]))])
        #expect(values(phone) == [Item(title: "milk", done: false)])
        phone.modifyValue(at: 0) { $0.title = "soy milk" }
        try sync(phone, tablet)
        tablet.modifyValue(at: 0) { $0.title = "rice milk" }
        try sync(phone, tablet)
        let none = phone.undo()
        #expect(none.skipped == [UndoResult.Skip(row, .editedSince)])
        #expect(none.change.isEmpty)
        #expect(values(phone) == [Item(title: "rice milk", done: false)])
    }

    /// Two edits of one field of a struct row undo one after the other, and redo back.
    @Test func twoEditsOfOneFieldUndoInTurn() throws {
        let list = milk()
        list.modifyValue(at: 0) { $0.title = "oat milk" }
        list.modifyValue(at: 0) { $0.title = "soy milk" }
        list.undo()
        let first = list.undo()
        #expect(first.skipped.isEmpty)
        #expect(values(list) == [Item(title: "milk", done: false)])
        list.redo()
        list.redo()
        #expect(values(list) == [Item(title: "soy milk", done: false)])
    }

    /// A struct row edited field by field, then deleted: undoing the delete and then each edit restores
    /// each field on the copy, in turn.
    @Test func undoingADeleteThenFieldEditsRestoresEachFieldOnTheCopy() throws {
        let list = milk()
        list.modifyValue(at: 0) { $0.title = "oat milk" }
        list.modifyValue(at: 0) { $0.done = true }
        list.remove(at: 0)
        list.undo()
        #expect(values(list) == [Item(title: "oat milk", done: true)])
        list.undo()
        #expect(values(list) == [Item(title: "oat milk", done: false)])
        let last = list.undo()
        #expect(last.skipped.isEmpty)
        #expect(values(list) == [Item(title: "milk", done: false)])
        list.redo()
        list.redo()
        #expect(values(list) == [Item(title: "oat milk", done: true)])
    }

    @Test func undoingADeleteAfterAnEditThenTheEditRestoresTheFirstValueOnTheCopy() throws {
        let list = list(["a", "b"])
        list.updateValue("b2", at: 1)
        list.move(from: 1, to: 0)  // b2 a
        list.remove(at: 0)
        list.undo()
        #expect(values(list) == ["b2", "a"])
        list.undo()
        #expect(values(list) == ["a", "b2"])
        list.undo()
        #expect(values(list) == ["a", "b"])
        #expect(!list.canUndo)
        list.redo()
        list.redo()
        list.redo()
        #expect(values(list) == ["a"])
    }

    @Test func aTransactionIsOneActionAndItsUndoOneBatch() throws {
        let list = list(["a", "b", "c"])
        let before = list.map(\.value)
        _ = list.transaction { list in
            list.append("d")
            list.move(from: 3, to: 0)
            list.remove(at: 2)
            list.updateValue("A", at: 1)
        }
        let after = list.map(\.value)
        #expect(after == ["d", "A", "c"])
        var mirror = after
        apply(list.undo().change, to: &mirror, from: list)
        #expect(values(list) == before && mirror == before)
        #expect(!list.canUndo)
        apply(list.redo().change, to: &mirror, from: list)
        #expect(values(list) == after && mirror == after)
    }

    @Test func mergesAreNeverUndoneAndANewEditClearsTheRedoStack() throws {
        let phone = list([])
        let tablet = ReplicatedList<String>(replicaID: ReplicaID(2))
        tablet.append(contentsOf: ["t1", "t2"])
        try sync(phone, tablet)
        #expect(!phone.canUndo)
        phone.append("p")
        phone.undo()
        #expect(phone.canRedo)
        try sync(phone, tablet)
        #expect(phone.canRedo)  // a merge keeps it
        phone.append("q")
        #expect(!phone.canRedo)
        phone.undo()
        #expect(values(phone) == ["t1", "t2"] && !phone.canUndo)
        #expect(phone.undo() == UndoResult())
    }

    @Test func undoingADropWithdrawsItsPendingPlaceholdersAndDeletesItsCommittedOnes() throws {
        let list = list(["a", "b"])
        let ids = list.transaction { list in
            list.insert("dropped", at: 1)
            return list.insertPlaceholders(showing: ["loading 1", "loading 2"], at: 2).ids
        }.result
        let (committed, _) = try list.commitPlaceholder(ids[0], value: "loaded")
        #expect(values(list) == ["a", "dropped", "loaded", "loading 2", "b"])
        #expect(list.canUndo)
        let undone = list.undo()
        #expect(values(list) == ["a", "b"] && list.pendingCount == 0)
        #expect(list.isDeleted(committed) && undone.skipped.isEmpty)
        #expect(throws: PlaceholderError.notPending(ids[1])) { try list.commitPlaceholder(ids[1], value: "late") }
        list.redo()  // the rows come back as copies; a withdrawn load does not
        #expect(values(list) == ["a", "dropped", "loaded", "b"])
    }

    @Test func anUndoInsideATransactionIsNotPartOfItsAction() throws {
        let list = list(["a"])
        list.append("b")
        _ = list.transaction { list in
            list.append("c")
            list.undo()  // undoes the earlier append of b, not c
        }
        #expect(values(list) == ["a", "c"])
        list.undo()  // the transaction: its append of c
        #expect(values(list) == ["a"])
        list.redo()
        #expect(values(list) == ["a", "c"])
    }

    @Test func theOldestActionsAreForgottenBeyondTheLimit() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.enableUndo(limit: 2)
        for value in ["a", "b", "c"] { list.append(value) }
        list.undo()
        list.undo()
        #expect(!list.canUndo && values(list) == ["a"])
    }
}
