import Foundation
import ListSync
import Testing

@testable import syncdemo

/// The `undo` and `redo` commands: one command is one step, and what another replica changed since is
/// left as it is, with a note that says so.
@Suite struct UndoCommandTests {
    private func list(_ replica: UInt64) -> ReplicatedList<Entry> {
        let list = ReplicatedList<Entry>(replicaID: ReplicaID(replica))
        list.enableUndo()
        return list
    }

    private func sync(_ a: ReplicatedList<Entry>, _ b: ReplicatedList<Entry>) throws {
        try b.merge(a.changes(since: b.versionVector))
        try a.merge(b.changes(since: a.versionVector))
    }

    @Test func eachCommandIsOneStepAndACheckUndoesAsACheck() throws {
        let list = list(1)
        _ = try list.run(.add(["a", "b", "c"]))
        _ = try list.run(.check([.index(0), .index(2)], done: true))
        _ = try list.run(.move([.text("b")], to: .top))
        #expect(list.map(\.value.description) == ["b", "✓ a", "✓ c"])
        _ = try list.run(.undo)
        _ = try list.run(.undo)
        #expect(list.map(\.value.description) == ["a", "b", "c"])
        _ = try list.run(.redo)
        #expect(list.map(\.value.description) == ["✓ a", "b", "✓ c"])
        _ = try list.run(.redo)
        #expect(list.map(\.value.description) == ["b", "✓ a", "✓ c"])
        #expect(try list.run(.redo).notes == ["nothing to redo"])
    }

    @Test func rowsAnotherReplicaChangedSinceAreLeftWithANote() throws {
        let phone = list(1)
        let tablet = list(2)
        _ = try phone.run(.add(["Paris", "Rome", "Oslo"]))
        try sync(phone, tablet)
        _ = try phone.run(.move([.text("Oslo")], to: .top))
        _ = try phone.run(.edit(.text("Paris"), "Lyon"))
        try sync(phone, tablet)
        _ = try tablet.run(.edit(.text("Lyon"), "Nice"))
        _ = try tablet.run(.move([.text("Oslo")], to: .bottom))
        try sync(phone, tablet)
        #expect(try phone.run(.undo).notes == ["left 'Nice' as it reads: another replica edited it since"])
        #expect(try phone.run(.undo).notes == ["left 'Oslo' where it is: another replica moved it since"])
        #expect(phone.map(\.value.text) == ["Nice", "Rome", "Oslo"])
    }

    /// An edit of a row's text undoes while another replica checked the row off since: its check mark
    /// is another field, and stays.
    @Test func anEditUndoesAroundAnotherReplicasCheckMark() throws {
        let phone = list(1)
        let tablet = list(2)
        _ = try phone.run(.add(["Paris"]))
        _ = try phone.run(.edit(.text("Paris"), "Lyon"))
        try sync(phone, tablet)
        _ = try tablet.run(.check([.text("Lyon")], done: true))
        try sync(phone, tablet)
        #expect(try phone.run(.undo).notes == [])
        try sync(phone, tablet)
        #expect(phone.map(\.value.description) == ["✓ Paris"])
        #expect(tablet.map(\.value.description) == ["✓ Paris"])
    }

    @Test(arguments: ["undo", "redo"])
    func undoAndRedoTakeNoArguments(verb: String) throws {
        #expect(try ListCommand.parse([verb]) == (verb == "undo" ? .undo : .redo))
        #expect {
            try ListCommand.parse([verb, "2"])
        } throws: { error in
            (error as? CommandError)?.message == "usage: \(verb) (it takes no arguments)"
        }
    }
}
